import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileIdSet, ListResult, ReleaseEpisode, SeriesWithEpisodeCount } from '@shoko-ts/contract';
import { insertSeries } from '../groups/synthetic.store.js';
import { seriesTestServer } from '../series/test-support.js';
import type { TestServer } from '../../test/harness.js';
import { seedImportFolder } from '../../test/seed-files.js';

const RM = '/api/v3/ReleaseManagement';
const RESTRICTED_TAG = 99;

/**
 * Invented library:
 * - Alpha Academy (finished): episode 1 has two releases (Lantern, Harbour; the Harbour one is a variation), episode 2
 *   three releases of which none is a variation, episode 3 one file.
 * - Beta Chronicle: episode 1's only file is stored twice (two locations in a real import folder).
 * - Gamma Journey: episodes 1 and 3 from Harbour; 2 and 4 aired but missing (2 also "collecting", as Harbour released
 *   episode 3), 5 not aired yet, a missing special, and a hidden missing episode.
 * - Delta Tale (tag 99, hidden from the viewer): episode 1 has two releases, episode 2 is missing.
 */
describe('release management API', () => {
  let server: TestServer;
  let api: (method: string, url: string, body?: unknown, key?: string) => ReturnType<TestServer['request']>;
  let viewerKey: string;
  const series: Record<string, number> = {};
  const episodes: Record<string, number[]> = {};
  let folder: string;
  let duplicateFileId: number;
  let duplicateLocations: number[];
  let variationFileId: number;

  const get = async <T>(url: string, key?: string): Promise<T> => {
    const res = await api('GET', url, undefined, key);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as T;
  };
  const names = (page: ListResult<SeriesWithEpisodeCount>) => page.List.map((s) => [s.Name, s.EpisodeCount]);

  beforeAll(async () => {
    const setup = await seriesTestServer([RESTRICTED_TAG]);
    server = setup.server;
    api = setup.api;
    viewerKey = setup.viewer.key;
    const db = server.services.db.kysely;
    const written = await insertSeries(db, [
      {
        animeId: 1,
        title: 'Alpha Academy',
        airDate: '2020-01-01',
        endDate: '2020-03-01',
        episodes: [
          { id: 11, file: 2 },
          { id: 12, file: 3 },
          { id: 13, file: 1 },
        ],
      },
      { animeId: 2, title: 'Beta Chronicle', airDate: '2020-01-01', episodes: [{ id: 21, file: 1 }] },
      {
        animeId: 3,
        title: 'Gamma Journey',
        airDate: '2020-01-01',
        episodes: [
          { id: 31, number: 1, file: 1 },
          { id: 32, number: 2 },
          { id: 33, number: 3, file: 1 },
          { id: 34, number: 4 },
          { id: 35, number: 5, airDate: '2999-01-01' },
          { id: 36, number: 1, type: 'Special' },
          { id: 37, number: 6, hidden: true },
        ],
      },
      {
        animeId: 4,
        title: 'Delta Tale',
        airDate: '2020-01-01',
        tags: [{ id: RESTRICTED_TAG, name: 'restricted' }],
        episodes: [{ id: 41, file: 2 }, { id: 42 }],
      },
    ]);
    for (const [name, animeId] of [
      ['alpha', 1],
      ['beta', 2],
      ['gamma', 3],
      ['delta', 4],
    ] as const) {
      series[name] = written.get(animeId)!.seriesId;
      episodes[name] = written.get(animeId)!.episodeIds;
    }
    // Release groups: every first release is Lantern's, every further one Harbour's; Gamma is all Harbour.
    await db
      .insertInto('anidb_release_groups')
      .values([
        { id: 7001, name: 'Lantern Subs', short_name: 'Lantern', updated_at: new Date().toISOString() },
        { id: 7002, name: 'Harbour Subs', short_name: 'Harbour', updated_at: new Date().toISOString() },
      ])
      .execute();
    await db.updateTable('file_episode_links').set({ release_group_id: 7001 }).execute();
    await db
      .updateTable('file_episode_links')
      .set({ release_group_id: 7002 })
      .where((eb) => eb.or([eb('size', '>=', 110_000_000), eb('anime_id', '=', 3)]))
      .execute();
    await db.updateTable('anidb_files').set({ group_id: 7001 }).execute();
    await db
      .updateTable('anidb_files')
      .set({ group_id: 7002 })
      .where((eb) => eb.or([eb('size', '>=', 110_000_000), eb('anime_id', '=', 3)]))
      .execute();
    const variation = await db.selectFrom('files').select('id').where('size', '=', 110_000_011).executeTakeFirstOrThrow();
    variationFileId = variation.id;
    await db.updateTable('files').set({ is_variation: 1 }).where('id', '=', variationFileId).execute();

    // Beta's file, present twice on disk.
    folder = fs.mkdtempSync(path.join(server.home, 'library-'));
    fs.mkdirSync(path.join(folder, 'Beta'));
    fs.mkdirSync(path.join(folder, 'Backup'));
    fs.writeFileSync(path.join(folder, 'Beta', 'Beta - 01.mkv'), 'copy one');
    fs.writeFileSync(path.join(folder, 'Backup', 'Beta 01 (copy).mkv'), 'copy two');
    const importFolderId = await seedImportFolder(server, 'Library', folder);
    duplicateFileId = (await db.selectFrom('files').select('id').where('size', '=', 100_000_021).executeTakeFirstOrThrow()).id;
    const locations = await db
      .insertInto('file_locations')
      .values([
        {
          file_id: duplicateFileId,
          import_folder_id: importFolderId,
          relative_path: path.join('Beta', 'Beta - 01.mkv'),
          is_accessible: 1,
          mtime_ms: 0,
        },
        {
          file_id: duplicateFileId,
          import_folder_id: importFolderId,
          relative_path: path.join('Backup', 'Beta 01 (copy).mkv'),
          is_accessible: 1,
          mtime_ms: 0,
        },
      ])
      .returning('id')
      .execute();
    duplicateLocations = locations.map((l) => l.id);
  });

  afterAll(() => server?.close());

  it('needs an API key on every route', async () => {
    const urls = [
      `${RM}/MultipleReleases/Series`,
      `${RM}/MultipleReleases/Episodes`,
      `${RM}/MultipleReleases/Series/1/Episodes`,
      `${RM}/MultipleReleases/FilesToDelete`,
      `${RM}/MultipleReleases/Series/1/FilesToDelete`,
      `${RM}/DuplicateFiles/Series`,
      `${RM}/DuplicateFiles/Episodes`,
      `${RM}/DuplicateFiles/Series/1/Episodes`,
      `${RM}/DuplicateFiles/FileLocationsToAutoRemove`,
      `${RM}/DuplicateFiles/Series/1/FileLocationsToAutoRemove`,
      `${RM}/MissingEpisodes/Series`,
      `${RM}/MissingEpisodes/Episodes`,
      `${RM}/MissingEpisodes/Series/1/Episodes`,
      `${RM}/Series`,
      `${RM}/Series/1`,
      `${RM}/Episodes`,
      `${RM}/Series/1/Episode/FilesToDelete`,
      `${RM}/Episode/FilesToDelete`,
    ];
    for (const url of urls) expect((await server.request({ method: 'GET', url })).statusCode, url).toBe(401);
  });

  it('lists series with multiple releases, not counting variations unless asked', async () => {
    const page = await get<ListResult<SeriesWithEpisodeCount>>(`${RM}/MultipleReleases/Series`);
    expect(page.Total).toBe(2);
    expect(names(page)).toEqual([
      ['Alpha Academy', 1],
      ['Delta Tale', 1],
    ]);
    expect(page.List[0].IDs.ID).toBe(series.alpha);
    expect(page.List[0].AniDB).toBeUndefined();
    const withVariations = await get<ListResult<SeriesWithEpisodeCount>>(
      `${RM}/MultipleReleases/Series?ignoreVariations=false&includeDataFrom=AniDB,Bogus`,
    );
    expect(names(withVariations)).toEqual([
      ['Alpha Academy', 2],
      ['Delta Tale', 1],
    ]);
    expect(withVariations.List[0].AniDB?.ID).toBe(1);
    // The legacy route is the same list.
    expect(names(await get(`${RM}/Series?ignoreVariations=false`))).toEqual(names(withVariations));
  });

  it('hides series with restricted tags from the viewer, also per series', async () => {
    expect(names(await get(`${RM}/MultipleReleases/Series`, viewerKey))).toEqual([['Alpha Academy', 1]]);
    expect(names(await get(`${RM}/MissingEpisodes/Series`, viewerKey))).toEqual([['Gamma Journey', 2]]);
    expect(await get(`${RM}/MultipleReleases/Series/${series.delta}/Episodes`, viewerKey)).toEqual({ Total: 0, List: [] });
    expect(await get(`${RM}/MultipleReleases/Series/${series.delta}/FilesToDelete`, viewerKey)).toEqual([]);
    const all = await get<ListResult<ReleaseEpisode>>(`${RM}/MultipleReleases/Episodes?pageSize=0`, viewerKey);
    expect(all.List.map((e) => e.IDs.ParentSeries)).toEqual([series.alpha]);
  });

  it('keeps only finished series when asked', async () => {
    expect(names(await get(`${RM}/MultipleReleases/Series?onlyFinishedSeries=true`))).toEqual([['Alpha Academy', 1]]);
    expect((await get<ListResult<SeriesWithEpisodeCount>>(`${RM}/MissingEpisodes/Series?onlyFinishedSeries=true`)).Total).toBe(0);
  });

  it('pages series lists in the database', async () => {
    const second = await get<ListResult<SeriesWithEpisodeCount>>(`${RM}/MultipleReleases/Series?pageSize=1&page=2`);
    expect(second.Total).toBe(2);
    expect(names(second)).toEqual([['Delta Tale', 1]]);
    const past = await get<ListResult<SeriesWithEpisodeCount>>(`${RM}/MultipleReleases/Series?pageSize=1&page=9`);
    expect(past.List).toEqual([]);
    // A page past the end still reports the total.
    expect(past.Total).toBe(2);
  });

  it('lists the episodes of a series with all their files, variations included', async () => {
    const url = `${RM}/MultipleReleases/Series/${series.alpha}/Episodes?ignoreVariations=false&collecting=false&includeDataFrom=AniDB&includeAbsolutePaths=true&pageSize=50&page=1`;
    const page = await get<ListResult<ReleaseEpisode>>(url);
    expect(page.Total).toBe(2);
    expect(page.List.map((e) => e.IDs.ID)).toEqual([episodes.alpha[0], episodes.alpha[1]]);
    const [first, second] = page.List;
    expect(first.AniDB).toMatchObject({ ID: 11, Type: 'Episode', EpisodeNumber: 1 });
    expect(first.Files!.map((f) => [f.Size, f.IsVariation])).toEqual([
      [100_000_011, false],
      [110_000_011, true],
    ]);
    expect(first.Files!.map((f) => (f.AniDB as { ReleaseGroup: { ShortName: string } }).ReleaseGroup.ShortName)).toEqual([
      'Lantern',
      'Harbour',
    ]);
    expect(first.Files![0].SeriesIDs).toBeUndefined();
    expect(second.Files).toHaveLength(3);
    // Ignoring variations leaves episode 1 out, but its files are still all listed where it appears.
    const ignoring = await get<ListResult<ReleaseEpisode>>(`${RM}/MultipleReleases/Series/${series.alpha}/Episodes`);
    expect(ignoring.List.map((e) => e.AniDB)).toEqual([undefined]);
    expect(ignoring.List.map((e) => e.IDs.ID)).toEqual([episodes.alpha[1]]);
    // Without files, and with cross references.
    const bare = await get<ListResult<ReleaseEpisode>>(
      `${RM}/MultipleReleases/Series/${series.alpha}/Episodes?includeFiles=false&includeXRefs=true`,
    );
    expect(bare.List[0].Files).toBeUndefined();
    expect(bare.List[0].CrossReferences).toHaveLength(3);
    expect(bare.List[0].CrossReferences![0]).toMatchObject({ AniDB: 12, Source: 'AniDB' });
    // The legacy route, and an unknown series.
    expect((await get<ListResult<ReleaseEpisode>>(`${RM}/Series/${series.alpha}?ignoreVariations=false`)).Total).toBe(2);
    expect(await get(`${RM}/MultipleReleases/Series/999999/Episodes`)).toEqual({ Total: 0, List: [] });
  });

  it('lists every multiple-release episode across series in AniDB order', async () => {
    const page = await get<ListResult<ReleaseEpisode>>(`${RM}/MultipleReleases/Episodes?ignoreVariations=false&pageSize=2&page=1`);
    expect(page.Total).toBe(3);
    expect(page.List.map((e) => e.IDs.ID)).toEqual([episodes.alpha[0], episodes.alpha[1]]);
    const next = await get<ListResult<ReleaseEpisode>>(`${RM}/MultipleReleases/Episodes?ignoreVariations=false&pageSize=2&page=2`);
    expect(next.List.map((e) => e.IDs.ID)).toEqual([episodes.delta[0]]);
    expect(next.Total).toBe(3);
    expect((await get<ListResult<ReleaseEpisode>>(`${RM}/MultipleReleases/Episodes?ignoreVariations=false&pageSize=2&page=5`)).Total).toBe(
      3,
    );
    expect((await get<ListResult<ReleaseEpisode>>(`${RM}/Episodes?ignoreVariations=false&pageSize=0`)).List).toHaveLength(3);
  });

  it('suggests nothing to delete for files that cannot be ranked', async () => {
    // The seeded files have no media info; with the default settings such files are always kept.
    expect(await get<number[]>(`${RM}/MultipleReleases/FilesToDelete`)).toEqual([]);
    expect(await get<number[]>(`${RM}/Episode/FilesToDelete`)).toEqual([]);
  });

  it('suggests all but the best release once files can be ranked', async () => {
    const db = server.services.db.kysely;
    const media = (resolution: string) =>
      JSON.stringify({ Video: [{ Resolution: resolution }], Audio: [{}], Subtitles: [{}], Chapters: [] });
    const alphaTwo = await db
      .selectFrom('files')
      .select(['id', 'size'])
      .where('size', 'in', [100_000_012, 110_000_012, 120_000_012])
      .orderBy('size')
      .execute();
    for (const [index, file] of alphaTwo.entries())
      await db
        .updateTable('files')
        .set({ media_info: media(['720p', '1080p', '480p'][index]) })
        .where('id', '=', file.id)
        .execute();
    try {
      // Source is equal (www) for all; resolution decides: the 1080p one stays.
      expect(await get<number[]>(`${RM}/MultipleReleases/Series/${series.alpha}/FilesToDelete`)).toEqual([alphaTwo[0].id, alphaTwo[2].id]);
      expect(await get<number[]>(`${RM}/Series/${series.alpha}/Episode/FilesToDelete`)).toEqual([alphaTwo[0].id, alphaTwo[2].id]);
    } finally {
      await db
        .updateTable('files')
        .set({ media_info: null })
        .where(
          'id',
          'in',
          alphaTwo.map((f) => f.id),
        )
        .execute();
    }
  });

  it('lists duplicate files with their locations and suggests the extra copies', async () => {
    expect(names(await get(`${RM}/DuplicateFiles/Series`))).toEqual([['Beta Chronicle', 1]]);
    const page = await get<ListResult<ReleaseEpisode>>(
      `${RM}/DuplicateFiles/Series/${series.beta}/Episodes?includeDataFrom=AniDB&pageSize=50&page=1`,
    );
    expect(page.Total).toBe(1);
    const [episode] = page.List;
    expect(episode.Size).toBe(1);
    expect(episode.Files!.map((f) => f.ID)).toEqual([duplicateFileId]);
    expect(episode.Files![0].Locations.map((l) => l.AbsolutePath)).toEqual([
      path.join(folder, 'Beta', 'Beta - 01.mkv'),
      path.join(folder, 'Backup', 'Beta 01 (copy).mkv'),
    ]);
    expect((await get<ListResult<ReleaseEpisode>>(`${RM}/DuplicateFiles/Episodes`)).Total).toBe(1);
    const expected: FileIdSet[] = [
      {
        FileID: duplicateFileId,
        AnimeSeriesIDs: [series.beta],
        AnimeEpisodeIDs: [episodes.beta[0]],
        FileLocationIDs: [duplicateLocations[1]],
      },
    ];
    expect(await get(`${RM}/DuplicateFiles/FileLocationsToAutoRemove`)).toEqual(expected);
    expect(await get(`${RM}/DuplicateFiles/Series/${series.beta}/FileLocationsToAutoRemove`)).toEqual(expected);
    expect(await get(`${RM}/DuplicateFiles/Series/${series.alpha}/FileLocationsToAutoRemove`)).toEqual([]);
  });

  it('lists aired, unhidden, normal episodes without files as missing, and the collecting ones', async () => {
    expect(names(await get(`${RM}/MissingEpisodes/Series`))).toEqual([
      ['Delta Tale', 1],
      ['Gamma Journey', 2],
    ]);
    expect(names(await get(`${RM}/MissingEpisodes/Series?collecting=true`))).toEqual([['Gamma Journey', 1]]);
    const page = await get<ListResult<ReleaseEpisode>>(`${RM}/MissingEpisodes/Series/${series.gamma}/Episodes?includeDataFrom=AniDB`);
    expect(page.List.map((e) => e.AniDB!.EpisodeNumber)).toEqual([2, 4]);
    expect(page.List[0].Files).toEqual([]);
    const collecting = await get<ListResult<ReleaseEpisode>>(`${RM}/MissingEpisodes/Series/${series.gamma}/Episodes?collecting=true`);
    expect(collecting.List.map((e) => e.IDs.ID)).toEqual([episodes.gamma[1]]);
    const all = await get<ListResult<ReleaseEpisode>>(`${RM}/MissingEpisodes/Episodes?pageSize=0`);
    expect(all.List.map((e) => e.IDs.ID)).toEqual([episodes.delta[1], episodes.gamma[1], episodes.gamma[3]]);
  });

  it('stops listing a hidden missing episode', async () => {
    const id = episodes.gamma[3];
    expect((await api('POST', `/api/v3/Episode/${id}/SetHidden?value=true&updateStats=true`)).statusCode).toBe(200);
    try {
      expect(names(await get(`${RM}/MissingEpisodes/Series`))).toEqual([
        ['Delta Tale', 1],
        ['Gamma Journey', 1],
      ]);
    } finally {
      await api('POST', `/api/v3/Episode/${id}/SetHidden?value=false`);
    }
  });

  it('rejects bad paging and ids', async () => {
    for (const url of [
      `${RM}/MultipleReleases/Series?pageSize=1001`,
      `${RM}/DuplicateFiles/Series?page=0`,
      `${RM}/MissingEpisodes/Series/0/Episodes`,
      `${RM}/MultipleReleases/Series?ignoreVariations=maybe`,
    ]) {
      const res = await api('GET', url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toHaveProperty('errors');
    }
  });

  it('resolves a duplicate through the files API: one copy leaves the disk, the other stays', async () => {
    expect((await api('DELETE', `/api/v3/File/Location/${duplicateLocations[1]}?deleteFile=true&deleteFolder=true`)).statusCode).toBe(200);
    expect(fs.existsSync(path.join(folder, 'Backup', 'Beta 01 (copy).mkv'))).toBe(false);
    expect(fs.existsSync(path.join(folder, 'Beta', 'Beta - 01.mkv'))).toBe(true);
    expect(await get(`${RM}/DuplicateFiles/Series`)).toEqual({ Total: 0, List: [] });
    const file = await get<{ Locations: unknown[] }>(`/api/v3/File/${duplicateFileId}`);
    expect(file.Locations).toHaveLength(1);
  });
});
