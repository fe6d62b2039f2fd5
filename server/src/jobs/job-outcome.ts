import type { Logger } from 'pino';
import { dbFaultOf, isPgConnectionLoss } from '../db/db-faults.js';
import { PermanentJobError } from './job.js';
import type { Outcome, RunningJob } from './queue-types.js';

/** Attempts before a failing job is dropped (a crash mid-run counts as one). */
export const MAX_ATTEMPTS = 3;

/** What the queue tells `outcomeOf` about itself when a job's run ended. */
export interface OutcomeContext {
  /** Stop has begun. */
  stopping(): boolean;
  /** Why jobs of this kind are held back now, or undefined. */
  heldBy(kind: string): string | undefined;
  /** Whether the database answers now. */
  reachable(): Promise<boolean>;
  /** Pauses the queue for a fault of its database. */
  reportFault(error: unknown, what: string): void;
}

/** How a job's row settles: done → removed; failed → retried or dropped; cut short by shutdown or a fault → waiting again. */
export async function outcomeOf(
  job: RunningJob,
  failure: { error: unknown } | null,
  logger: Logger,
  queue: OutcomeContext,
): Promise<Outcome> {
  const { row, definition } = job;
  if (!failure) return { remove: true };
  const again: Outcome = { remove: false, attempts: row.attempts };
  if (queue.stopping()) {
    // Whatever failed while shutting down (an abort, a closed pool or connection) may be the shutdown's doing:
    // the job waits for the next start without losing an attempt.
    logger.info(`${definition.title} was interrupted by the shutdown; it runs again at the next start`);
    return again;
  }
  const { error } = failure;
  const reason = error instanceof Error ? error.message : String(error);
  const heldBy = queue.heldBy(row.kind);
  if (heldBy !== undefined) {
    // It failed because of what holds its kind now (a ban met mid-run): it waits for the hold to end, no attempt lost.
    logger.info(`${definition.title} waits until this is over: ${heldBy} (${reason})`);
    return again;
  }
  if (await isDatabaseFault(error, queue.reachable)) {
    // Not the job's fault: it waits, no attempt lost, while the queue pauses until the database takes writes again.
    logger.info(`${definition.title} met a fault of the database; it runs again once that is over (${reason})`);
    queue.reportFault(error, `${definition.title} could not write to the database`);
    return again;
  }
  const attempts = row.attempts + 1;
  if (error instanceof PermanentJobError || attempts >= MAX_ATTEMPTS) {
    logger.error(`${definition.title} failed: ${reason}`);
    return { remove: true };
  }
  logger.warn(`${definition.title} failed (attempt ${attempts} of ${MAX_ATTEMPTS}), will retry: ${reason}`);
  return { remove: false, attempts };
}

/**
 * A full disk or a connection pg says it lost is the database's fault whatever the job did (PostgreSQL restarted
 * under it, and may be back already); another lost connection or a lock timeout only when the database does not
 * answer now (a provider's own connection error is the job's, and costs it an attempt).
 */
async function isDatabaseFault(error: unknown, reachable: () => Promise<boolean>): Promise<boolean> {
  const fault = dbFaultOf(error);
  if (fault === 'disk-full' || (fault === 'connection-lost' && isPgConnectionLoss(error))) return true;
  if (fault === null) return false;
  return !(await reachable());
}
