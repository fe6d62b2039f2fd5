// The server actions of `GET Action/<Name>`: imports, scans, refreshes, syncs and clean-ups run on demand.
// This is its public face: what other domains and the wiring may use of it.
export { createActionsDomain } from './actions.wiring.js';
export { registerActionRoutes } from './actions.routes.js';
