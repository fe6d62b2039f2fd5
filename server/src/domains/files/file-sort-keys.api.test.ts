import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, type TestServer } from '../../test/harness.js';

/**
 * The File list's maintained sort keys (migration 0032, file_sort_keys) against a fresh computation from files,
 * file_locations and import_folders after each kind of change, and the keyed orders against the same orders computed
 * without the keys (a trailing FileID changes no order but takes the general path).
 */
describe('the file list sort keys', () => {
  let server: TestServer;
  let key: string;
  const now = new Date().toISOString();

  const db = () => server.services.db.kysely;
  const addFolder = async (name: string) =>
    (
      await db()
        .insertInto('import_folders')
        .values({ name, path: `/srv/${name}/`, is_drop_source: 0, is_drop_destination: 0, watch_for_new_files: 0 })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const addFile = async (n: number, ignored = 0) =>
    (
      await db()
        .insertInto('files')
        .values({
          size: 5000 + n,
          ed2k: n.toString(16).padStart(32, '0'),
          ed2k_alternate: null,
          crc32: '',
          md5: '',
          sha1: '',
          is_ignored: ignored,
          is_variation: 0,
          media_info: null,
          imported_at: null,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const addLocation = async (fileId: number, folderId: number, path: string) =>
    (
      await db()
        .insertInto('file_locations')
        .values({ file_id: fileId, import_folder_id: folderId, relative_path: path, is_accessible: 1, mtime_ms: null })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;

  /** What the keys should be, computed here from the base tables. */
  const fresh = async () => {
    const [files, locations, folders] = await Promise.all([
      db().selectFrom('files').select(['id', 'is_ignored']).execute(),
      db().selectFrom('file_locations').select(['id', 'file_id', 'import_folder_id', 'relative_path']).orderBy('id').execute(),
      db().selectFrom('import_folders').select(['id', 'name']).execute(),
    ]);
    return files
      .map((file) => {
        const first = locations.find((l) => l.file_id === file.id);
        const folder = first && folders.find((f) => f.id === first.import_folder_id);
        return {
          file_id: file.id,
          is_ignored: Number(file.is_ignored),
          no_location: first ? 0 : 1,
          import_folder_id: first?.import_folder_id ?? null,
          folder_name: folder ? folder.name.toLowerCase() : null,
          file_name: first ? first.relative_path.replace(/^.*[\\/]/, '').toLowerCase() : null,
          relative_path: first ? first.relative_path.toLowerCase() : null,
        };
      })
      .sort((a, b) => a.file_id - b.file_id);
  };
  const stored = async () =>
    (await db().selectFrom('file_sort_keys').selectAll().orderBy('file_id').execute()).map((row) => ({
      ...row,
      is_ignored: Number(row.is_ignored),
      no_location: Number(row.no_location),
    }));
  const ids = async (query: string) => {
    const res = await server.request({ method: 'GET', url: `/api/v3/File?pageSize=0&${query}`, key });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const body = res.json() as { Total: number; List: Array<{ ID: number }> };
    expect(body.List).toHaveLength(body.Total);
    return body.List.map((f) => f.ID);
  };
  const expectConsistent = async () => {
    expect(await stored()).toEqual(await fresh());
    const console = 'sortOrder=ImportFolderName&sortOrder=FileName&sortOrder=RelativePath';
    for (const extra of ['', '&include=Ignored']) {
      expect(await ids(console + extra)).toEqual(await ids(`${console}&sortOrder=FileID${extra}`));
      expect(await ids(`sortOrder=1&sortOrder=4${extra}`)).toEqual(await ids(`sortOrder=1&sortOrder=4&sortOrder=FileID${extra}`));
      expect(await ids(extra.slice(1))).toEqual(await ids(`sortOrder=1&sortOrder=4${extra}`));
    }
    const page = await server.request({ method: 'GET', url: `/api/v3/File?pageSize=3&page=2&${console}`, key });
    expect(page.json().List.map((f: { ID: number }) => f.ID)).toEqual((await ids(console)).slice(3, 6));
  };

  let anime: number;
  let backup: number;
  const files: number[] = [];
  const locations: number[] = [];

  beforeAll(async () => {
    server = await createTestServer();
    key = await completeFirstRun(server);
    anime = await addFolder('Anime');
    backup = await addFolder('backup');
    const paths = ['B Show/ep 2.mkv', 'a show\\Ep 1.mkv', 'Zed.mkv', 'B Show/EP 1.mkv', 'C/d/e/ep 1.mkv', 'b show/ep 3.mkv'];
    for (const [i, path] of paths.entries()) {
      files.push(await addFile(i, i === 2 ? 1 : 0));
      locations.push(await addLocation(files[i], i % 2 ? anime : backup, path));
    }
    files.push(await addFile(100));
  }, 60_000);
  afterAll(() => server.close());

  it('match the base tables after files, locations and folders change', async () => {
    await expectConsistent();
    // A second location (not the first), then the first one removed: the second takes its place.
    await addLocation(files[0], anime, 'Other/first.mkv');
    await expectConsistent();
    await db().deleteFrom('file_locations').where('id', '=', locations[0]).execute();
    await expectConsistent();
    // A location moved to another file, folder and path; a file without a location gains one.
    await db()
      .updateTable('file_locations')
      .set({ file_id: files[6], import_folder_id: anime, relative_path: 'New/X.MKV' })
      .where('id', '=', locations[1])
      .execute();
    await expectConsistent();
    await db().updateTable('file_locations').set({ relative_path: 'a/b\\c.mkv' }).where('id', '=', locations[3]).execute();
    await expectConsistent();
    // Flags, a folder renamed, a file deleted, a folder deleted.
    await db().updateTable('files').set({ is_ignored: 1 }).where('id', '=', files[4]).execute();
    await db().updateTable('files').set({ is_ignored: 0 }).where('id', '=', files[2]).execute();
    await expectConsistent();
    await db().updateTable('import_folders').set({ name: 'AAA' }).where('id', '=', backup).execute();
    await expectConsistent();
    await db().deleteFrom('files').where('id', '=', files[5]).execute();
    await expectConsistent();
    await db().deleteFrom('import_folders').where('id', '=', anime).execute();
    await expectConsistent();
  });
});
