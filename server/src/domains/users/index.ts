// The users domain's public face: what other domains and the wiring may use of it.
export { checkAvatar } from './avatar.js';
export { hashPassword, needsRehash, shokoPasswordHash, verifyPassword } from './password.js';
export { UsersStore, usernameKey } from './users.store.js';
export type { UsersService } from './users.service.js';
export { createUsersDomain } from './users.wiring.js';
