import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../db/schema.js';
import { JobWrites, runTracked, type WriteRecord } from './job-writes.js';

/** Statements compiled for SQLite and answered by a driver that runs nothing: only what the plugin sees matters. */
function trackedDb() {
  const writes = new JobWrites();
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (kysely) => new SqliteIntrospector(kysely),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  }).withPlugin(writes);
  const wrote = async (work: () => Promise<unknown>) => {
    const record = { wrote: false };
    await writes.track(record, work);
    return record.wrote;
  };
  return { db, writes, wrote };
}

describe('which jobs wrote', () => {
  it('counts writes to the collection, not reads nor the queue rows a job queues', async () => {
    const { db, wrote } = trackedDb();
    expect(await wrote(() => db.selectFrom('files').selectAll().execute())).toBe(false);
    expect(await wrote(() => sql`SELECT count(*) FROM files`.execute(db))).toBe(false);
    expect(
      await wrote(() =>
        db
          .insertInto('jobs')
          .values({ job_key: 'k', kind: 'K', payload: '{}', priority: 1, is_running: 0, attempts: 0, created_at: '' })
          .execute(),
      ),
    ).toBe(false);
    expect(await wrote(() => db.updateTable('jobs').set({ attempts: 1 }).execute())).toBe(false);
    expect(await wrote(() => db.deleteFrom('jobs').execute())).toBe(false);
    expect(await wrote(() => sql`UPDATE jobs SET attempts = 2`.execute(db))).toBe(false);

    expect(await wrote(() => db.updateTable('files').set({ is_ignored: 1 }).execute())).toBe(true);
    expect(await wrote(() => db.deleteFrom('file_episode_links').execute())).toBe(true);
    // AniDB's own bookkeeping (a back-off recorded by a failing lookup) shows in no kept answer.
    expect(await wrote(() => db.deleteFrom('anidb_bans').where('protocol', '=', 'udp-backoff').execute())).toBe(false);
    expect(await wrote(() => db.deleteFrom('anidb_anime').where('id', '=', 1).execute())).toBe(true);
    expect(await wrote(() => sql`INSERT INTO aggregate_dirty_series (series_id) VALUES (1)`.execute(db))).toBe(true);
    expect(await wrote(() => sql`WITH x AS (SELECT 1) UPDATE series SET id = id`.execute(db))).toBe(true);
    expect(await wrote(() => db.transaction().execute((trx) => trx.updateTable('series').set({ id: 1 }).execute()))).toBe(true);
  });

  it('tells each job its own writes, and ignores statements made outside any job', async () => {
    const { db, writes } = trackedDb();
    await db.updateTable('files').set({ is_ignored: 1 }).execute();
    const reader = { wrote: false };
    const writer = { wrote: false };
    await Promise.all([
      writes.track(reader, async () => {
        await db.selectFrom('files').selectAll().execute();
        await new Promise((resolve) => setTimeout(resolve, 5));
        await db.selectFrom('series').selectAll().execute();
      }),
      writes.track(writer, async () => {
        await db.selectFrom('files').selectAll().execute();
        await db.updateTable('files').set({ is_ignored: 0 }).execute();
      }),
    ]);
    expect(reader.wrote).toBe(false);
    expect(writer.wrote).toBe(true);
  });

  it('names the tables a job wrote beyond the bookkeeping, or says it cannot tell', async () => {
    const { db, writes } = trackedDb();
    const tablesOf = async (work: () => Promise<unknown>) => {
      const record: WriteRecord = { wrote: false, tables: new Set() };
      await writes.track(record, work);
      return record.tables ? [...record.tables].sort() : null;
    };
    expect(await tablesOf(() => db.selectFrom('series').selectAll().execute())).toEqual([]);
    expect(
      await tablesOf(async () => {
        await db.updateTable('jobs').set({ attempts: 1 }).execute();
        await db.updateTable('import_folders').set({ is_available: 0 }).execute();
        await db.transaction().execute((trx) => trx.deleteFrom('anidb_anime_titles').execute());
        await sql`INSERT INTO aggregate_dirty_series (series_id) VALUES (1)`.execute(db);
      }),
    ).toEqual(['aggregate_dirty_series', 'anidb_anime_titles', 'import_folders']);
    expect(await tablesOf(() => sql`WITH x AS (SELECT 1) UPDATE series SET id = id`.execute(db))).toBeNull();
    // A job's end carries them; one that wrote nothing but succeeded may have changed files, none of the tables.
    const ended = await runTracked(writes, async () => {
      await db.updateTable('files').set({ is_ignored: 1 }).execute();
    });
    expect([ended.changed, ended.tables && [...ended.tables]]).toEqual([true, ['files']]);
    const quiet = await runTracked(writes, async () => undefined);
    expect([quiet.changed, quiet.tables && [...quiet.tables]]).toEqual([true, []]);
    // Without a tracker nothing can be told.
    expect((await runTracked(null, async () => undefined)).tables).toBeNull();
  });
});
