import { Type } from '@sinclair/typebox';
import { ApikeyResult, AuthResult, DeviceOrKeyBody, LoginBody } from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { throttledPasswordCheck, type LoginThrottle } from '../../http/login-throttle.js';
import { badRequest, FieldErrorCollector, problemError } from '../../http/problem.js';
import { sendText } from '../../http/reply.js';
import type { AuthService } from './auth.service.js';

/** `/api/auth` (Shoko's version-neutral v0 controller): login and API key management. */
export function registerAuthRoutes(app: App, deps: { auth: AuthService; throttle: LoginThrottle }) {
  const { auth, throttle } = deps;

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
}
