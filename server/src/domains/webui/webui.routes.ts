import { Type } from '@sinclair/typebox';
import type { App } from '../../http/types.js';

/**
 * Theme endpoints the console loads on every page. No themes are installed yet (upload arrives with the settings
 * pages), so the list is empty and the stylesheet adds nothing to the built-in Shoko Gray theme.
 */
export function registerWebUIRoutes(app: App) {
  const config = { auth: 'none', initFriendly: true } as const;
  app.get('/api/v3/WebUI/Theme', { config, schema: { tags: ['WebUI'], response: { 200: Type.Array(Type.Unknown()) } } }, () => []);
  app.get('/api/v3/WebUI/Theme.css', { config, schema: { tags: ['WebUI'] } }, (_request, reply) =>
    reply.type('text/css; charset=utf-8').send(''),
  );
}
