/**
 * DESIGN — queue domain: the Queue API (`/api/v3/Queue*`, contract server.md) over the persisted job queue of
 * jobs/queue.service.ts, which every other domain uses to run its long work. This facade is all the routes
 * (queue.routes.ts) see: the public snapshot, counts per job type, the item list and pause/resume/clear. It has no
 * store of its own: the jobs layer owns the jobs table (jobs/jobs.store.ts).
 */
import type { Queue, QueueAcquisitionFilters, QueueDebugStats, QueueItem, QueueOperation } from '@shoko-ts/contract';
import type { QueueService } from '../../jobs/queue.service.js';

export class QueueControl {
  constructor(private readonly queue: QueueService) {}

  /** The queue's state as `GET Queue` shows it: whether the workers run is not part of it. */
  snapshot(): Queue {
    const { Running: _running, ...snapshot } = this.queue.state();
    return snapshot;
  }

  typeCounts(): Promise<Record<string, number>> {
    return this.queue.typeCounts();
  }

  /** Running jobs first, then waiting ones in queue order; jobs held back (`IsBlocked`) only with `showAll`. */
  items(page: number, pageSize: number, showAll: boolean): Promise<{ Total: number; List: QueueItem[] }> {
    return this.queue.items(page, pageSize, showAll);
  }

  /**
   * The holds in force, like Shoko's acquisition filters: while AniDB UDP or HTTP is banned, paused after failures or
   * (UDP) refuses the login, the jobs that need it wait in the queue and start by themselves once it is over.
   */
  acquisitionFilters(): QueueAcquisitionFilters {
    return this.queue.activeHolds();
  }

  debugStats(): QueueDebugStats {
    const { limits, saturated } = this.queue.concurrency();
    return {
      Queue: this.snapshot(),
      TypesToExclude: saturated,
      TypesToLimit: limits,
      AvailableConcurrencyGroups: Object.keys(limits)
        .filter((kind) => !saturated.includes(kind))
        .map((kind) => [kind]),
      AcquisitionFilters: this.acquisitionFilters(),
    };
  }

  async run(operation: QueueOperation): Promise<void> {
    if (operation === 'Pause') await this.queue.pause();
    else if (operation === 'Resume') await this.queue.resume();
    else await this.queue.clear();
  }
}
