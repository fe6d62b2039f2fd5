// The network domain's public face: what other domains and the wiring may use of it.
export { NetworkService } from './network.service.js';
export { createNetworkDomain } from './network.wiring.js';
export { registerNetworkRoutes } from './network.routes.js';
