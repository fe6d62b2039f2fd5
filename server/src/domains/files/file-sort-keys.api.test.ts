import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, type TestServer } from '../../test/harness.js';
import { seedFileRecords, seedImportFolder } from '../../test/seed-files.js';

/**
 * The File list's maintained keys (migrations 0032 and 0036, file_sort_keys) against a fresh computation from files,
 * file_locations, file_episode_links and import_folders after each kind of change, and the keyed lists (conditions
 * and orders) against the same lists computed without the keys: a trailing FileID changes no order but takes the
 * general path, whose conditions read the base tables.
 */
describe('the file list sort keys', () => {
  let server: TestServer;
  let key: string;

  const db = () => server.services.db.kysely;
  const ed2kOf = (n: number) => n.toString(16).padStart(32, '0');
  const addFile = async (n: number, ignored = false) => (await seedFileRecords(server, [{ size: 5000 + n, ed2k: ed2kOf(n), ignored }]))[0];
  const addLocation = async (fileId: number, folderId: number, path: string) =>
    (
      await db()
        .insertInto('file_locations')
        .values({ file_id: fileId, import_folder_id: folderId, relative_path: path, is_accessible: 1, mtime_ms: null })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  /** A link of file `n`'s content (as addFile made it) to an episode. */
  const addLink = async (n: number, source: 'AniDB' | 'User') =>
    (
      await db()
        .insertInto('file_episode_links')
        .values({
          ed2k: ed2kOf(n),
          size: 5000 + n,
          anime_id: 1,
          episode_id: 100 + n,
          percentage: 100,
          ordering: 0,
          source,
          release_group_id: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;

  /** What the keys should be, computed here from the base tables. */
  const fresh = async () => {
    const [files, locations, folders, links] = await Promise.all([
      db().selectFrom('files').select(['id', 'is_ignored', 'ed2k', 'size']).execute(),
      db().selectFrom('file_locations').select(['id', 'file_id', 'import_folder_id', 'relative_path']).orderBy('id').execute(),
      db().selectFrom('import_folders').select(['id', 'name']).execute(),
      db().selectFrom('file_episode_links').select(['ed2k', 'size', 'source']).execute(),
    ]);
    return files
      .map((file) => {
        const first = locations.find((l) => l.file_id === file.id);
        const folder = first && folders.find((f) => f.id === first.import_folder_id);
        const own = links.filter((l) => l.ed2k === file.ed2k && Number(l.size) === Number(file.size));
        return {
          file_id: file.id,
          is_ignored: Number(file.is_ignored),
          no_location: first ? 0 : 1,
          is_linked: own.length ? 1 : 0,
          has_manual_link: own.some((l) => l.source === 'User') ? 1 : 0,
          location_id: first?.id ?? null,
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
      is_linked: Number(row.is_linked),
      has_manual_link: Number(row.has_manual_link),
    }));
  const ids = async (query: string) => {
    const res = await server.request({ method: 'GET', url: `/api/v3/File?pageSize=0&${query}`, key });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const body = res.json() as { Total: number; List: Array<{ ID: number }> };
    expect(body.List).toHaveLength(body.Total);
    return body.List.map((f) => f.ID);
  };
  const consoleOrder = 'sortOrder=ImportFolderName&sortOrder=FileName&sortOrder=RelativePath';
  const defaultOrder = 'sortOrder=1&sortOrder=4';
  /** Each condition the keys answer, with the orders the console and the dashboard ask for with it. */
  const keyedLists: Array<[string, string[]]> = [
    ['', [consoleOrder, defaultOrder, 'sortOrder=-FileID']],
    ['&include=Ignored', [consoleOrder, 'sortOrder=FileID']],
    ['&include_only=Ignored', [defaultOrder]],
    ['&include_only=Unrecognized', [consoleOrder, defaultOrder, 'sortOrder=-FileID']],
    ['&include_only=ManualLinks&include=Ignored', [defaultOrder]],
    ['&exclude=Unrecognized&exclude=ManualLinks', [consoleOrder]],
  ];
  /** Files per combination of the key flags: the maintained counts (0046) summed, and counted from the keys. */
  const flagCounts = async (table: 'file_key_counts' | 'file_sort_keys') => {
    const rows = await db()
      .selectFrom(table)
      .select(['is_ignored', 'is_linked', 'has_manual_link'])
      .select((eb) => (table === 'file_key_counts' ? eb.fn.sum<number>('files') : eb.fn.countAll<number>()).as('files'))
      .groupBy(['is_ignored', 'is_linked', 'has_manual_link'])
      .execute();
    return rows
      .map((r) => `${r.is_ignored}${r.is_linked}${r.has_manual_link}:${Number(r.files)}`)
      .filter((text) => !text.endsWith(':0'))
      .sort();
  };
  const expectConsistent = async () => {
    expect(await stored()).toEqual(await fresh());
    expect(await flagCounts('file_key_counts')).toEqual(await flagCounts('file_sort_keys'));
    for (const [condition, orders] of keyedLists)
      for (const order of orders)
        expect(await ids(order + condition), order + condition).toEqual(await ids(`${order}&sortOrder=FileID${condition}`));
    expect(await ids('')).toEqual(await ids(defaultOrder));
    const page = await server.request({ method: 'GET', url: `/api/v3/File?pageSize=3&page=2&${consoleOrder}`, key });
    expect(page.json().List.map((f: { ID: number }) => f.ID)).toEqual((await ids(consoleOrder)).slice(3, 6));
  };

  let anime: number;
  let backup: number;
  const files: number[] = [];
  const locations: number[] = [];

  beforeAll(async () => {
    server = await createTestServer();
    key = await completeFirstRun(server);
    anime = await seedImportFolder(server, 'Anime');
    backup = await seedImportFolder(server, 'backup');
    const paths = ['B Show/ep 2.mkv', 'a show\\Ep 1.mkv', 'Zed.mkv', 'B Show/EP 1.mkv', 'C/d/e/ep 1.mkv', 'b show/ep 3.mkv'];
    for (const [i, path] of paths.entries()) {
      files.push(await addFile(i, i === 2));
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

  it('match the base tables after links and file contents change', async () => {
    // Links made by AniDB and by the user, two on one content; a second file with a content already linked.
    const linked = await addLink(0, 'AniDB');
    await addLink(3, 'User');
    await addLink(3, 'AniDB');
    const manual = await addLink(4, 'User');
    await expectConsistent();
    const twin = (
      await seedFileRecords(server, [{ size: 5000, ed2k: ed2kOf(0), location: { importFolderId: backup, relativePath: 'Twin.mkv' } }])
    )[0];
    await expectConsistent();
    // A link's source changed, a link moved to another content, a link removed while another of its content stays.
    await db().updateTable('file_episode_links').set({ source: 'AniDB' }).where('id', '=', manual).execute();
    await expectConsistent();
    await db()
      .updateTable('file_episode_links')
      .set({ ed2k: ed2kOf(2), size: 5002 })
      .where('id', '=', linked)
      .execute();
    await expectConsistent();
    await db().deleteFrom('file_episode_links').where('ed2k', '=', ed2kOf(3)).where('source', '=', 'User').execute();
    await expectConsistent();
    // A file's content changes (a re-hash): it takes the links of its new content and leaves the old one's.
    await db()
      .updateTable('files')
      .set({ ed2k: ed2kOf(4), size: 5004 })
      .where('id', '=', twin)
      .execute();
    await expectConsistent();
    await db().updateTable('files').set({ size: 1 }).where('id', '=', files[3]).execute();
    await expectConsistent();
    await db().deleteFrom('file_episode_links').execute();
    await expectConsistent();
  });

  it('fold the appended file counts into one row per flag combination, keeping their sums', async () => {
    // Each change appends rows; a list read past 64 of them folds them.
    for (let i = 0; i < 40; i++)
      await db()
        .updateTable('files')
        .set({ is_ignored: i % 2 })
        .where('id', '=', files[1])
        .execute();
    const appended = await db()
      .selectFrom('file_key_counts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(appended.n)).toBeGreaterThan(64);
    await expectConsistent();
    const folded = await db()
      .selectFrom('file_key_counts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(folded.n)).toBeLessThanOrEqual(8);
    await expectConsistent();
  });
});
