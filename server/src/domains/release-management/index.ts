// Release management: multiple releases, duplicate files and missing episodes, and what to keep.
// This is its public face: what other domains and the wiring may use of it.
export type { ReleaseManagementService } from './release-management.service.js';
export { createReleaseManagementDomain } from './release-management.wiring.js';
export { registerReleaseManagementRoutes } from './release-management.routes.js';
