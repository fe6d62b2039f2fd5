// Accounts: users, passwords, avatars, tag restrictions and each user's own console settings.
// This is its public face: what other domains and the wiring may use of it.
export { checkAvatar } from './avatar.js';
export { hashPassword, needsRehash, shokoPasswordHash, verifyPassword } from './password.js';
export { UsersStore, usernameKey } from './users.store.js';
export type { UsersService } from './users.service.js';
export { createUsersDomain } from './users.wiring.js';
export { registerUserRoutes } from './users.routes.js';
export { registerUserWebUISettingsRoutes } from './webui-settings.routes.js';
export { createUserWebUISettings } from './webui-settings.service.js';
