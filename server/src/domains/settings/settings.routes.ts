import { Type } from '@sinclair/typebox';
import { Credentials, JsonPatchBody, SettingsPatchQuery, SupportedLanguageSchema, type JsonPatchOperation } from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { FieldErrorCollector, validationError } from '../../http/problem.js';
import { throttledPasswordCheck, type LoginThrottle } from '../../http/login-throttle.js';
import type { SettingsService } from './settings.service.js';

export function registerSettingsRoutes(
  app: App,
  deps: {
    settings: SettingsService;
    testAniDBLogin: (username: string, password: string) => Promise<boolean>;
    throttle: LoginThrottle;
  },
) {
  const { settings } = deps;
  const tags = ['Settings'];
  // Admins, or the first-run principal while a fresh install is set up.
  const config = { auth: 'admin' as const, initFriendly: true };

  app.get('/api/v3/Settings', { config, schema: { tags } }, () => settings.redacted());

  app.patch(
    '/api/v3/Settings',
    { config, schema: { tags, querystring: SettingsPatchQuery, body: JsonPatchBody } },
    async (request, reply) => {
      const operations = request.body as JsonPatchOperation[] | null | undefined;
      if (!Array.isArray(operations)) throw validationError('Body', 'The settings object is invalid.');
      await settings.patch(operations, { skipValidation: request.query.skipValidation ?? false });
      return reply.send();
    },
  );

  app.post('/api/v3/Settings/AniDB/TestLogin', { config, schema: { tags, body: Credentials } }, async (request, reply) => {
    const { Username, Password } = request.body;
    const errors = new FieldErrorCollector();
    if (!Username?.trim()) errors.add('Username', 'Username cannot be empty.');
    if (!Password?.trim()) errors.add('Password', 'Password cannot be empty.');
    errors.throwIfAny();
    // AniDB bans clients after failed logins: the same throttle as our own login guards this test.
    const attempt = { userName: `AniDB ${Username}`, address: request.ip };
    if (!(await throttledPasswordCheck(deps.throttle, attempt, () => deps.testAniDBLogin(Username, Password)))) {
      throw validationError('Connection', 'Failed to log in.');
    }
    return reply.send();
  });

  app.get('/api/v3/Settings/SupportedLanguages', { config, schema: { tags, response: { 200: Type.Array(SupportedLanguageSchema) } } }, () =>
    settings.supportedLanguages(),
  );
}
