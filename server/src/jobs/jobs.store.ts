import { sql, type Kysely } from 'kysely';
import type { Database, JobsTable } from '../db/schema.js';

export type JobRow = Omit<JobsTable, 'id'> & { id: number };

type NewJob = { key: string; kind: string; payload: unknown; priority: number };

/** The row of a job just queued: not running, never tried. */
const newJobRow = (job: NewJob, createdAt: string) => ({
  job_key: job.key,
  kind: job.kind,
  payload: JSON.stringify(job.payload),
  priority: job.priority,
  is_running: 0,
  attempts: 0,
  created_at: createdAt,
});

/** SQL of the persisted queue. */
export class JobsStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Inserts unless a job with the same key is queued; true when inserted. */
  async insert(job: NewJob): Promise<boolean> {
    const result = await this.db
      .insertInto('jobs')
      .values(newJobRow(job, new Date().toISOString()))
      .onConflict((conflict) => conflict.column('job_key').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Inserts many at once, skipping keys already queued; returns how many were inserted. */
  async insertMany(jobs: NewJob[]): Promise<number> {
    let inserted = 0;
    const createdAt = new Date().toISOString();
    for (let i = 0; i < jobs.length; i += 200) {
      const values = jobs.slice(i, i + 200).map((job) => newJobRow(job, createdAt));
      const result = await this.db
        .insertInto('jobs')
        .values(values)
        .onConflict((c) => c.column('job_key').doNothing())
        .executeTakeFirst();
      inserted += Number(result.numInsertedOrUpdatedRows ?? 0);
    }
    return inserted;
  }

  /** Jobs left running by a process that died go back to waiting, so they run again. */
  async requeueInterrupted(): Promise<number> {
    const result = await this.db
      .updateTable('jobs')
      .set((eb) => ({ is_running: 0, started_at: null, attempts: eb('attempts', '+', 1) }))
      .where('is_running', '=', 1)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Claims the next waiting job of a kind not in `excludedKinds`; null when there is none. */
  async claimNext(excludedKinds: string[]): Promise<JobRow | null> {
    for (;;) {
      const next = excludedKinds.length ? await this.nextOfKinds(excludedKinds) : await this.nextWaiting();
      if (!next) return null;
      const startedAt = new Date().toISOString();
      const claimed = await this.db
        .updateTable('jobs')
        .set({ is_running: 1, started_at: startedAt })
        .where('id', '=', next.id)
        .where('is_running', '=', 0)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 1) return { ...next, is_running: 1, started_at: startedAt };
    }
  }

  private nextWaiting(): Promise<JobRow | undefined> {
    return this.db.selectFrom('jobs').selectAll().where('is_running', '=', 0).orderBy('priority').orderBy('id').limit(1).executeTakeFirst();
  }

  /**
   * The first waiting job, in queue order, of a kind not excluded. Thousands of waiting jobs of an excluded kind (a
   * capped kind during an import) are not read: the kinds waiting are listed by skipping through the jobs_kind_order
   * index, one seek each, and each other kind's first job is one more seek.
   */
  private async nextOfKinds(excludedKinds: string[]): Promise<JobRow | undefined> {
    const excluded = new Set(excludedKinds);
    const kinds = await sql<{ kind: string }>`
      WITH RECURSIVE waiting (kind) AS (
        SELECT MIN(kind) FROM jobs WHERE is_running = 0
        UNION ALL
        SELECT (SELECT MIN(j.kind) FROM jobs j WHERE j.is_running = 0 AND j.kind > waiting.kind) FROM waiting WHERE waiting.kind IS NOT NULL
      )
      SELECT kind FROM waiting WHERE kind IS NOT NULL`.execute(this.db);
    let best: JobRow | undefined;
    for (const { kind } of kinds.rows) {
      if (excluded.has(kind)) continue;
      const first = await this.db
        .selectFrom('jobs')
        .selectAll()
        .where('is_running', '=', 0)
        .where('kind', '=', kind)
        .orderBy('priority')
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      if (first && (!best || first.priority < best.priority || (first.priority === best.priority && first.id < best.id))) best = first;
    }
    return best;
  }

  async remove(id: number): Promise<void> {
    await this.db.deleteFrom('jobs').where('id', '=', id).execute();
  }

  async release(id: number, attempts: number): Promise<void> {
    await this.db.updateTable('jobs').set({ is_running: 0, started_at: null, attempts }).where('id', '=', id).execute();
  }

  /**
   * Jobs marked running that this process runs no more (`runningIds` are the ones it does) wait again, their attempts
   * untouched: a claim whose answer was lost with the connection, or one given back while the database refused writes.
   */
  async releaseOrphans(runningIds: number[]): Promise<number> {
    let query = this.db.updateTable('jobs').set({ is_running: 0, started_at: null }).where('is_running', '=', 1);
    if (runningIds.length) query = query.where('id', 'not in', runningIds);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Whether the database answers a query now. */
  async reachable(): Promise<boolean> {
    try {
      await sql`select 1`.execute(this.db);
      return true;
    } catch {
      return false;
    }
  }

  async clearWaiting(): Promise<void> {
    await this.db.deleteFrom('jobs').where('is_running', '=', 0).execute();
  }

  /** Waiting jobs, leaving out the kinds in `excludedKinds`; with `onlyKinds`, only those kinds. */
  async countWaiting(excludedKinds: string[] = [], onlyKinds?: string[]): Promise<number> {
    if (onlyKinds && !onlyKinds.length) return 0;
    let query = this.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('is_running', '=', 0);
    if (excludedKinds.length) query = query.where('kind', 'not in', excludedKinds);
    if (onlyKinds) query = query.where('kind', 'in', onlyKinds);
    const row = await query.executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async countByKind(): Promise<Array<{ kind: string; count: number }>> {
    const rows = await this.db
      .selectFrom('jobs')
      .select(['kind', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy('kind')
      .execute();
    return rows.map((row) => ({ kind: row.kind, count: Number(row.count) }));
  }

  async listWaiting(offset: number, limit: number, excludedKinds: string[] = []): Promise<JobRow[]> {
    let query = this.db.selectFrom('jobs').selectAll().where('is_running', '=', 0);
    if (excludedKinds.length) query = query.where('kind', 'not in', excludedKinds);
    return query.orderBy('priority').orderBy('id').offset(offset).limit(limit).execute();
  }
}
