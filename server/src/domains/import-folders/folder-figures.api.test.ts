import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshSeriesAggregates } from '../../db/aggregates.js';
import { generateCollection } from '../groups/synthetic.js';
import { completeFirstRun, createTestServer, login, type TestServer } from '../../test/harness.js';

/**
 * ImportFolder's Size (series with a file in the folder) from the maintained series_file_folders when no series is
 * marked, from the files otherwise: both the same count as one taken from the base tables. Its FileSize (bytes) is
 * kept between changes and summed again after one.
 */
describe('import folder series counts', () => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    server = await createTestServer({ services: { figuresUpkeep: false } });
    admin = await completeFirstRun(server);
    await generateCollection(server.services.db.kysely, { series: 10, files: 80, seed: 5, userIds: [1], placeFiles: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  async function fromBaseTables(): Promise<Map<number, number>> {
    const { rows } = await sql<{ folder: number; n: number | string }>`
      SELECT fl.import_folder_id AS folder, COUNT(DISTINCT s.id) AS n FROM file_locations fl
      JOIN files f ON f.id = fl.file_id
      JOIN file_episode_links l ON l.ed2k = f.ed2k AND l.size = f.size
      JOIN series s ON s.anime_id = l.anime_id
      GROUP BY fl.import_folder_id`.execute(server.services.db.kysely);
    return new Map(rows.map((r) => [Number(r.folder), Number(r.n)]));
  }

  const answered = async () => {
    const res = await server.request({ method: 'GET', url: '/api/v3/ImportFolder', key: admin });
    expect(res.statusCode).toBe(200);
    return new Map(res.json<Array<{ ID: number; Size: number }>>().map((f) => [f.ID, f.Size]));
  };

  it('counts the same with series marked and with the figures up to date', async () => {
    const expected = await fromBaseTables();
    expect([...expected.values()].some((n) => n > 0)).toBe(true);
    const marked = await sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM aggregate_dirty_series`.execute(server.services.db.kysely);
    expect(Number(marked.rows[0]!.n)).toBeGreaterThan(0);
    const whileMarked = await answered();

    await refreshSeriesAggregates(server.services.db.kysely, server.services.db.dialect);
    const afterRefresh = await answered();
    for (const [folder, n] of expected) {
      expect(whileMarked.get(folder), `folder ${folder} while marked`).toBe(n);
      expect(afterRefresh.get(folder), `folder ${folder} from series_file_folders`).toBe(n);
    }
  });

  const bytes = async () => {
    const res = await server.request({ method: 'GET', url: '/api/v3/ImportFolder', key: admin });
    expect(res.statusCode).toBe(200);
    return new Map(res.json<Array<{ ID: number; FileSize: number }>>().map((f) => [f.ID, f.FileSize]));
  };

  it("sums a folder's bytes again once a location is removed (they are kept between changes)", async () => {
    const { rows } = await sql<{ id: number; folder: number; size: number | string }>`
      SELECT fl.id, fl.import_folder_id AS folder, f.size FROM file_locations fl JOIN files f ON f.id = fl.file_id
      WHERE f.size > 0 ORDER BY fl.id LIMIT 1`.execute(server.services.db.kysely);
    const location = rows[0]!;
    const before = await bytes();
    expect(await bytes()).toEqual(before);
    const removed = await server.request({
      method: 'DELETE',
      url: `/api/v3/File/Location/${location.id}?deleteFile=false`,
      key: admin,
    });
    expect(removed.statusCode).toBeLessThan(300);
    const after = await bytes();
    expect(after.get(Number(location.folder))).toBe(before.get(Number(location.folder))! - Number(location.size));
  });

  it('keeps them through a login, which changes no answer', async () => {
    const before = await bytes();
    // Behind the server's back, so that only a cleared figure could show it.
    await sql`DELETE FROM file_locations WHERE id = (SELECT MIN(id) FROM file_locations)`.execute(server.services.db.kysely);
    await login(server, 'Default', 'first-run-pass', 'another device');
    expect(await bytes()).toEqual(before);
  });
});
