// API keys: logins that hand them out, their checks on every request, revocation and the login throttle.
// This is its public face: what other domains and the wiring may use of it.
export { AuthService } from './auth.service.js';
export { hashApiKey } from './api-key.js';
export { createAuthDomain } from './auth.wiring.js';
export type { AuthDomain } from './auth.wiring.js';
export { registerAuthRoutes } from './auth.routes.js';
