import type { App } from '../../http/types.js';
import type { ImportService } from '../import/import.service.js';

/**
 * `GET /api/v3/Action/<Name>`: each action queues work and returns at once. The rest of the catalogue arrives with
 * the dashboard work.
 */
export function registerActionRoutes(app: App, deps: { importer: ImportService }) {
  const { importer } = deps;
  app.get('/api/v3/Action/RunImport', { config: { auth: 'user' }, schema: { tags: ['Action'] } }, async (_request, reply) => {
    await importer.queueImport();
    return reply.send();
  });
}
