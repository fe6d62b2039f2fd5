import type { QueueItem } from '@shoko-ts/contract';
import type { JobDefinition, JobDetails } from './job.js';
import type { JobRow } from './jobs.store.js';
import type { RunningJob } from './queue-types.js';

/** Running jobs as the queue lists them, the first started first. */
export function runningQueueItems(jobs: Iterable<RunningJob>): QueueItem[] {
  return [...jobs]
    .sort((a, b) => (a.row.started_at ?? '').localeCompare(b.row.started_at ?? ''))
    .map((job) => queueItem(job.row, job.definition, job));
}

/** A job's row as the queue lists it; a waiting one's details come from its payload (none when it cannot be read). */
export function queueItem(row: JobRow, definition: JobDefinition<unknown> | undefined, running: RunningJob | null): QueueItem {
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
