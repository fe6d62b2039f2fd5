// Trakt and Plex: linking accounts, syncing watch state, the Plex webhook.
// This is its public face: what other domains and the wiring may use of it.
export { createIntegrations } from './integrations.domain.js';
export type { IntegrationsDomain } from './integrations.domain.js';
export { registerIntegrationRoutes } from './integrations.routes.js';
