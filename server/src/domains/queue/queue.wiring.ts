import type { QueueService } from '../../jobs/queue.service.js';
import { QueueControl } from './queue.service.js';

/** Builds what the Queue API sees of the job queue. */
export function createQueueDomain(deps: { queue: QueueService }): QueueControl {
  return new QueueControl(deps.queue);
}
