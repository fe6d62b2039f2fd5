import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../test/harness.js';
import { seriesTestServer } from '../series/test-support.js';
import { seedImportFolder } from '../../test/seed-files.js';
import { seedTmdbMovies } from '../../test/seed-tmdb.js';
import { insertSeries } from '../groups/synthetic.store.js';

type FilePage = { Total: number; List: Array<{ ID: number; Locations: Array<{ RelativePath: string }> }> };

/**
 * A user's tag restrictions in the file lists and the AniDB search (files.md §0.7, issue 44). Invented series: Alpha
 * (two files) and Omega (one file) for everyone, Mizuyoru (two files, tag 99) hidden from the viewer; all five files in
 * one import folder, Mizuyoru's sorting between the others'. The admin, without restrictions, sees every file.
 */
describe('file lists for a user with tag restrictions', () => {
  let server: TestServer;
  let key: string;
  let viewerKey: string;
  let folderId: number;
  let hiddenSeriesId: number;
  let hiddenEpisodeId: number;

  const get = (url: string, apiKey: string) => server.request({ method: 'GET', url, key: apiKey });
  const page = async (url: string, apiKey: string) => {
    const res = await get(url, apiKey);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json() as FilePage;
  };
  const paths = (result: FilePage) => result.List.map((file) => file.Locations[0]?.RelativePath);
  const titles = async (url: string, apiKey: string) => {
    const res = await get(url, apiKey);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return (res.json() as { List: Array<{ Title: string }> }).List.map((hit) => hit.Title);
  };

  beforeAll(async () => {
    ({
      server,
      key,
      viewer: { key: viewerKey },
    } = await seriesTestServer([99]));
    const db = server.services.db.kysely;
    const written = await insertSeries(db, [
      {
        animeId: 1,
        title: 'Alpha',
        tags: [{ id: 98, name: 'everyday' }],
        episodes: [
          { id: 11, file: true },
          { id: 12, file: true },
        ],
      },
      {
        animeId: 2,
        title: 'Mizuyoru',
        tags: [{ id: 99, name: 'hidden theme' }],
        episodes: [{ id: 21, file: true }, { id: 22, file: true }, { id: 23 }],
      },
      { animeId: 3, title: 'Omega', episodes: [{ id: 31, file: true }] },
    ]);
    hiddenSeriesId = written.get(2)!.seriesId;
    hiddenEpisodeId = written.get(2)!.episodeIds[0];
    folderId = await seedImportFolder(server, 'Anime');
    // insertSeries gives episode n's file the size 100,000,000 + n.
    const pathOf: Record<number, string> = { 11: 'Alpha/Alpha 01.mkv', 12: 'Alpha/Alpha 02.mkv', 21: 'Mizuyoru/Mizuyoru 01.mkv' };
    Object.assign(pathOf, { 22: 'Mizuyoru/Mizuyoru 02.mkv', 31: 'Omega/Omega 01.mkv' });
    const files = await db.selectFrom('files').select(['id', 'size']).execute();
    await db
      .insertInto('file_locations')
      .values(
        files.map((file) => ({
          file_id: file.id,
          import_folder_id: folderId,
          relative_path: pathOf[file.size - 100_000_000],
          is_accessible: 1,
          mtime_ms: null,
        })),
      )
      .execute();
    // A TMDB movie linked to an episode of Alpha and one of Mizuyoru.
    await seedTmdbMovies(server, [{ id: 7001, title: 'Two Rivers' }]);
    await server.services.tmdb.store.linkMovie(1, 11, 7001, 'User');
    await server.services.tmdb.store.linkMovie(2, 21, 7001, 'User');
  }, 60_000);

  afterAll(() => server?.close());

  const visible = ['Alpha/Alpha 01.mkv', 'Alpha/Alpha 02.mkv', 'Omega/Omega 01.mkv'];
  const all = ['Alpha/Alpha 01.mkv', 'Alpha/Alpha 02.mkv', 'Mizuyoru/Mizuyoru 01.mkv', 'Mizuyoru/Mizuyoru 02.mkv', 'Omega/Omega 01.mkv'];

  it('GET File in the default order (the maintained keys): pages and Total without the hidden files', async () => {
    expect(paths(await page('/api/v3/File?pageSize=100', key))).toEqual(all);
    const second = await page('/api/v3/File?pageSize=2&page=2', viewerKey);
    expect({ Total: second.Total, paths: paths(second) }).toEqual({ Total: 3, paths: ['Omega/Omega 01.mkv'] });
  });

  it('GET File in another order (the general query) and the whole list leave the hidden files out', async () => {
    const byName = await page('/api/v3/File?pageSize=100&sortOrder=-FileName', viewerKey);
    expect({ Total: byName.Total, paths: paths(byName) }).toEqual({ Total: 3, paths: [...visible].reverse() });
    expect((await page('/api/v3/File?pageSize=100&sortOrder=-FileName', key)).Total).toBe(5);
    expect(paths(await page('/api/v3/File?pageSize=0', viewerKey)).sort()).toEqual(visible);
  });

  it('GET File/Search finds no hidden file', async () => {
    expect(paths(await page('/api/v3/File/Search/mizuyoru', key))).toHaveLength(2);
    expect(await page('/api/v3/File/Search/mizuyoru', viewerKey)).toEqual({ Total: 0, List: [] });
  });

  it('GET ImportFolder/{id}/File leaves the hidden files out', async () => {
    expect((await page(`/api/v3/ImportFolder/${folderId}/File`, key)).Total).toBe(5);
    const listed = await page(`/api/v3/ImportFolder/${folderId}/File`, viewerKey);
    expect({ Total: listed.Total, paths: paths(listed).sort() }).toEqual({ Total: 3, paths: visible });
  });

  it('GET Series/{id}/File and Episode/{id}/File of a hidden series answer 403 (files.md T1, T2)', async () => {
    expect((await page(`/api/v3/Series/${hiddenSeriesId}/File`, key)).Total).toBe(2);
    const series = await get(`/api/v3/Series/${hiddenSeriesId}/File`, viewerKey);
    expect([series.statusCode, series.body]).toEqual([403, 'Accessing Series is not allowed for the current user']);
    expect((await page(`/api/v3/Episode/${hiddenEpisodeId}/File`, key)).Total).toBe(1);
    const episode = await get(`/api/v3/Episode/${hiddenEpisodeId}/File`, viewerKey);
    expect([episode.statusCode, episode.body]).toEqual([403, 'Accessing Episode is not allowed for the current user']);
  });

  it('GET Series/AniDB/Search (both forms, by title and by id) does not find a hidden anime', async () => {
    expect(await titles('/api/v3/Series/AniDB/Search/Mizuyoru', key)).toEqual(['Mizuyoru']);
    expect(await titles('/api/v3/Series/AniDB/Search/Mizuyoru', viewerKey)).toEqual([]);
    expect(await titles('/api/v3/Series/AniDB/Search?query=Mizuyoru', viewerKey)).toEqual([]);
    expect(await titles('/api/v3/Series/AniDB/Search?query=2', viewerKey)).toEqual([]);
    expect(await titles('/api/v3/Series/AniDB/Search?query=3', viewerKey)).toEqual(['Omega']);
    // A number past AniDB's 32-bit ids names nothing (PostgreSQL's integer column would overflow on it).
    expect(await titles('/api/v3/Series/AniDB/Search/99999999999999999999', key)).toEqual([]);
  });

  it('GET Series/AniDB/{id} and its episodes answer 403 for a hidden anime (collection.md S3)', async () => {
    expect((await get('/api/v3/Series/AniDB/2', key)).statusCode).toBe(200);
    const anime = await get('/api/v3/Series/AniDB/2', viewerKey);
    expect([anime.statusCode, anime.body]).toEqual([403, 'Accessing AnidbAnime is not allowed for the current user']);
    expect((await get('/api/v3/Series/AniDB/2/Episode', viewerKey)).statusCode).toBe(403);
  });

  it('GET Tmdb/Movie/{id}/AniDB/Anime and …/Shoko/File leave out a hidden anime and its files', async () => {
    const anime = async (apiKey: string) =>
      ((await get('/api/v3/Tmdb/Movie/7001/AniDB/Anime', apiKey)).json() as Array<{ ID: number }>).map((a) => a.ID);
    expect(await anime(key)).toEqual([1, 2]);
    expect(await anime(viewerKey)).toEqual([1]);
    expect((await page('/api/v3/Tmdb/Movie/7001/Shoko/File', key)).Total).toBe(2);
    expect(paths(await page('/api/v3/Tmdb/Movie/7001/Shoko/File', viewerKey))).toEqual(['Alpha/Alpha 01.mkv']);
  });

  it('GET Episode/WithNoFiles leaves out the episodes of hidden series', async () => {
    const ids = async (apiKey: string) => (await page('/api/v3/Episode/WithNoFiles?pageSize=0', apiKey)).List.map((episode) => episode.ID);
    expect(await ids(key)).toHaveLength(1);
    expect(await ids(viewerKey)).toEqual([]);
  });
  it('GET Filter/Expressions offers a restricted user only the tags of series it may see', async () => {
    const hasTag = async (apiKey: string) => {
      const res = await server.request({ method: 'GET', url: '/api/v3/Filter/Expressions', key: apiKey });
      expect(res.statusCode).toBe(200);
      return (res.json() as Array<{ Expression: string; PossibleParameters?: string[] }>).find((e) => e.Expression === 'HasTag')!;
    };
    expect((await hasTag(key)).PossibleParameters).toEqual(expect.arrayContaining(['everyday', 'hidden theme']));
    const offered = (await hasTag(viewerKey)).PossibleParameters ?? [];
    expect(offered).toContain('everyday');
    expect(offered).not.toContain('hidden theme');
  });
});
