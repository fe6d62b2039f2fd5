import { UserWebUISettings, UserWebUISettingsBody } from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { currentUserId } from './users.routes.js';
import type { UserWebUISettingsService } from './webui-settings.service.js';

/** Room for the largest settings text (64 kB, escaped in JSON) without taking the server's 1 MB default. */
const BODY_LIMIT = 256 * 1024;

/** `GET|PUT User/Current/WebUISettings` (our addition, issue 44): the caller's own console settings. */
export function registerUserWebUISettingsRoutes(app: App, deps: { webuiSettings: UserWebUISettingsService }) {
  const { webuiSettings } = deps;
  const tags = ['User'];

  app.get(
    '/api/v3/User/Current/WebUISettings',
    { config: { auth: 'user' }, schema: { tags, response: { 200: UserWebUISettings } } },
    (request) => webuiSettings.get(currentUserId(request.principal)),
  );

  app.put(
    '/api/v3/User/Current/WebUISettings',
    {
      config: { auth: 'user' },
      bodyLimit: BODY_LIMIT,
      schema: { tags, body: UserWebUISettingsBody, response: { 200: UserWebUISettings } },
    },
    (request) => webuiSettings.save(currentUserId(request.principal), request.body),
  );
}
