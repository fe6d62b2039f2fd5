import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../test/harness.js';
import { foldFileKeyCounts, keyedFileCount } from './file-key-counts.js';

/**
 * Folding the +1/−1 rows a bulk change appended keeps the sums, and on PostgreSQL leaves no dead rows for every later
 * reader to scan: the table is vacuumed after a large fold.
 */
describe('folding appended counts', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.services.db.kysely;
  const dialect = () => server.services.db.dialect;

  it('keeps the sums and, on PostgreSQL, gives back the space of a bulk change', async () => {
    const before = await keyedFileCount(db(), dialect(), [['is_ignored', 1]]);
    // What a 30,000-file change appends: one +1 row per file, then 10,000 of them taken back.
    await sql`INSERT INTO file_key_counts (is_ignored, is_linked, has_manual_link, files)
      SELECT 1, 0, 0, 1 FROM generate_series(1, 30000)`
      .execute(db())
      .catch(async () => {
        // SQLite has no generate_series without its extension: a recursive count instead.
        await sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
          INSERT INTO file_key_counts (is_ignored, is_linked, has_manual_link, files) SELECT 1, 0, 0, 1 FROM n`.execute(db());
      });
    await sql`INSERT INTO file_key_counts (is_ignored, is_linked, has_manual_link, files) VALUES (1, 0, 0, -10000)`.execute(db());
    await foldFileKeyCounts(db(), dialect());

    const rows = await db().selectFrom('file_key_counts').selectAll().execute();
    expect(rows.length).toBeLessThanOrEqual(8);
    expect(await keyedFileCount(db(), dialect(), [['is_ignored', 1]])).toBe(before + 20_000);
    if (dialect() !== 'postgres') return;

    const pages = async () =>
      Number((await sql<{ pages: number }>`SELECT pg_relation_size('file_key_counts') / 8192 AS pages`.execute(db())).rows[0]!.pages);
    const deadline = Date.now() + 20_000;
    while ((await pages()) > 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await pages()).toBeLessThanOrEqual(2);
  }, 60_000);
});
