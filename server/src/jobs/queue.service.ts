import { AsyncLocalStorage } from 'node:async_hooks';
import os from 'node:os';
import type { Logger } from 'pino';
import type { QueueItem, QueueState } from '@shoko-ts/contract';
import { dbFaultOf, describeDbFault } from '../db/db-faults.js';
import type { EventBus } from '../events/bus.js';
import type { JobDefinition, JobDetails } from './job.js';
import { runTracked, type JobWrites } from './job-writes.js';
import { FaultHold } from './fault-hold.js';
import { outcomeOf } from './job-outcome.js';
import type { JobRow, JobsStore } from './jobs.store.js';
import { queueItem, runningQueueItems } from './queue-items.js';
import { activeHolds, heldKinds, kindsAtTheirCap, type QueueHold } from './queue-holds.js';
import type { Outcome, QueueOptions, RunningJob } from './queue-types.js';

export type { QueueHold } from './queue-holds.js';
export type { QueueOptions } from './queue-types.js';

/**
 * The job queue, persisted in the database so it survives restarts: jobs run on a pool of `threadCount` slots in
 * priority order, kinds can be capped, and every change is published for the aggregate hub. A job's row is deleted
 * when it ends, so one left "running" by a crash is found and run again at the next start.
 *
 * Shutdown (`stop`) is the one way the database may close under the queue: once it begins no job is claimed or
 * started, running jobs are aborted, and every row is settled (done → removed, failed or interrupted → waiting again)
 * before it resolves. Only a job that ignores the abort for longer than the grace is left as a crash would leave it.
 *
 * A fault of the database or its disk (full, connection lost, a lock timed out) met while claiming a job, recording
 * its end, or by a job's run pauses the queue with the reason (`state().Fault`) instead of losing or repeating work:
 * a job whose end could not be recorded keeps its row claimed and its outcome in memory, a job whose run met the
 * fault waits again without losing an attempt, and the queue tries again with back-off until the database takes the
 * writes; then it records what was left, gives back claims no job holds, and carries on by itself.
 */
export class QueueService {
  private readonly definitions = new Map<string, JobDefinition<unknown>>();
  private readonly executing = new Map<number, RunningJob>();
  /** The job whose run the current code is part of. */
  private readonly currentJob = new AsyncLocalStorage<RunningJob>();
  /** Every queued job that is not running, held ones included. */
  private waitingCount = 0;
  /** Waiting jobs held back by a hold in force, as last counted (the count follows every pump). */
  private blockedCount = 0;
  private readonly holds: QueueHold[] = [];
  private running = false;
  private pumping = false;
  private pumpAgain = false;
  private pumpRun: Promise<void> = Promise.resolve();
  /** Set when stop begins; from then on nothing new is claimed or started. */
  private stopping = false;
  private stopped: Promise<void> | null = null;
  /** Set when stop has resolved: the database may be gone, so the store is not touched again. */
  private storeReleased = false;
  private readonly stopGraceMs: number;
  private readonly writes: JobWrites | null;
  private publishTimer: NodeJS.Timeout | null = null;
  readonly threadCount: number;
  private readonly limits: Record<string, number>;
  /** Why the queue cannot claim or settle jobs now, and when it tries again. */
  private readonly hold: FaultHold;
  /** Jobs whose end could not be recorded: their rows stay claimed (not run again) until the heal records it. */
  private readonly unsettled = new Map<number, { job: RunningJob; outcome: Outcome }>();
  private readonly onFault: (error: unknown) => void;

  constructor(
    private readonly store: JobsStore,
    private readonly bus: EventBus,
    private readonly logger: Logger,
    options: QueueOptions = {},
  ) {
    this.threadCount = options.threadCount && options.threadCount > 0 ? options.threadCount : os.availableParallelism() + 2;
    this.limits = options.concurrencyLimits ?? {};
    this.stopGraceMs = options.stopGraceMs ?? 10_000;
    this.writes = options.writes ?? null;
    this.hold = new FaultHold(options.faultRetry ?? { firstMs: 1_000, maxMs: 60_000 }, () => this.heal(), {
      failed: (error) => this.reportFault(error, 'The job queue is still unable to use the database'),
      over: (reason) => {
        this.logger.info(`The job queue carries on after this was over: ${reason}`);
        this.publish();
        this.pump();
      },
    });
    this.onFault = options.onFault ?? (() => undefined);
  }

  register<P>(definition: JobDefinition<P>): void {
    this.definitions.set(definition.kind, definition as JobDefinition<unknown>);
  }

  addHold(hold: QueueHold): void {
    this.holds.push(hold);
  }

  /** A hold's condition may have changed (an AniDB ban began or ended): counts and starts what it no longer holds. */
  recheckHolds(): void {
    this.publish();
    this.pump();
  }

  /** The kinds held back now, by the hold holding them. */
  heldKinds(): Map<string, string> {
    return heldKinds(this.holds);
  }

  /** Hold name → the job kinds it holds back now (`Queue/AcquisitionFilters`). */
  activeHolds(): Record<string, string[]> {
    return activeHolds(this.holds);
  }

  async start(): Promise<void> {
    if (this.stopping) return;
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
    if (this.stopping) return;
    this.running = true;
    this.publish();
    if (this.hold.held) this.hold.tryNow();
    else this.pump();
  }

  /**
   * Stops for good before the database closes: takes no more jobs, aborts the running ones and waits until each has
   * ended and its row is settled. A job still running after the grace is abandoned: its row stays "running", so the
   * next start runs it again, exactly as after a crash. Resolves once the store will not be touched again.
   */
  stop(): Promise<void> {
    this.stopping = true;
    this.running = false;
    this.hold.stop();
    this.stopped ??= this.drain();
    return this.stopped;
  }

  private async drain(): Promise<void> {
    // A claim in flight ends first: its row goes back to waiting (pump sees `running` is off), so every job that
    // will ever start under this queue is in `executing` now.
    await this.pumpRun;
    const jobs = [...this.executing.values()];
    for (const job of jobs) job.abort.abort();
    let graceTimer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'grace over'>((resolve) => (graceTimer = setTimeout(() => resolve('grace over'), this.stopGraceMs)));
    const ended = await Promise.race([Promise.allSettled(jobs.map((job) => job.done)), graceOver]);
    clearTimeout(graceTimer);
    if (ended === 'grace over') {
      for (const job of jobs) {
        if (job.settling || !this.executing.has(job.row.id)) continue;
        job.abandoned = true;
        this.logger.warn(`${job.definition.title} did not stop in time; it runs again at the next start`);
      }
      // Rows being settled right now finish before the database may close.
      await Promise.allSettled(jobs.filter((job) => job.settling).map((job) => job.done));
    }
    // Ends not recorded during a fault get one more try; a row still claimed runs again at the next start.
    await this.recordUnsettled().catch((error: unknown) =>
      this.logger.warn({ err: error }, `${this.unsettled.size} job end(s) could not be recorded; they run again at the next start`),
    );
    this.storeReleased = true;
    if (this.publishTimer) clearTimeout(this.publishTimer);
    this.publishTimer = null;
  }

  private assertOpen(): void {
    if (this.storeReleased) throw new Error('The job queue has stopped');
  }

  async clear(): Promise<void> {
    this.assertOpen();
    await this.store.clearWaiting();
    this.waitingCount = 0;
    this.publish();
  }

  /**
   * Queues a job unless one with the same key is already waiting or running; a running one of a kind that wants it runs
   * once more after it ends (RunningJob.again). False when nothing new was queued.
   */
  async enqueue<P>(definition: JobDefinition<P>, payload: P, options: { priority?: number } = {}): Promise<boolean> {
    this.assertOpen();
    if (!this.definitions.has(definition.kind)) this.register(definition);
    const job = {
      key: `${definition.group}.${definition.kind}.${definition.key(payload)}`,
      kind: definition.kind,
      payload,
      priority: options.priority ?? definition.priority,
    };
    let inserted = await this.store.insert(job);
    // Other kinds drop the request when the job is waiting or running: nothing more to do on this common path.
    if (!inserted && definition.rerunWhenAskedWhileRunning) {
      const running = this.runningWithKey(job.key);
      if (running) this.askAgain(running);
      // The row met may have been one whose run ended and was removed while the insert ran: then it goes in now.
      else inserted = await this.store.insert(job);
    }
    if (inserted) {
      this.waitingCount += 1;
      this.publish();
    }
    // A new request wakes a queue that is waiting out a fault, and one that sits idle with jobs left.
    if (this.hold.held) this.hold.tryNow();
    else if (inserted || (this.executing.size === 0 && this.waitingCount > 0)) this.pump();
    return inserted;
  }

  async enqueueMany<P>(definition: JobDefinition<P>, payloads: P[], options: { priority?: number } = {}): Promise<number> {
    if (!payloads.length) return 0;
    this.assertOpen();
    if (!this.definitions.has(definition.kind)) this.register(definition);
    const inserted = await this.store.insertMany(
      payloads.map((payload) => ({
        key: `${definition.group}.${definition.kind}.${definition.key(payload)}`,
        kind: definition.kind,
        payload,
        priority: options.priority ?? definition.priority,
      })),
    );
    if (definition.rerunWhenAskedWhileRunning && inserted < payloads.length)
      for (const payload of payloads) {
        const running = this.runningWithKey(`${definition.group}.${definition.kind}.${definition.key(payload)}`);
        if (running) this.askAgain(running);
      }
    this.waitingCount += inserted;
    this.publish();
    if (this.hold.held) this.hold.tryNow();
    else this.pump();
    return inserted;
  }

  /** A running job of a kind that reruns (JobDefinition.rerunWhenAskedWhileRunning) runs again, unless it asks for itself. */
  private askAgain(job: RunningJob): void {
    if (this.currentJob.getStore() !== job) job.again = true;
  }

  private runningWithKey(key: string): RunningJob | undefined {
    for (const job of this.executing.values()) if (job.row.job_key === key) return job;
    return undefined;
  }

  /** A job asked for again while it ran goes back in the queue (as waiting, so `idle` waits for it from now on). */
  private async queueAgain(job: RunningJob): Promise<void> {
    this.waitingCount += 1;
    try {
      const { row } = job;
      const inserted = await this.store.insert({ key: row.job_key, kind: row.kind, payload: job.payload, priority: row.priority });
      if (!inserted) this.waitingCount -= 1;
    } catch (error) {
      this.waitingCount -= 1;
      this.logger.error({ err: error }, `Could not queue ${job.definition.title} again`);
    }
    this.publish();
    this.pump();
  }

  /**
   * Resolves when no job is running or waiting to run (held jobs do not count: tests and batch operations). A pump in
   * flight counts as work: until it has counted the held jobs again, the blocked count may be from before a hold ended.
   */
  async idle(): Promise<void> {
    while (this.running && (this.waitingCount - this.blockedCount > 0 || this.executing.size > 0 || this.pumping || this.hold.held)) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  state(): QueueState {
    return {
      Running: this.running,
      WaitingCount: Math.max(0, this.waitingCount - this.blockedCount),
      BlockedCount: this.blockedCount,
      TotalCount: this.waitingCount + this.executing.size,
      ThreadCount: this.threadCount,
      CurrentlyExecuting: runningQueueItems(this.executing.values()),
      Fault: this.hold.current,
    };
  }

  /** Running jobs first (by start), then waiting ones in queue order; held ones (`IsBlocked`) only with `showAll`. */
  async items(page: number, pageSize: number, showAll = true): Promise<{ Total: number; List: QueueItem[] }> {
    const held = this.heldKinds();
    const hidden = showAll ? [] : [...held.keys()];
    const runningItems = runningQueueItems(this.executing.values());
    const waitingCount = await this.store.countWaiting(hidden);
    const total = runningItems.length + waitingCount;
    const offset = (page - 1) * pageSize;
    const fromRunning = runningItems.slice(offset, offset + pageSize);
    const waitingOffset = Math.max(0, offset - runningItems.length);
    const waitingLimit = pageSize - fromRunning.length;
    const waiting = waitingLimit > 0 ? await this.store.listWaiting(waitingOffset, waitingLimit, hidden) : [];
    return {
      Total: total,
      List: [
        ...fromRunning,
        ...waiting.map((row) => ({ ...queueItem(row, this.definitions.get(row.kind), null), IsBlocked: held.has(row.kind) })),
      ],
    };
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

  /** Concurrency caps per job kind and the kinds at their cap right now (Queue/DebugStats). */
  concurrency(): { limits: Record<string, number>; saturated: string[] } {
    return { limits: { ...this.limits }, saturated: this.saturatedKinds() };
  }

  private saturatedKinds(): string[] {
    return kindsAtTheirCap(this.executing.values(), this.limits);
  }

  /** Fills free slots; one pump at a time so two never claim for the same slot. */
  private pump(): void {
    if (this.stopping || this.hold.held) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    this.pumpRun = (async () => {
      try {
        do {
          this.pumpAgain = false;
          const held = [...this.heldKinds().keys()];
          this.blockedCount = held.length ? await this.store.countWaiting([], held) : 0;
          while (this.running && !this.hold.held && this.executing.size < this.threadCount) {
            // Holds are asked again for every claim: one may have begun while this pump ran.
            const row = await this.store.claimNext([...this.saturatedKinds(), ...this.heldKinds().keys()]);
            if (!row) break;
            if (!this.running) {
              // Paused or stopping while the claim ran: the job was never started, so it waits again untouched.
              await this.store.release(row.id, row.attempts);
              break;
            }
            this.waitingCount = Math.max(0, this.waitingCount - 1);
            const definition = this.definitions.get(row.kind);
            const unrunnable = definition ? this.launch(row, definition) : `unknown job kind ${row.kind}`;
            if (unrunnable) {
              this.logger.warn(`Dropping job ${row.job_key}: ${unrunnable}`);
              await this.store.remove(row.id);
            }
          }
        } while (this.pumpAgain);
      } catch (error) {
        this.reportFault(error, 'The job queue could not claim its next job');
      } finally {
        this.pumping = false;
      }
    })();
  }

  /** Starts a claimed job; answers why it cannot run when its payload is unreadable (it is dropped, not retried). */
  private launch(row: JobRow, definition: JobDefinition<unknown>): string | null {
    let payload: unknown;
    let details: JobDetails;
    try {
      payload = JSON.parse(row.payload) as unknown;
      details = definition.details(payload);
    } catch (error) {
      return `its payload cannot be read (${error instanceof Error ? error.message : String(error)})`;
    }
    const job: RunningJob = {
      row,
      definition,
      payload,
      details,
      abort: new AbortController(),
      done: Promise.resolve(),
      settling: false,
      abandoned: false,
      again: false,
    };
    this.executing.set(row.id, job);
    this.publish();
    job.done = this.execute(job).finally(() => {
      // In the same turn as the delete: a request arriving later finds no running job and queues its own.
      this.executing.delete(row.id);
      // A job whose end is not recorded yet keeps its row (and key): it is queued again once the heal recorded it.
      if (job.again && !job.abandoned && !this.stopping && !this.unsettled.has(row.id)) void this.queueAgain(job);
      this.publish();
      this.pump();
    });
    return null;
  }

  private async execute(job: RunningJob): Promise<void> {
    const logger = this.logger.child({ name: job.definition.type });
    const { failure, changed, tables } = await runTracked(this.writes, () => this.runJob(job, logger));
    // Before the job's row goes: whoever sees the queue empty must not then read an answer kept from before the job.
    this.bus.emit('job:finished', { type: job.definition.type, changed, tables });
    if (job.abandoned) return; // stop stopped waiting: the row stays "running" and the next start runs it again
    job.settling = true;
    const outcome = await outcomeOf(job, failure, logger, {
      stopping: () => this.stopping,
      heldBy: (kind) => this.heldKinds().get(kind),
      reachable: () => this.store.reachable(),
      reportFault: (error, what) => this.reportFault(error, what),
    });
    try {
      await this.record(job.row, outcome);
      if (!failure) this.hold.workSucceeded();
    } catch (error) {
      this.unsettled.set(job.row.id, { job, outcome });
      this.reportFault(error, `Could not record the end of ${job.definition.title}`);
    }
  }

  private async runJob(job: RunningJob, logger: Logger): Promise<void> {
    let lastPublish = 0;
    await this.currentJob.run(job, () =>
      job.definition.run(job.payload, {
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
      }),
    );
  }

  /** Writes a job's outcome to its row; both writes may be repeated, so a heal can record it again safely. */
  private async record(row: JobRow, outcome: Outcome): Promise<void> {
    if (outcome.remove) {
      await this.store.remove(row.id);
      return;
    }
    await this.store.release(row.id, outcome.attempts);
    this.waitingCount += 1;
  }

  private async recordUnsettled(): Promise<void> {
    for (const [id, { job, outcome }] of this.unsettled) {
      await this.record(job.row, outcome);
      this.unsettled.delete(id);
      if (job.again && !this.stopping) void this.queueAgain(job);
    }
  }

  /**
   * Pauses the queue for a fault of the store (or the database under a job) and has it retried with back-off; a fault
   * met while one is in force only updates the reason shown.
   */
  private reportFault(error: unknown, what: string): void {
    this.onFault(error);
    const kind = dbFaultOf(error);
    const reason = kind ? describeDbFault(kind) : `${what}: ${error instanceof Error ? error.message : String(error)}`;
    if (this.stopping) {
      this.logger.warn({ err: error }, `${what} while shutting down: ${reason}`);
      return;
    }
    if (this.hold.report(reason)) this.logger.warn({ err: error }, `${what}; the queue pauses until this is over: ${reason}`);
    this.publish();
  }

  /**
   * One try to end a fault: records the job ends left unrecorded, gives back the claims no running job holds (a claim
   * whose answer the fault lost) and counts the waiting jobs again. Throws what failed.
   */
  private async heal(): Promise<void> {
    await this.pumpRun;
    await this.recordUnsettled();
    const held = [...this.executing.keys(), ...this.unsettled.keys()];
    const released = await this.store.releaseOrphans(held);
    if (released) this.logger.info(`${released} job(s) claimed when the fault began wait again`);
    this.waitingCount = await this.store.countWaiting();
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
