import type { App } from '../../http/types.js';
import type { QueueService } from '../../jobs/queue.service.js';
import type { Logger } from 'pino';

/**
 * `GET /api/v3/Action/<Name>`: each action queues work and returns at once. Only Run Import exists so far (the
 * first-run wizard fires it); it finds no import folders until the import pipeline lands. The rest of the
 * catalogue arrives with the dashboard work.
 */
export function registerActionRoutes(app: App, deps: { queue: QueueService; logger: Logger }) {
  const { queue, logger } = deps;
  app.get('/api/v3/Action/RunImport', { config: { auth: 'user' }, schema: { tags: ['Action'] } }, async (_request, reply) => {
    queue.enqueue({
      key: 'Legacy.ImportJob',
      type: 'Run Import',
      title: 'Running Import',
      run: async () => {
        logger.info('Run Import: no import folders are configured yet');
      },
    });
    return reply.send();
  });
}
