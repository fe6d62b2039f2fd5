// Start-up and the first run: migrations, the start steps, server state and health.
// This is its public face: what other domains and the wiring may use of it.
export { createInitDomain } from './init.wiring.js';
export type { InitDomain } from './init.wiring.js';
export { ServerStateService } from './server-state.js';
export { versionSet } from './version.js';
export { registerHealthRoutes } from './health.routes.js';
export { registerInitRoutes } from './init.routes.js';
