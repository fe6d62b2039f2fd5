import {
  ListResult,
  Queue,
  QueueAcquisitionFilters,
  QueueDebugStats,
  QueueItem,
  QueueItemsQuery,
  type QueueOperation,
} from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import type { QueueControl } from './queue.service.js';

const OPERATIONS: QueueOperation[] = ['Resume', 'Pause', 'Clear'];

export function registerQueueRoutes(app: App, deps: { queue: QueueControl }) {
  const { queue } = deps;
  const tags = ['Queue'];

  app.get('/api/v3/Queue', { config: { auth: 'user', initFriendly: true }, schema: { tags, response: { 200: Queue } } }, () =>
    queue.snapshot(),
  );

  app.get('/api/v3/Queue/Types', { config: { auth: 'user', initFriendly: true }, schema: { tags } }, () => queue.typeCounts());

  for (const operation of OPERATIONS) {
    app.post(`/api/v3/Queue/${operation}`, { config: { auth: 'admin', initFriendly: true }, schema: { tags } }, async (_request, reply) => {
      await queue.run(operation);
      return reply.send();
    });
  }

  app.get(
    '/api/v3/Queue/Items',
    {
      config: { auth: 'admin' },
      schema: { tags, querystring: QueueItemsQuery, response: { 200: ListResult(QueueItem) } },
    },
    (request) => queue.items(request.query.page, request.query.pageSize, request.query.showAll),
  );

  // Diagnostics (contract server.md §5.7, §5.8), not before the server is started. The contract lets any user read the
  // debug figures; the access table (http/access-policy.ts) keeps them for admins.
  app.get('/api/v3/Queue/DebugStats', { config: { auth: 'admin' }, schema: { tags, response: { 200: QueueDebugStats } } }, () =>
    queue.debugStats(),
  );

  app.get(
    '/api/v3/Queue/AcquisitionFilters',
    { config: { auth: 'user' }, schema: { tags, response: { 200: QueueAcquisitionFilters } } },
    () => queue.acquisitionFilters(),
  );
}
