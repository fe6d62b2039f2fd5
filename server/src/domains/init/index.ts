// The init domain's public face: what other domains and the wiring may use of it.
export { createInitDomain } from './init.wiring.js';
export type { InitDomain } from './init.wiring.js';
export { ServerStateService } from './server-state.js';
export { versionSet } from './version.js';
export { registerHealthRoutes } from './health.routes.js';
export { registerInitRoutes } from './init.routes.js';
