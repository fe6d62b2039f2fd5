import os from 'node:os';
import type { Logger } from 'pino';
import type { QueueItem, QueueState } from '@shoko-ts/contract';
import type { EventBus } from '../events/bus.js';
import { PermanentJobError, type JobDefinition, type JobDetails } from './job.js';
import type { JobRow, JobsStore } from './jobs.store.js';

/** Attempts before a failing job is dropped (a crash mid-run counts as one). */
const MAX_ATTEMPTS = 3;

interface RunningJob {
  row: JobRow;
  definition: JobDefinition<unknown>;
  payload: unknown;
  details: JobDetails;
  abort: AbortController;
  done: Promise<void>;
}

export interface QueueOptions {
  /** ≤ 0: logical CPUs + 2, as Shoko's Quartz.MaxThreadPoolSize. */
  threadCount?: number;
  /** Job kind → most jobs of that kind at once (Quartz.LimitedConcurrencyOverrides). */
  concurrencyLimits?: Record<string, number>;
}

/**
 * The job queue, persisted in the database so it survives restarts: jobs run on a pool of `threadCount` slots in
 * priority order, kinds can be capped, and every change is published for the aggregate hub. A job's row is deleted
 * when it ends, so one left "running" by a crash is found and run again at the next start.
 */
export class QueueService {
  private readonly definitions = new Map<string, JobDefinition<unknown>>();
  private readonly executing = new Map<number, RunningJob>();
  private waitingCount = 0;
  private running = false;
  private pumping = false;
  private pumpAgain = false;
  private publishTimer: NodeJS.Timeout | null = null;
  readonly threadCount: number;
  private readonly limits: Record<string, number>;

  constructor(
    private readonly store: JobsStore,
    private readonly bus: EventBus,
    private readonly logger: Logger,
    options: QueueOptions = {},
  ) {
    this.threadCount = options.threadCount && options.threadCount > 0 ? options.threadCount : os.availableParallelism() + 2;
    this.limits = options.concurrencyLimits ?? {};
  }

  register<P>(definition: JobDefinition<P>): void {
    this.definitions.set(definition.kind, definition as JobDefinition<unknown>);
  }

  async start(): Promise<void> {
    const requeued = await this.store.requeueInterrupted();
    if (requeued) this.logger.info(`Re-queued ${requeued} job(s) interrupted by the last shutdown`);
    this.waitingCount = await this.store.countWaiting();
    this.running = true;
    this.publish();
    this.pump();
  }

  async pause(): Promise<void> {
    this.running = false;
    this.publish();
  }

  async resume(): Promise<void> {
    this.running = true;
    this.publish();
    this.pump();
  }

  /** Stops taking jobs and waits for the running ones (their rows stay if the process dies first). */
  async stop(): Promise<void> {
    this.running = false;
    for (const job of this.executing.values()) job.abort.abort();
    await Promise.allSettled([...this.executing.values()].map((job) => job.done));
  }

  async clear(): Promise<void> {
    await this.store.clearWaiting();
    this.waitingCount = 0;
    this.publish();
  }

  /** Queues a job unless one with the same key is already queued. */
  async enqueue<P>(definition: JobDefinition<P>, payload: P, options: { priority?: number } = {}): Promise<boolean> {
    if (!this.definitions.has(definition.kind)) this.register(definition);
    const inserted = await this.store.insert({
      key: `${definition.group}.${definition.kind}.${definition.key(payload)}`,
      kind: definition.kind,
      payload,
      priority: options.priority ?? definition.priority,
    });
    if (inserted) {
      this.waitingCount += 1;
      this.publish();
      this.pump();
    }
    return inserted;
  }

  async enqueueMany<P>(definition: JobDefinition<P>, payloads: P[], options: { priority?: number } = {}): Promise<number> {
    if (!payloads.length) return 0;
    if (!this.definitions.has(definition.kind)) this.register(definition);
    const inserted = await this.store.insertMany(
      payloads.map((payload) => ({
        key: `${definition.group}.${definition.kind}.${definition.key(payload)}`,
        kind: definition.kind,
        payload,
        priority: options.priority ?? definition.priority,
      })),
    );
    this.waitingCount += inserted;
    this.publish();
    this.pump();
    return inserted;
  }

  /** Resolves when no job is waiting or running (tests and batch operations). */
  async idle(): Promise<void> {
    while (this.running && (this.waitingCount > 0 || this.executing.size > 0)) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  state(): QueueState {
    return {
      Running: this.running,
      WaitingCount: this.waitingCount,
      BlockedCount: 0,
      TotalCount: this.waitingCount + this.executing.size,
      ThreadCount: this.threadCount,
      CurrentlyExecuting: this.runningItems(),
    };
  }

  /** Running jobs first (by start), then waiting ones in queue order. */
  async items(page: number, pageSize: number): Promise<{ Total: number; List: QueueItem[] }> {
    const runningItems = this.runningItems();
    const total = runningItems.length + this.waitingCount;
    const offset = (page - 1) * pageSize;
    const fromRunning = runningItems.slice(offset, offset + pageSize);
    const waitingOffset = Math.max(0, offset - runningItems.length);
    const waitingLimit = pageSize - fromRunning.length;
    const waiting = waitingLimit > 0 ? await this.store.listWaiting(waitingOffset, waitingLimit) : [];
    return { Total: total, List: [...fromRunning, ...waiting.map((row) => this.toItem(row, null))] };
  }

  /** Queued and running jobs per human-readable type. */
  async typeCounts(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const { kind, count } of await this.store.countByKind()) {
      const type = this.definitions.get(kind)?.type ?? kind;
      counts[type] = (counts[type] ?? 0) + count;
    }
    return counts;
  }

  private runningItems(): QueueItem[] {
    return [...this.executing.values()]
      .sort((a, b) => (a.row.started_at ?? '').localeCompare(b.row.started_at ?? ''))
      .map((job) => this.toItem(job.row, job));
  }

  private toItem(row: JobRow, running: RunningJob | null): QueueItem {
    const definition = this.definitions.get(row.kind);
    let details: JobDetails = running?.details ?? {};
    if (!running && definition) {
      try {
        details = definition.details(JSON.parse(row.payload));
      } catch {
        details = {};
      }
    }
    return {
      Key: row.job_key,
      Type: definition?.type ?? row.kind,
      Title: definition?.title ?? row.kind,
      Details: details,
      IsRunning: running !== null,
      StartTime: running ? row.started_at : null,
      IsBlocked: false,
    };
  }

  /** Concurrency caps per job kind and the kinds at their cap right now (Queue/DebugStats). */
  concurrency(): { limits: Record<string, number>; saturated: string[] } {
    return { limits: { ...this.limits }, saturated: this.saturatedKinds() };
  }

  private saturatedKinds(): string[] {
    const counts = new Map<string, number>();
    for (const job of this.executing.values()) counts.set(job.row.kind, (counts.get(job.row.kind) ?? 0) + 1);
    return Object.entries(this.limits)
      .filter(([kind, limit]) => (counts.get(kind) ?? 0) >= limit)
      .map(([kind]) => kind);
  }

  /** Fills free slots; one pump at a time so two never claim for the same slot. */
  private pump(): void {
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    void (async () => {
      try {
        do {
          this.pumpAgain = false;
          while (this.running && this.executing.size < this.threadCount) {
            const row = await this.store.claimNext(this.saturatedKinds());
            if (!row) break;
            this.waitingCount = Math.max(0, this.waitingCount - 1);
            this.launch(row);
          }
        } while (this.pumpAgain);
      } catch (error) {
        this.logger.error({ err: error }, 'The job queue could not read its next job');
      } finally {
        this.pumping = false;
      }
    })();
  }

  private launch(row: JobRow): void {
    const definition = this.definitions.get(row.kind);
    if (!definition) {
      this.logger.warn(`Dropping job ${row.job_key}: unknown job kind ${row.kind}`);
      void this.store.remove(row.id);
      return;
    }
    const payload = JSON.parse(row.payload) as unknown;
    const job: RunningJob = {
      row,
      definition,
      payload,
      details: definition.details(payload),
      abort: new AbortController(),
      done: Promise.resolve(),
    };
    this.executing.set(row.id, job);
    this.publish();
    job.done = this.execute(job).finally(() => {
      this.executing.delete(row.id);
      this.publish();
      this.pump();
    });
  }

  private async execute(job: RunningJob): Promise<void> {
    const { row, definition, payload } = job;
    const logger = this.logger.child({ name: definition.type });
    let lastPublish = 0;
    try {
      await definition.run(payload, {
        logger,
        signal: job.abort.signal,
        progress: (fraction, details) => {
          job.details = { ...job.details, ...details, Progress: Math.round(fraction * 100) };
          const now = Date.now();
          if (now - lastPublish >= 500 || fraction >= 1) {
            lastPublish = now;
            this.publish();
          }
        },
      });
      await this.store.remove(row.id);
    } catch (error) {
      if (job.abort.signal.aborted && !this.running) return; // shutting down: the row stays and runs next start
      const reason = error instanceof Error ? error.message : String(error);
      const attempts = row.attempts + 1;
      if (error instanceof PermanentJobError || attempts >= MAX_ATTEMPTS) {
        logger.error(`${definition.title} failed: ${reason}`);
        await this.store.remove(row.id);
      } else {
        logger.warn(`${definition.title} failed (attempt ${attempts} of ${MAX_ATTEMPTS}), will retry: ${reason}`);
        await this.store.release(row.id, attempts);
        this.waitingCount += 1;
      }
    }
  }

  /** Announces the state at most every 100 ms: a scan that queues thousands of jobs sends a handful of events. */
  private publish(): void {
    if (this.publishTimer) return;
    this.publishTimer = setTimeout(() => {
      this.publishTimer = null;
      this.bus.emit('queue:state', this.state());
    }, 100);
    this.publishTimer.unref?.();
  }
}
