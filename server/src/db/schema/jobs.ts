import type { Generated } from 'kysely';
import type { Flag } from './flag.js';

export interface JobsTable {
  id: Generated<number>;
  job_key: string;
  kind: string;
  /** JSON arguments of the job. */
  payload: string;
  /** Lower runs first. */
  priority: number;
  is_running: Flag;
  attempts: number;
  created_at: string;
  started_at: string | null;
}

export interface JobTables {
  jobs: JobsTable;
}
