import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCollection } from '../domains/groups/synthetic.js';
import { completeFirstRun, createTestServer, type TestServer } from '../test/harness.js';
import { refreshMaintainedFigures } from './maintained-figures.js';

/** After a bulk change nothing is left for the first reader: no change rows, no dirty marks, the stats row current. */
describe('refreshMaintainedFigures', () => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    server = await createTestServer();
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
