// The release-management domain's public face: what other domains and the wiring may use of it.
export type { ReleaseManagementService } from './release-management.service.js';
export { createReleaseManagementDomain } from './release-management.wiring.js';
export { registerReleaseManagementRoutes } from './release-management.routes.js';
