import { Type } from '@sinclair/typebox';
import { ListResult, Queue, QueueItem } from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import type { QueueService } from '../../jobs/queue.service.js';

export function registerQueueRoutes(app: App, deps: { queue: QueueService }) {
  const { queue } = deps;
  const tags = ['Queue'];

  app.get('/api/v3/Queue', { config: { auth: 'user', initFriendly: true }, schema: { tags, response: { 200: Queue } } }, () => {
    const { Running: _running, ...snapshot } = queue.state();
    return snapshot;
  });

  app.get('/api/v3/Queue/Types', { config: { auth: 'user', initFriendly: true }, schema: { tags } }, () => queue.typeCounts());

  for (const [action, run] of [
    ['Resume', () => queue.resume()],
    ['Pause', () => queue.pause()],
    ['Clear', () => queue.clear()],
  ] as const) {
    app.post(`/api/v3/Queue/${action}`, { config: { auth: 'admin', initFriendly: true }, schema: { tags } }, async (_request, reply) => {
      await run();
      return reply.send();
    });
  }

  app.get(
    '/api/v3/Queue/Items',
    {
      config: { auth: 'admin' },
      schema: {
        tags,
        querystring: Type.Object({
          pageSize: Type.Integer({ minimum: 0, maximum: 1000, default: 10 }),
          page: Type.Integer({ minimum: 1, default: 1 }),
          showAll: Type.Boolean({ default: false }),
        }),
        response: { 200: ListResult(QueueItem) },
      },
    },
    (request) => queue.items(request.query.page, request.query.pageSize),
  );
}
