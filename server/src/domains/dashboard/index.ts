// The dashboard domain's public face: what other domains and the wiring may use of it.
export type { DashboardService } from './dashboard.service.js';
export { createDashboardDomain } from './dashboard.wiring.js';
export { registerDashboardRoutes } from './dashboard.routes.js';
