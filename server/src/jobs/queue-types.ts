import type { JobWrites } from './job-writes.js';
import type { JobDefinition, JobDetails } from './job.js';
import type { JobRow } from './jobs.store.js';

/** A job the queue started: its row, what it runs, and how far its run and its settling are. */
export interface RunningJob {
  row: JobRow;
  definition: JobDefinition<unknown>;
  payload: unknown;
  details: JobDetails;
  abort: AbortController;
  done: Promise<void>;
  /** Its run ended and its row is being updated: stop waits for this however long the grace lasted. */
  settling: boolean;
  /** Stop gave up waiting for it: its row is left alone (the next start runs it again) and the store is not touched. */
  abandoned: boolean;
  /** Asked for again while it ran (JobDefinition.rerunWhenAskedWhileRunning): queued once more when this run ends. */
  again: boolean;
}

/** How a job's row is settled: removed (done, or failed for good), or waiting again with this many attempts. */
export type Outcome = { remove: true } | { remove: false; attempts: number };

export interface QueueOptions {
  /** ≤ 0: logical CPUs + 2, as Shoko's Quartz.MaxThreadPoolSize. */
  threadCount?: number;
  /** Job kind → most jobs of that kind at once (Quartz.LimitedConcurrencyOverrides). */
  concurrencyLimits?: Record<string, number>;
  /** How long `stop` waits for running jobs to end after aborting them (default 10 s). */
  stopGraceMs?: number;
  /** Back-off of the retries after a fault of the database or its disk: the first wait, doubling up to the longest. */
  faultRetry?: { firstMs: number; maxMs: number };
  /** Told of each error that paused the queue (the data disk's health notes a full disk). */
  onFault?: (error: unknown) => void;
  /**
   * Tells which jobs wrote to the database (the plugin must be on the Kysely instance the jobs use): a failed job that
   * wrote nothing ends with `changed: false`. Without it every job end says changed.
   */
  writes?: JobWrites;
}
