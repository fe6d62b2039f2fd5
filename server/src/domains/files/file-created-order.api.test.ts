import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, type TestServer } from '../../test/harness.js';
import { seedFileRecords, seedImportFolder } from '../../test/seed-files.js';

/**
 * The File list by CreatedAt alone (File Search's list before anything is typed) walks files_created (migration 0058)
 * instead of the general sort. Its pages must be the ones the general path gives (a trailing FileID changes no order
 * but takes that path) and the ones computed here from the files: ties by id, ignored files only when included.
 */
describe('the file list by creation time', () => {
  let server: TestServer;
  let key: string;

  const list = async (query: string) => {
    const res = await server.request({ method: 'GET', url: `/api/v3/File?${query}`, key });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const body = res.json() as { Total: number; List: Array<{ ID: number }> };
    return { total: body.Total, ids: body.List.map((file) => file.ID) };
  };

  /** The files in creation order computed from the table, ties by id. */
  const expected = async (descending: boolean, withIgnored: boolean) => {
    const rows = await server.services.db.kysely.selectFrom('files').select(['id', 'created_at', 'is_ignored']).execute();
    return rows
      .filter((row) => withIgnored || !Number(row.is_ignored))
      .sort((a, b) => (a.created_at === b.created_at ? a.id - b.id : a.created_at < b.created_at === descending ? 1 : -1))
      .map((row) => row.id);
  };

  beforeAll(async () => {
    server = await createTestServer();
    key = await completeFirstRun(server);
    const folder = await seedImportFolder(server, 'Anime');
    // Eight files over four instants (ties within each), one ignored, one without a location.
    const ids = await seedFileRecords(
      server,
      Array.from({ length: 8 }, (_, n) => ({
        size: 1000 + n,
        ed2k: n.toString(16).padStart(32, '0'),
        ignored: n === 5,
        location: n === 6 ? undefined : { importFolderId: folder, relativePath: `Show/ep ${n}.mkv` },
      })),
    );
    const instants = ['2026-01-03T00:00:00.000Z', '2026-01-01T00:00:00.000Z', '2026-01-04T00:00:00.000Z', '2026-01-02T00:00:00.000Z'];
    for (const [n, id] of ids.entries())
      await server.services.db.kysely
        .updateTable('files')
        .set({ created_at: instants[(n * 3) % 4] })
        .where('id', '=', id)
        .execute();
  }, 60_000);
  afterAll(() => server.close());

  it('answers what the general sort and the files themselves give, newest or oldest first', async () => {
    for (const [order, descending] of [
      ['sortOrder=-7', true],
      ['sortOrder=-CreatedAt', true],
      ['sortOrder=CreatedAt', false],
    ] as const)
      for (const [condition, withIgnored] of [
        ['', false],
        ['&include=Ignored', true],
        ['&exclude=Watched', false],
      ] as const) {
        const whole = await list(`pageSize=0&${order}${condition}`);
        const want = await expected(descending, withIgnored);
        expect(whole, order + condition).toEqual({ total: want.length, ids: want });
        expect(whole, `${order}${condition} (general path)`).toEqual(await list(`pageSize=0&${order}&sortOrder=FileID${condition}`));
      }
  });

  it('pages as the console asks for them, with the cross-references', async () => {
    const want = await expected(true, false);
    expect(want).toHaveLength(7);
    expect(await list('pageSize=3&page=1&include=XRefs&sortOrder=-7')).toEqual({ total: 7, ids: want.slice(0, 3) });
    expect(await list('pageSize=3&page=3&include=XRefs&sortOrder=-7')).toEqual({ total: 7, ids: want.slice(6) });
    expect(await list('pageSize=3&page=4&include=XRefs&sortOrder=-7')).toEqual({ total: 7, ids: [] });
  });
});
