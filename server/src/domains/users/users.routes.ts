import { Type } from '@sinclair/typebox';
import { ChangePasswordBody, CreateOrUpdateUserBody, CreateUserBody, JsonPatchBody, User, UserIdParams } from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import type { Principal } from '../../http/principal.js';
import { isAdminPrincipal } from '../../http/principal.js';
import { emptyError } from '../../http/problem.js';
import type { UsersService } from './users.service.js';

/** The calling account's id (401 for the first-run principal, which has no account). */
export const currentUserId = (principal: Principal | null): number => {
  if (principal?.kind !== 'user') throw emptyError(401);
  return principal.userId;
};

/** User bodies may carry an avatar as a data URI; everything else stays under the server's 1 MB default. */
const AVATAR_BODY_LIMIT = 8 * 1024 * 1024;

export function registerUserRoutes(app: App, deps: { users: UsersService }) {
  const { users } = deps;
  const tags = ['User'];

  app.get('/api/v3/User', { config: { auth: 'admin' }, schema: { tags, response: { 200: Type.Array(User) } } }, () => users.list());

  app.post(
    '/api/v3/User',
    { config: { auth: 'admin' }, bodyLimit: AVATAR_BODY_LIMIT, schema: { tags, body: CreateUserBody, response: { 200: User } } },
    (request) => users.create(request.body, true),
  );

  app.get('/api/v3/User/Current', { config: { auth: 'user' }, schema: { tags, response: { 200: User } } }, (request) =>
    users.get(currentUserId(request.principal)),
  );

  app.put(
    '/api/v3/User/Current',
    { config: { auth: 'user' }, bodyLimit: AVATAR_BODY_LIMIT, schema: { tags, body: CreateOrUpdateUserBody, response: { 200: User } } },
    (request) => users.update(currentUserId(request.principal), request.body, isAdminPrincipal(request.principal)),
  );

  // JSON Patch over an empty CreateOrUpdateUserBody; a non-admin gets the non-admin rules of PUT (no admin fields).
  app.patch(
    '/api/v3/User/Current',
    { config: { auth: 'user' }, bodyLimit: AVATAR_BODY_LIMIT, schema: { tags, body: JsonPatchBody, response: { 200: User } } },
    (request) => users.patch(currentUserId(request.principal), request.body, isAdminPrincipal(request.principal)),
  );

  app.post(
    '/api/v3/User/Current/ChangePassword',
    { config: { auth: 'user' }, schema: { tags, body: ChangePasswordBody } },
    async (request, reply) => {
      await users.changePassword(currentUserId(request.principal), request.body);
      return reply.send();
    },
  );

  app.get(
    '/api/v3/User/:userID',
    { config: { auth: 'admin' }, schema: { tags, params: UserIdParams, response: { 200: User } } },
    (request) => users.get(request.params.userID),
  );

  app.put(
    '/api/v3/User/:userID',
    {
      config: { auth: 'admin' },
      bodyLimit: AVATAR_BODY_LIMIT,
      schema: { tags, params: UserIdParams, body: CreateOrUpdateUserBody, response: { 200: User } },
    },
    (request) => users.update(request.params.userID, request.body, true),
  );

  app.patch(
    '/api/v3/User/:userID',
    {
      config: { auth: 'admin' },
      bodyLimit: AVATAR_BODY_LIMIT,
      schema: { tags, params: UserIdParams, body: JsonPatchBody, response: { 200: User } },
    },
    (request) => users.patch(request.params.userID, request.body, true),
  );

  app.delete('/api/v3/User/:userID', { config: { auth: 'admin' }, schema: { tags, params: UserIdParams } }, async (request, reply) => {
    const caller = request.principal?.kind === 'user' ? request.principal.userId : null;
    await users.delete(request.params.userID, caller);
    return reply.send();
  });

  app.post(
    '/api/v3/User/:userID/ChangePassword',
    { config: { auth: 'admin' }, schema: { tags, params: UserIdParams, body: ChangePasswordBody } },
    async (request, reply) => {
      await users.changePassword(request.params.userID, request.body);
      return reply.send();
    },
  );
}
