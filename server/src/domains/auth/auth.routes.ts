import { Type } from '@sinclair/typebox';
import { ApikeyResult, AuthChangePasswordBody, AuthChangePasswordQuery, AuthResult, DeviceOrKeyBody, LoginBody } from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { throttledPasswordCheck, type LoginThrottle } from '../../http/login-throttle.js';
import { badRequest, FieldErrorCollector, HttpError, problemError, validationError } from '../../http/problem.js';
import { sendText } from '../../http/reply.js';
import type { AuthService } from './auth.service.js';

/** `/api/auth` (Shoko's version-neutral v0 controller): login and API key management. */
export function registerAuthRoutes(
  app: App,
  deps: {
    auth: AuthService;
    throttle: LoginThrottle;
    /** The users domain's password change (hashes, stores, revokes every key of the user); 404 for an unknown user. */
    changePassword(userId: number, body: { Password: string; RevokeAPIKeys: boolean }): Promise<void>;
  },
) {
  const { auth, throttle, changePassword } = deps;

  app.post(
    '/api/auth',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['Auth'],
        summary: 'Log in; returns an API key for the device',
        body: LoginBody,
        response: { 200: AuthResult },
      },
    },
    async (request, reply) => {
      const { user, pass, device } = request.body;
      const errors = new FieldErrorCollector();
      if (user === undefined || user === null || !user.trim()) errors.add('user', 'Username is required');
      if (pass === undefined || pass === null) errors.add('pass', 'Password is required');
      if (device === undefined || device === null || !device.trim()) errors.add('device', 'Device is required');
      errors.throwIfAny();
      let apikey: string | null = null;
      await throttledPasswordCheck(throttle, { userName: user!, address: request.ip }, async () => {
        apikey = await auth.login(user!, pass!, device!);
        return apikey !== null;
      });
      if (!apikey) throw problemError(401);
      return reply.send({ apikey });
    },
  );

  app.get(
    '/api/auth',
    {
      config: { auth: 'user' },
      schema: { tags: ['Auth'], summary: "The caller's API key devices", response: { 200: Type.Array(ApikeyResult) } },
    },
    async (request) => {
      const principal = request.principal!;
      return principal.kind === 'user' ? auth.listKeys(principal.userId) : [];
    },
  );

  app.post(
    '/api/auth/apikey',
    {
      config: { auth: 'user' },
      schema: { tags: ['Auth'], summary: 'Create an API key for a device (body: JSON string)', body: DeviceOrKeyBody },
    },
    async (request, reply) => {
      const principal = request.principal!;
      const device =
        typeof request.body === 'string' || typeof request.body === 'number' || typeof request.body === 'boolean'
          ? String(request.body)
          : '';
      if (!device.trim()) throw badRequest('device cannot be empty');
      if (principal.kind !== 'user') throw badRequest('device cannot be empty');
      return sendText(reply, await auth.issueKey(principal.userId, device));
    },
  );

  app.delete(
    '/api/auth',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['Auth'],
        summary: 'Revoke an API key by device name or by the key itself (body: JSON string)',
        body: DeviceOrKeyBody,
      },
    },
    async (request, reply) => {
      await auth.revoke(request.principal, request.body);
      return reply.send();
    },
  );

  // Legacy password change (Shoko's v0 controller; the console uses User/{id|Current}/ChangePassword). `userID` is
  // honoured only for admins; anyone else always changes their own password. Every key of the user is revoked,
  // the caller's own included, as in Shoko.
  app.post(
    '/api/auth/ChangePassword',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['Auth'],
        summary: "Change a user's password (body: JSON string); revokes all of that user's API keys",
        querystring: AuthChangePasswordQuery,
        body: AuthChangePasswordBody,
      },
    },
    async (request, reply) => {
      const principal = request.principal;
      if (principal?.kind !== 'user') throw badRequest('Could not get user');
      const body: unknown = request.body;
      if (typeof body !== 'string' && typeof body !== 'number' && typeof body !== 'boolean') {
        throw validationError('Body', 'The new password is required (a JSON string).');
      }
      const userId = principal.isAdmin && request.query.userID !== undefined ? request.query.userID : principal.userId;
      try {
        await changePassword(userId, { Password: String(body).trim(), RevokeAPIKeys: true });
      } catch (error) {
        if (error instanceof HttpError && error.status === 404) throw badRequest('Could not get user');
        throw error;
      }
      return reply.send();
    },
  );
}
