import os from 'node:os';
import type { Logger } from 'pino';
import type { QueueItem, QueueState } from '@shoko-ts/contract';
import type { EventBus } from '../events/bus.js';

export interface JobSpec {
  /** Unique among queued jobs; enqueueing a key that is already waiting is a no-op. */
  key: string;
  type: string;
  title: string;
  details?: QueueItem['Details'];
  run(): Promise<void>;
}

interface QueuedJob extends JobSpec {
  startTime: Date | null;
}

/**
 * The job queue: a worker pool with pause/resume/clear and the state the console shows. This first version keeps
 * jobs in memory; the import pipeline replaces it with jobs persisted in the database.
 */
export class QueueService {
  private readonly waiting: QueuedJob[] = [];
  private readonly executing = new Set<QueuedJob>();
  private running = false;
  readonly threadCount: number;

  constructor(
    private readonly bus: EventBus,
    private readonly logger: Logger,
    threadCount = os.cpus().length + 2,
  ) {
    this.threadCount = Math.max(1, threadCount);
  }

  start(): void {
    this.running = true;
    this.publish();
    this.pump();
  }

  async pause(): Promise<void> {
    this.running = false;
    this.publish();
  }

  async resume(): Promise<void> {
    this.start();
  }

  async clear(): Promise<void> {
    this.waiting.length = 0;
    this.publish();
  }

  enqueue(job: JobSpec): void {
    if (this.waiting.some((j) => j.key === job.key)) return;
    this.waiting.push({ ...job, startTime: null });
    this.publish();
    this.pump();
  }

  state(): QueueState {
    return {
      Running: this.running,
      WaitingCount: this.waiting.length,
      BlockedCount: 0,
      TotalCount: this.waiting.length + this.executing.size,
      ThreadCount: this.threadCount,
      CurrentlyExecuting: [...this.executing].map((j) => toItem(j, true)),
    };
  }

  /** Executing jobs first (by start time), then waiting ones in order; `pageSize` 0 yields an empty list as in Shoko. */
  items(page: number, pageSize: number): { Total: number; List: QueueItem[] } {
    const all = [
      ...[...this.executing].sort((a, b) => a.startTime!.getTime() - b.startTime!.getTime()).map((j) => toItem(j, true)),
      ...this.waiting.map((j) => toItem(j, false)),
    ];
    return { Total: all.length, List: all.slice((page - 1) * pageSize, page * pageSize) };
  }

  private pump(): void {
    while (this.running && this.executing.size < this.threadCount && this.waiting.length > 0) {
      const job = this.waiting.shift()!;
      job.startTime = new Date();
      this.executing.add(job);
      this.publish();
      job
        .run()
        .catch((error) => this.logger.error({ err: error }, `Job "${job.title}" failed`))
        .finally(() => {
          this.executing.delete(job);
          this.publish();
          this.pump();
        });
    }
  }

  private publish(): void {
    this.bus.emit('queue:state', this.state());
  }
}

const toItem = (job: QueuedJob, isRunning: boolean): QueueItem => ({
  Key: job.key,
  Type: job.type,
  Title: job.title,
  Details: job.details ?? {},
  IsRunning: isRunning,
  StartTime: isRunning && job.startTime ? job.startTime.toISOString() : null,
  IsBlocked: false,
});
