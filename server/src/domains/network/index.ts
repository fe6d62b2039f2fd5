// Connectivity: whether the server reaches the internet and AniDB, checked by monitors.
// This is its public face: what other domains and the wiring may use of it.
export { NetworkService } from './network.service.js';
export { createNetworkDomain } from './network.wiring.js';
export { registerNetworkRoutes } from './network.routes.js';
