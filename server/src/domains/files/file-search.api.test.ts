import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, type TestServer } from '../../test/harness.js';
import { seedFileRecords, seedImportFolder } from '../../test/seed-files.js';

/**
 * File/Search against the search computed here from the base tables (the text anywhere in any location's path, `_`
 * and `-` as spaces, runs of spaces as one, ASCII case ignored; ordered by the first place it appears, then by id),
 * after locations are added, moved and removed: on SQLite the search reads a trigram table the triggers keep
 * (migration 0036_file_search), whose rows are compared with the locations too; on PostgreSQL a stored column of the
 * normalised path (0062_file_search_path), compared the same way. Read whole, in pages (each with the
 * whole Total, one past the end answering none), with `fuzzy=false`, and with the ignored files in or alone.
 */
describe('the file search', () => {
  let server: TestServer;
  let key: string;
  let folder: number;
  const db = () => server.services.db.kysely;
  const normalised = (text: string) => text.replace(/[_-]/g, ' ').replace(/ +/g, ' ').toLowerCase();

  const expected = async (text: string, ignored: 'without' | 'with' | 'only' = 'without') => {
    const needle = normalised(text.trim());
    const [files, locations] = await Promise.all([
      db().selectFrom('files').select(['id', 'is_ignored']).execute(),
      db().selectFrom('file_locations').select(['file_id', 'relative_path']).execute(),
    ]);
    return files
      .filter((file) => (ignored === 'with' ? true : ignored === 'only' ? file.is_ignored : !file.is_ignored))
      .map((file) => {
        const places = locations
          .filter((l) => l.file_id === file.id)
          .map((l) => normalised(l.relative_path).indexOf(needle))
          .filter((at) => at >= 0);
        return { id: file.id, at: places.length ? Math.min(...places) : -1 };
      })
      .filter((file) => file.at >= 0)
      .sort((a, b) => a.at - b.at || a.id - b.id)
      .map((file) => file.id);
  };
  const page = async (text: string, query: string) => {
    const res = await server.request({ method: 'GET', url: `/api/v3/File/Search/${encodeURIComponent(text)}?${query}`, key });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    return res.json() as { Total: number; List: Array<{ ID: number }> };
  };
  const searched = async (text: string, query = '') => {
    const body = await page(text, `pageSize=0${query}`);
    expect(body.List).toHaveLength(body.Total);
    return body.List.map((file) => file.ID);
  };
  /** The list read two files a page, one page past its end included: the same files, each page with the whole Total. */
  const searchedInPages = async (text: string) => {
    const ids: number[] = [];
    const totals = new Set<number>();
    for (let n = 1; ; n++) {
      const body = await page(text, `pageSize=2&page=${n}&include=XRefs`);
      totals.add(body.Total);
      ids.push(...body.List.map((file) => file.ID));
      if (!body.List.length) break;
    }
    expect([...totals], text).toEqual([ids.length]);
    return ids;
  };
  const texts = ['kaze', 'KAZE no', 'no_tani', 'ep 0', 'e', '01', '%', 'tani-', 'x\\y', 'nothing here'];
  const expectConsistent = async () => {
    for (const text of texts) {
      const want = await expected(text);
      expect(await searched(text), text).toEqual(want);
      expect(await searched(text, '&fuzzy=false'), text).toEqual(want);
      expect(await searchedInPages(text), text).toEqual(want);
      expect(await searched(text, '&include=Ignored'), text).toEqual(await expected(text, 'with'));
      expect(await searched(text, '&include_only=Ignored'), text).toEqual(await expected(text, 'only'));
      // In an order of the list (the search then is a condition of the list): the same files by id.
      expect(await searched(text, '&sortOrder=FileID'), text).toEqual([...want].sort((a, b) => a - b));
    }
    if (server.services.db.dialect === 'postgres') {
      // PostgreSQL keeps the normalised path as a stored column (migration 0062), which the trigram index is over.
      const { rows } = await sql<{ id: number; search_path: string }>`SELECT id, search_path FROM file_locations ORDER BY id`.execute(db());
      const locations = await db().selectFrom('file_locations').select(['id', 'relative_path']).orderBy('id').execute();
      expect(rows.map((r) => [r.id, r.search_path])).toEqual(locations.map((l) => [l.id, normalised(l.relative_path)]));
      const index = await sql<{ indexdef: string }>`SELECT indexdef FROM pg_indexes WHERE indexname = 'file_locations_search'`.execute(
        db(),
      );
      expect(index.rows.map((r) => r.indexdef)).toEqual([expect.stringMatching(/gin \(search_path gin_trgm_ops\)/)]);
      return;
    }
    const rows = await db().selectFrom('file_location_search').select(['rowid', 'search_path']).orderBy('rowid').execute();
    const locations = await db().selectFrom('file_locations').select(['id', 'relative_path']).orderBy('id').execute();
    expect(rows.map((r) => [r.rowid, r.search_path])).toEqual(locations.map((l) => [l.id, normalised(l.relative_path)]));
  };

  beforeAll(async () => {
    server = await createTestServer();
    key = await completeFirstRun(server);
    folder = await seedImportFolder(server, 'Anime');
    const paths = ['Kaze no Tani/Ep 01.mkv', 'kaze_no_tani - 02.mkv', 'Other/Kaze  --  Tani 03.mkv', 'Sora/ep 1.mkv', '100% x\\y.mkv'];
    await seedFileRecords(
      server,
      paths.map((relativePath, i) => ({
        size: 100 + i,
        ed2k: `${i}`.padStart(32, '0'),
        ignored: i === 3,
        location: { importFolderId: folder, relativePath },
      })),
    );
  }, 60_000);
  afterAll(() => server.close());

  it('finds the same files as the base tables after locations change', async () => {
    await expectConsistent();
    const [first, second] = (await db().selectFrom('file_locations').select(['id', 'file_id']).orderBy('id').execute()).map((l) => l);
    await db()
      .insertInto('file_locations')
      .values({ file_id: second.file_id, import_folder_id: folder, relative_path: 'Kaze/EP 0.mkv', is_accessible: 1, mtime_ms: null })
      .execute();
    await expectConsistent();
    await db().updateTable('file_locations').set({ relative_path: 'Renamed/No Wind.mkv' }).where('id', '=', first.id).execute();
    await expectConsistent();
    await db().deleteFrom('file_locations').where('id', '=', second.id).execute();
    await db().deleteFrom('files').where('id', '=', first.file_id).execute();
    await expectConsistent();
  });
});
