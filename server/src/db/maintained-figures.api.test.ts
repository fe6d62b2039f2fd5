import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCollection } from '../domains/groups/synthetic.js';
import { insertSeries } from '../domains/groups/synthetic.store.js';
import { completeFirstRun, createTestServer, type TestServer } from '../test/harness.js';
import { refreshMaintainedFigures } from './maintained-figures.js';

/** After a bulk change nothing is left for the first reader: no change rows, no dirty marks, the stats row current. */
describe('refreshMaintainedFigures', () => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    // The marks a generation leaves are the premise here: no background upkeep takes them first.
    server = await createTestServer({ services: { figuresUpkeep: false } });
    admin = await completeFirstRun(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  const rows = async (table: string) =>
    Number(
      (await sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM ${sql.table(table)}`.execute(server.services.db.kysely)).rows[0]!.n,
    );

  it('applies every pending mark and change row of a generated collection', async () => {
    const { kysely, dialect } = server.services.db;
    await generateCollection(kysely, { series: 12, files: 90, seed: 7, userIds: [1], placeFiles: true });
    // What the generation left for first readers (the premise of the test).
    expect(await rows('collection_stats_changes')).toBeGreaterThan(0);
    expect(await rows('aggregate_dirty_series')).toBeGreaterThan(0);

    await refreshMaintainedFigures(kysely, dialect);

    expect(await rows('collection_stats_changes')).toBe(0);
    expect(await rows('aggregate_dirty_series')).toBe(0);
    expect(await rows('aggregate_dirty_groups')).toBe(0);
    // The row read without upkeep is the one a fresh computation gives.
    const stored = (await sql<{ file_count: number | string }>`SELECT file_count FROM collection_stats WHERE id = 1`.execute(kysely))
      .rows[0];
    const stats = await server.request({ method: 'GET', url: '/api/v3/Dashboard/Stats', key: admin });
    expect(stats.statusCode).toBe(200);
    expect(Number(stored?.file_count)).toBe(stats.json<{ FileCount: number }>().FileCount);
    expect(stats.json<{ FileCount: number }>().FileCount).toBeGreaterThan(0);
  });
});

/** A change announced by the end of a job (an import, a scan, a bulk link) is brought up to date in the background. */
describe('maintained figures after a change, without a reader', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await createTestServer({ services: { figuresUpkeep: { quietMs: 50, maxDelayMs: 500 } } });
    await completeFirstRun(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  const pending = async () => {
    const { kysely } = server.services.db;
    const count = async (table: string) =>
      Number((await sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM ${sql.table(table)}`.execute(kysely)).rows[0]!.n);
    return (await count('collection_stats_changes')) + (await count('aggregate_dirty_series')) + (await count('aggregate_dirty_groups'));
  };

  it('are up to date soon after the job that changed the collection ends, with no request made', async () => {
    await generateCollection(server.services.db.kysely, { series: 8, files: 60, seed: 11, userIds: [1], placeFiles: true });
    expect(await pending()).toBeGreaterThan(0);

    // As the importing job would when it ends.
    server.services.bus.emit('job:finished', { type: 'ProcessFileJob' });

    const deadline = Date.now() + 30_000;
    let left = await pending();
    while (left > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      left = await pending();
    }
    expect(left).toBe(0);
  });
});

describe.runIf(process.env.SHOKO_TEST_DB)('maintained figures on PostgreSQL after a bulk change', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  /** Pages each GIN index of the schema still holds in its pending list (counting them moves them into the index). */
  const pendingPages = async () =>
    (
      await sql<{ name: string; pages: number }>`SELECT c.relname AS name, gin_clean_pending_list(c.oid)::int AS pages
        FROM pg_class c JOIN pg_am a ON a.oid = c.relam JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind = 'i' AND a.amname = 'gin' AND n.nspname = current_schema()`.execute(server.services.db.kysely)
    ).rows;

  it('leaves no GIN index with entries pending, so name searches keep reading the trigram indexes', async () => {
    const db = server.services.db.kysely;
    const series = (from: number) =>
      Array.from({ length: 300 }, (_, i) => ({
        animeId: from + i,
        title: `Hoshi no Kaze ${from + i}`,
        groupName: `Kaze group ${from + i}`,
      }));
    // Rows written outside a vacuum wait in the pending lists: the control that the check below can see them.
    await insertSeries(db, series(1));
    expect((await pendingPages()).find((i) => i.name === 'groups_name_trgm')?.pages).toBeGreaterThan(0);

    await insertSeries(db, series(1001));
    await sql`UPDATE groups SET name = name || ' (renamed)'`.execute(db);
    await refreshMaintainedFigures(db, 'postgres');
    const after = await pendingPages();
    expect(after.map((i) => i.name)).toContain('groups_name_trgm');
    expect(after.filter((i) => i.pages > 0)).toEqual([]);
  });
});
