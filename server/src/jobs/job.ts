import type { Logger } from 'pino';
import type { QueueItem } from '@shoko-ts/contract';

export type JobDetails = QueueItem['Details'];

/** Queue order: lower runs first. Discovery feeds hashing, hashing feeds lookups. */
export const JobPriority = {
  Scan: 0,
  Discover: 10,
  Hash: 20,
  MediaInfo: 30,
  Lookup: 40,
  Maintenance: 50,
} as const;

export interface JobContext {
  logger: Logger;
  signal: AbortSignal;
  /** Reports progress (0..1) and extra details shown in the queue while the job runs. */
  progress(fraction: number, details?: JobDetails): void;
}

/**
 * One kind of background work. `kind` is the job class name Shoko uses in keys and in
 * `Quartz.LimitedConcurrencyOverrides`; `type`/`title` are what the queue shows.
 */
export interface JobDefinition<P> {
  kind: string;
  type: string;
  title: string;
  group: string;
  priority: number;
  /** Stable identity of a job: enqueueing a job whose key is already queued does nothing. */
  key(payload: P): string;
  details(payload: P): JobDetails;
  run(payload: P, context: JobContext): Promise<void>;
  /**
   * Asked for while the same job runs, it runs once more afterwards: for a job whose run reads what the requests are
   * about (an anime's import marks the files linked to it imported; a file linked after it read them needs another run).
   */
  rerunWhenAskedWhileRunning?: boolean;
}

/** A job that failed for a reason retrying will not fix (missing file, permission denied…). */
export class PermanentJobError extends Error {}
