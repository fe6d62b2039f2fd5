// The actions domain's public face: what other domains and the wiring may use of it.
export { createActionsDomain } from './actions.wiring.js';
export { registerActionRoutes } from './actions.routes.js';
