import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverWithCollection } from '../test/generated-collection.js';
import type { TestServer } from '../test/harness.js';
import { FILE_PATH_SEPARATOR } from './filter-figures.js';

/**
 * The filters' maintained per-series figures (migration 0039, db/filter-figures.ts) against a fresh computation from
 * the base tables, done here in plain code, after changes to files, links, locations, import folders, episodes and
 * series made through the API and straight in the tables.
 */
describe('maintained filter figures', () => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    ({ server, admin } = await serverWithCollection({ series: 12, files: 120, seed: 11, placeFiles: true }));
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Any collection page brings the maintained rows up to date first (a new page size each time: no read cache). */
  let visits = 0;
  const visit = async () => {
    visits += 1;
    const res = await server.request({ method: 'POST', url: `/api/v3/Filter/Preview/Group?pageSize=${visits}`, key: admin, body: {} });
    expect(res.statusCode).toBe(200);
  };

  async function expected() {
    const db = server.services.db.kysely;
    const [series, episodes, anidbEpisodes, links, files, anidbFiles, locations] = await Promise.all([
      db.selectFrom('series').select('id').execute(),
      db.selectFrom('episodes').select(['series_id', 'anidb_episode_id', 'is_hidden']).execute(),
      db.selectFrom('anidb_episodes').select(['id', 'type', 'number']).execute(),
      db.selectFrom('file_episode_links').select(['ed2k', 'size', 'episode_id']).execute(),
      db.selectFrom('files').select(['id', 'ed2k', 'size']).execute(),
      db.selectFrom('anidb_files').select(['ed2k', 'size', 'group_id']).execute(),
      db.selectFrom('file_locations').select(['id', 'file_id', 'import_folder_id', 'relative_path']).execute(),
    ]);
    const content = (r: { ed2k: string; size: number | string }) => `${r.ed2k}/${Number(r.size)}`;
    const filesOf = new Map<string, typeof files>();
    for (const f of files) filesOf.set(content(f), [...(filesOf.get(content(f)) ?? []), f]);
    const grouped = new Set(anidbFiles.filter((a) => a.group_id > 0).map(content));
    const anidb = new Map(anidbEpisodes.map((a) => [a.id, a]));
    const localFiles = (e: (typeof episodes)[number]) =>
      links.filter((l) => l.episode_id === e.anidb_episode_id).flatMap((l) => filesOf.get(content(l)) ?? []);
    const figures = [];
    const folders = [];
    for (const s of series) {
      const own = episodes.filter((e) => e.series_id === s.id);
      const fileIds = new Set(own.flatMap(localFiles).map((f) => f.id));
      const places = locations.filter((l) => fileIds.has(l.file_id));
      const normal = (e: (typeof own)[number]) => anidb.get(e.anidb_episode_id)?.type === 'Episode';
      const number = (e: (typeof own)[number]) => anidb.get(e.anidb_episode_id)!.number;
      const lastGrouped = Math.max(...own.filter((e) => normal(e) && localFiles(e).some((f) => grouped.has(content(f)))).map(number));
      const collecting = own.filter((e) => !e.is_hidden && normal(e) && !localFiles(e).length && number(e) <= lastGrouped).length;
      if (places.length || collecting)
        figures.push({
          series_id: s.id,
          collecting_missing_count: collecting,
          file_paths: places.length ? places.map((l) => l.relative_path.toLowerCase()).sort() : null,
        });
      const byFolder = new Map<number, number>();
      for (const l of places) byFolder.set(l.import_folder_id, (byFolder.get(l.import_folder_id) ?? 0) + 1);
      for (const [folder, count] of byFolder) folders.push({ series_id: s.id, import_folder_id: folder, location_count: count });
    }
    return { figures, folders };
  }

  async function stored() {
    const db = server.services.db.kysely;
    const figures = (await db.selectFrom('series_filter_figures').selectAll().execute()).map((r) => {
      const text = r.file_paths;
      // Each path closed by the separator, the first one opened by it too.
      if (text !== null) expect(text.startsWith(FILE_PATH_SEPARATOR) && text.endsWith(FILE_PATH_SEPARATOR)).toBe(true);
      return {
        series_id: r.series_id,
        collecting_missing_count: Number(r.collecting_missing_count),
        file_paths: text === null ? null : text.slice(1, -1).split(FILE_PATH_SEPARATOR).sort(),
      };
    });
    const folders = (await db.selectFrom('series_file_folders').selectAll().execute()).map((r) => ({
      series_id: r.series_id,
      import_folder_id: r.import_folder_id,
      location_count: Number(r.location_count),
    }));
    return { figures, folders };
  }

  const sorted = <T>(rows: T[]) => rows.map((r) => JSON.stringify(r)).sort();
  async function expectConsistent() {
    await visit();
    const [want, have] = await Promise.all([expected(), stored()]);
    expect(sorted(have.figures)).toEqual(sorted(want.figures));
    expect(sorted(have.folders)).toEqual(sorted(want.folders));
    return want;
  }

  const seriesMatching = async (expression: object) => {
    const res = await server.request({
      method: 'POST',
      url: `/api/v3/Filter/Preview/Series?pageSize=${20 + ++visits}`,
      key: admin,
      body: { ApplyAtSeriesLevel: true, Expression: expression },
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().List as Array<{ IDs: { ID: number } }>).map((s) => s.IDs.ID).sort((a, b) => a - b);
  };

  it('match the base tables after changes to files, links, locations, folders, episodes and series', async () => {
    const first = await expectConsistent();
    expect(first.folders.length).toBeGreaterThan(first.figures.length);
    const db = server.services.db.kysely;
    const request = async (method: 'POST' | 'DELETE', url: string, body?: unknown) => {
      const res = await server.request({ method, url: `/api/v3/${url}`, key: admin, body });
      expect(res.statusCode, res.body).toBeLessThan(300);
    };

    // AniDB names a release group for half of the files: the collecting figures appear.
    const anidbFiles = await db.selectFrom('anidb_files').select('ed2k').orderBy('ed2k').execute();
    await db
      .updateTable('anidb_files')
      .set({ group_id: 5 })
      .where(
        'ed2k',
        'in',
        anidbFiles.filter((_, i) => i % 2 === 0).map((a) => a.ed2k),
      )
      .execute();
    const grouped = await expectConsistent();
    expect(grouped.figures.some((r) => r.collecting_missing_count > 0)).toBe(true);

    // Locations: renamed, moved to the other folder, added, removed.
    const folders = await db.selectFrom('import_folders').select(['id', 'name']).orderBy('id').execute();
    // One location of a linked file per series, so each change below is the only one marking its series.
    const linked = await db
      .selectFrom('file_locations as fl')
      .innerJoin('files as f', 'f.id', 'fl.file_id')
      .innerJoin('file_episode_links as l', (join) => join.onRef('l.ed2k', '=', 'f.ed2k').onRef('l.size', '=', 'f.size'))
      .innerJoin('episodes as e', 'e.anidb_episode_id', 'l.episode_id')
      .select(['fl.id', 'fl.file_id', 'e.series_id'])
      .orderBy('fl.id')
      .execute();
    const places = [...new Map(linked.map((l) => [l.series_id, l])).values()].sort((a, b) => a.id - b.id);
    expect(places.length).toBeGreaterThanOrEqual(6);
    await db.updateTable('file_locations').set({ relative_path: 'Renamed/Alpha_Beta.MKV' }).where('id', '=', places[0]!.id).execute();
    await db.updateTable('file_locations').set({ import_folder_id: folders[1]!.id }).where('id', '=', places[1]!.id).execute();
    await db
      .insertInto('file_locations')
      .values({
        file_id: places[2]!.file_id,
        import_folder_id: folders[1]!.id,
        relative_path: 'Extra/Copy.mkv',
        is_accessible: 1,
        mtime_ms: null,
      })
      .execute();
    await db.deleteFrom('file_locations').where('id', '=', places[3]!.id).execute();
    await expectConsistent();
    expect(await seriesMatching({ Type: 'AnyContains', Left: { Type: 'FilePaths' }, Parameter: 'alpha_b' })).toHaveLength(1);
    expect(await seriesMatching({ Type: 'AnyEquals', Left: { Type: 'FilePaths' }, Parameter: 'renamed/alpha_beta.mkv' })).toHaveLength(1);

    // Links and files through the API: a new file (as the import writes it, with a location) linked by hand, then
    // unlinked again; a linked file's record deleted.
    const episodes = await db.selectFrom('episodes').select(['id', 'series_id']).orderBy('id').execute();
    const { id: _id, ...template } = await db
      .selectFrom('files')
      .selectAll()
      .where('id', '=', places[4]!.file_id)
      .executeTakeFirstOrThrow();
    const added = await db
      .insertInto('files')
      .values({ ...template, ed2k: 'AB'.repeat(16), size: 4242 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('file_locations')
      .values({ file_id: added.id, import_folder_id: folders[0]!.id, relative_path: 'Manual/Gamma.mkv', is_accessible: 1, mtime_ms: null })
      .execute();
    await request('POST', `File/${added.id}/Link`, { EpisodeIDs: [episodes.at(-1)!.id] });
    await expectConsistent();
    const manual = episodes.at(-1)!.series_id;
    expect(await seriesMatching({ Type: 'AnyContains', Left: { Type: 'FilePaths' }, Parameter: 'manual/' })).toEqual([manual]);
    // With the series' name as the needle (a Right selector): a path holding it, then one equal to it in upper case.
    const name = (await server.request({ method: 'GET', url: `/api/v3/Series/${manual}`, key: admin })).json().Name as string;
    const byName = (type: string) => seriesMatching({ Type: type, Left: { Type: 'FilePaths' }, Right: { Type: 'Name' } });
    expect([await byName('AnyContains'), await byName('AnyEquals')]).toEqual([[], []]);
    await db
      .updateTable('file_locations')
      .set({ relative_path: `Manual/${name}.mkv` })
      .where('file_id', '=', added.id)
      .execute();
    expect([await byName('AnyContains'), await byName('AnyEquals')]).toEqual([[manual], []]);
    await db.updateTable('file_locations').set({ relative_path: name.toUpperCase() }).where('file_id', '=', added.id).execute();
    expect([await byName('AnyContains'), await byName('AnyEquals')]).toEqual([[manual], [manual]]);
    await request('DELETE', `File/${added.id}/Link`);
    await request('DELETE', `File/${places[5]!.file_id}?removeFiles=false`);
    await expectConsistent();
    expect(await seriesMatching({ Type: 'AnyContains', Left: { Type: 'FilePaths' }, Parameter: 'manual/' })).toEqual([]);

    // Episodes: one hidden, an AniDB episode renumbered, an episode moved to another series.
    await request('POST', `Episode/${episodes[1]!.id}/SetHidden?value=true`);
    const anidbEpisode = await db
      .selectFrom('anidb_episodes')
      .select(['id', 'number'])
      .where('type', '=', 'Episode')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await db
      .updateTable('anidb_episodes')
      .set({ number: anidbEpisode.number + 50 })
      .where('id', '=', anidbEpisode.id)
      .execute();
    const otherSeries = episodes.find((e) => e.series_id !== episodes[4]!.series_id)!.series_id;
    await db.updateTable('episodes').set({ series_id: otherSeries }).where('id', '=', episodes[4]!.id).execute();
    await expectConsistent();

    // Import folders: a rename (names are read live) and a removal keeping the file records.
    const backupName = { Type: 'AnyEquals', Left: { Type: 'ImportFolderNames' }, Parameter: 'Backup' };
    const inBackup = await seriesMatching(backupName);
    expect(inBackup.length).toBeGreaterThan(0);
    // (The generated folders' paths do not exist, so the API would refuse to save them.)
    await db.updateTable('import_folders').set({ name: 'Spare' }).where('id', '=', folders[1]!.id).execute();
    expect(await seriesMatching(backupName)).toEqual([]);
    expect(await seriesMatching({ ...backupName, Parameter: 'spare' })).toEqual(inBackup);
    await request('DELETE', `ImportFolder/${folders[1]!.id}?removeRecords=false`);
    const removed = await expectConsistent();
    expect(removed.folders.every((r) => r.import_folder_id === folders[0]!.id)).toBe(true);
    expect(await seriesMatching({ ...backupName, Parameter: 'spare' })).toEqual([]);

    // A series deleted: its rows go.
    const gone = removed.figures[0]!.series_id;
    await request('DELETE', `Series/${gone}?deleteFiles=false`);
    const last = await expectConsistent();
    expect(last.figures.some((r) => r.series_id === gone)).toBe(false);
    expect(last.figures.some((r) => r.collecting_missing_count > 0)).toBe(true);
    const collecting = last.figures.filter((r) => r.collecting_missing_count > 0).map((r) => r.series_id);
    expect(await seriesMatching({ Type: 'HasMissingEpisodesCollecting' })).toEqual(collecting.sort((a, b) => a - b));
  });
});
