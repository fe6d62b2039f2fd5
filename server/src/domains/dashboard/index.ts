// The dashboard: collection statistics, recent imports, continue watching, next up, calendars, top tags.
// This is its public face: what other domains and the wiring may use of it.
export type { DashboardService } from './dashboard.service.js';
export { createDashboardDomain } from './dashboard.wiring.js';
export { registerDashboardRoutes } from './dashboard.routes.js';
