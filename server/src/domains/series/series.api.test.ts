import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../test/harness.js';
import { seriesTestServer } from './test-support.js';
import { insertSeries } from '../groups/synthetic.store.js';
import { seedImportFolder } from '../../test/seed-files.js';

/**
 * Invented data: "Harbor Lights" (anime 101) with five normal episodes — 1001 (file, watched by the admin), 1002 (file),
 * 1003 (aired, no file = missing), 1004 (airs in 2999 = unaired), 1005 (file, hidden) — plus a special 1011 and a credits
 * episode 1021, both with files. "Secret Garden" (anime 102) carries tag 99, which is restricted for the viewer.
 */
describe('series page API', () => {
  let server: TestServer;
  let key: string;
  let viewerKey: string;
  let adminId = 0;
  let harbor = 0;
  let secret = 0;
  const ep: Record<number, number> = {};

  let api: Awaited<ReturnType<typeof seriesTestServer>>['api'];
  const listIds = async (query: string, apiKey = key) => {
    const res = await api('GET', `/api/v3/Series/${harbor}/Episode?${query}`, undefined, apiKey);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { Total: number; List: Array<{ IDs: { AniDB: number } }> };
    return { total: body.Total, ids: body.List.map((e) => e.IDs.AniDB) };
  };

  beforeAll(async () => {
    const setup = await seriesTestServer([99]);
    ({ server, key, api } = setup);
    const viewer = setup.viewer;
    viewerKey = viewer.key;
    const db = server.services.db.kysely;
    adminId = (await db.selectFrom('users').select('id').where('id', '<>', viewer.id).executeTakeFirstOrThrow()).id;
    const written = await insertSeries(db, [
      {
        animeId: 101,
        title: 'Harbor Lights',
        titles: [
          { type: 'main', language: 'x-jat', value: 'Minato no Akari' },
          { type: 'official', language: 'en', value: 'Harbor Lights' },
        ],
        airDate: '2020-01-05',
        endDate: '2020-03-29',
        rating: 812,
        tags: [{ id: 10, name: 'action' }],
        episodes: [
          { id: 1001, file: true, watchedBy: [adminId] },
          { id: 1002, file: true },
          { id: 1003 },
          { id: 1004, airDate: '2999-01-01' },
          { id: 1005, file: true, hidden: true },
          { id: 1011, type: 'Special', number: 1, file: true },
          { id: 1021, type: 'Credits', number: 1, file: true },
        ],
      },
      {
        animeId: 102,
        title: 'Secret Garden',
        airDate: '2021-04-01',
        tags: [{ id: 99, name: 'ecchi' }],
        episodes: [{ id: 2001, file: true }],
      },
    ]);
    harbor = written.get(101)!.seriesId;
    secret = written.get(102)!.seriesId;
    const episodes = await db.selectFrom('episodes').select(['id', 'anidb_episode_id']).execute();
    for (const row of episodes) ep[row.anidb_episode_id] = row.id;
  });

  afterAll(async () => {
    await server?.close();
  });

  describe('GET Series/{id}', () => {
    it('returns the series with AniDB and TMDB sub-objects only when asked', async () => {
      const plain = await api('GET', `/api/v3/Series/${harbor}`);
      expect(plain.statusCode, plain.body).toBe(200);
      const series = plain.json();
      expect(series.IDs).toMatchObject({ ID: harbor, AniDB: 101 });
      expect(series.Name).toBe('Harbor Lights');
      expect(series).not.toHaveProperty('AniDB');
      expect(series).not.toHaveProperty('TMDB');
      expect(series.Sizes.Local).toMatchObject({ Episodes: 2, Specials: 1, Credits: 1 });
      expect(series.Sizes.Watched.Episodes).toBe(1);
      expect(series.Sizes.Missing).toEqual({ Episodes: 1, Specials: 0 });
      expect(series.Sizes.Hidden).toBe(1);

      const full = (await api('GET', `/api/v3/Series/${harbor}?includeDataFrom=AniDB&includeDataFrom=TMDB`)).json();
      expect(full.AniDB).toMatchObject({ ID: 101, ShokoID: harbor, Rating: { Value: 812, MaxValue: 1000, Source: 'AniDB' } });
      expect(full.AniDB.Titles.map((t: { Name: string }) => t.Name)).toContain('Minato no Akari');
      expect(full.TMDB).toEqual({ Movies: [], Shows: [] });
    });

    it('answers 404 for unknown series, 403 for series hidden by a restricted tag and 401 without a key', async () => {
      const missing = await api('GET', '/api/v3/Series/99999');
      expect(missing.statusCode).toBe(404);
      expect(missing.body).toBe('No Series entry for the given seriesID');
      const forbidden = await api('GET', `/api/v3/Series/${secret}`, undefined, viewerKey);
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.body).toBe('Accessing Series is not allowed for the current user');
      expect((await api('GET', `/api/v3/Series/${secret}`)).statusCode).toBe(200);
      expect((await server.request({ method: 'GET', url: `/api/v3/Series/${harbor}` })).statusCode).toBe(401);
      expect((await api('GET', `/api/v3/Series/${secret}/Episode`, undefined, viewerKey)).statusCode).toBe(403);
    });
  });

  describe('GET Series/{id}/Episode', () => {
    it('lists only episodes with files by default, ordered Episode, Credits, Special', async () => {
      expect(await listIds('')).toEqual({ total: 4, ids: [1001, 1002, 1021, 1011] });
    });

    it('applies the type filter (names, numbers and comma lists)', async () => {
      expect((await listIds('type=Episode')).ids).toEqual([1001, 1002]);
      expect((await listIds('type=Special&type=Credits')).ids).toEqual([1021, 1011]);
      expect((await listIds('type=3,5')).ids).toEqual([1021, 1011]);
      expect((await listIds('type=')).ids).toEqual([1001, 1002, 1021, 1011]);
    });

    it('applies the missing, unaired, hidden and watched filters (true/false/only)', async () => {
      expect((await listIds('includeMissing=only')).ids).toEqual([1003]);
      expect((await listIds('includeUnaired=only')).ids).toEqual([1004]);
      expect((await listIds('includeHidden=only')).ids).toEqual([1005]);
      expect((await listIds('includeWatched=only')).ids).toEqual([1001]);
      expect((await listIds('includeWatched=false')).ids).toEqual([1002, 1021, 1011]);
      expect(await listIds('includeMissing=true&includeUnaired=true&includeHidden=true&type=Episode')).toEqual({
        total: 5,
        ids: [1001, 1002, 1003, 1004, 1005],
      });
    });

    it('keeps the watch state per user', async () => {
      expect((await listIds('includeWatched=only', viewerKey)).ids).toEqual([]);
      expect((await listIds('includeWatched=false', viewerKey)).ids).toEqual([1001, 1002, 1021, 1011]);
    });

    it('pages and searches', async () => {
      expect(await listIds('pageSize=2&page=2')).toEqual({ total: 4, ids: [1021, 1011] });
      expect(await listIds('pageSize=0')).toEqual({ total: 4, ids: [1001, 1002, 1021, 1011] });
      expect((await listIds('search=episode 2&type=Episode')).ids).toEqual([1002]);
      expect((await listIds('search=nothing like this')).ids).toEqual([]);
    });

    it('adds AniDB episode data with includeDataFrom=AniDB', async () => {
      const res = await api('GET', `/api/v3/Series/${harbor}/Episode?pageSize=1&includeDataFrom=AniDB`);
      const [first] = res.json().List;
      expect(first).toMatchObject({
        Name: 'Episode 1',
        Size: 1,
        IsHidden: false,
        WatchCount: 1,
        Duration: '00:24:00',
        IDs: { ParentSeries: harbor },
      });
      expect(first.Watched).not.toBeNull();
      expect(first.AniDB).toMatchObject({ ID: 1001, AnimeID: 101, Type: 'Episode', EpisodeNumber: 1, AirDate: '2020-01-05' });
      const plain = (await api('GET', `/api/v3/Series/${harbor}/Episode?pageSize=1`)).json().List[0];
      expect(plain).not.toHaveProperty('AniDB');
    });

    it("filters by manual links and adds each episode's files with includeFiles", async () => {
      const db = server.services.db.kysely;
      await db.updateTable('file_episode_links').set({ source: 'User' }).where('episode_id', '=', 1002).execute();
      try {
        expect((await listIds('includeManuallyLinked=only')).ids).toEqual([1002]);
        expect((await listIds('includeManuallyLinked=false')).ids).toEqual([1001, 1021, 1011]);
        expect((await listIds('includeManuallyLinked=true')).total).toBe(4);
      } finally {
        await db.updateTable('file_episode_links').set({ source: 'AniDB' }).where('episode_id', '=', 1002).execute();
      }
      const [first] = (await api('GET', `/api/v3/Series/${harbor}/Episode?pageSize=1&includeFiles=true&includeXRefs=true`)).json().List;
      expect(first.Files).toHaveLength(1);
      expect(first.Files[0]).toMatchObject({ Size: expect.any(Number), Hashes: { ED2K: expect.any(String) } });
      expect(first.Files[0].SeriesIDs[0].EpisodeIDs.map((e: { AniDB: number }) => e.AniDB)).toEqual([1001]);
      expect((await api('GET', `/api/v3/Series/${harbor}/Episode?pageSize=1`)).json().List[0]).not.toHaveProperty('Files');
    });

    it('rejects invalid filters with a problem body naming the field', async () => {
      const badFilter = await api('GET', `/api/v3/Series/${harbor}/Episode?includeMissing=maybe`);
      expect(badFilter.statusCode).toBe(400);
      expect(badFilter.json().errors).toHaveProperty('includeMissing');
      const badType = await api('GET', `/api/v3/Series/${harbor}/Episode?type=Movie`);
      expect(badType.statusCode).toBe(400);
      expect(badType.json().errors).toHaveProperty('type');
      expect((await api('GET', `/api/v3/Series/${harbor}/Episode?pageSize=1001`)).statusCode).toBe(400);
      expect((await api('GET', '/api/v3/Series/99999/Episode')).statusCode).toBe(404);
    });
  });

  describe('GET Episode/{id}', () => {
    it('returns one episode, 404 for unknown ids and 403 for restricted series', async () => {
      const res = await api('GET', `/api/v3/Episode/${ep[1002]}?includeDataFrom=AniDB`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        IDs: { ID: ep[1002], AniDB: 1002, ParentSeries: harbor },
        Name: 'Episode 2',
        Watched: null,
        AniDB: { EpisodeNumber: 2 },
      });
      const missing = await api('GET', '/api/v3/Episode/99999');
      expect(missing.statusCode).toBe(404);
      expect(missing.body).toBe('No Episode entry for the given episodeID');
      const forbidden = await api('GET', `/api/v3/Episode/${ep[2001]}`, undefined, viewerKey);
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.body).toBe('Accessing Episode is not allowed for the current user');
    });
  });

  describe('watched state', () => {
    it('marks one episode watched and unwatched for the calling user only', async () => {
      expect((await api('POST', `/api/v3/Episode/${ep[1002]}/Watched/true`, undefined, viewerKey)).statusCode).toBe(200);
      const mine = (await api('GET', `/api/v3/Episode/${ep[1002]}`, undefined, viewerKey)).json();
      expect(mine.Watched).not.toBeNull();
      expect(mine.WatchCount).toBe(1);
      expect((await api('GET', `/api/v3/Episode/${ep[1002]}`)).json().Watched).toBeNull();
      expect((await api('POST', `/api/v3/Episode/${ep[1002]}/Watched/false`, undefined, viewerKey)).statusCode).toBe(200);
      expect((await api('GET', `/api/v3/Episode/${ep[1002]}`, undefined, viewerKey)).json().Watched).toBeNull();
      expect((await api('POST', `/api/v3/Episode/${ep[1002]}/Watched/maybe`)).statusCode).toBe(400);
    });

    it('marks the filtered episodes of a series and updates the user stats', async () => {
      const mark = await api('POST', `/api/v3/Series/${harbor}/Episode/Watched?value=true&type=Episode`, undefined, viewerKey);
      expect(mark.statusCode, mark.body).toBe(200);
      expect((await api('GET', `/api/v3/Series/${harbor}`, undefined, viewerKey)).json().Sizes.Watched).toMatchObject({
        Episodes: 2,
        Specials: 0,
      });
      expect((await api('GET', `/api/v3/Series/${harbor}`)).json().Sizes.Watched).toMatchObject({ Episodes: 1, Specials: 0 });
      expect((await listIds('includeWatched=only', viewerKey)).ids).toEqual([1001, 1002]);
      await api('POST', `/api/v3/Series/${harbor}/Episode/Watched?value=false`, undefined, viewerKey);
      expect((await api('GET', `/api/v3/Series/${harbor}`, undefined, viewerKey)).json().Sizes.Watched.Episodes).toBe(0);
      expect((await api('POST', `/api/v3/Series/${harbor}/Episode/Watched?includeHidden=nope`)).statusCode).toBe(400);
    });
  });

  describe('hidden episodes', () => {
    it('needs an admin and moves the episode between the hidden and visible lists', async () => {
      expect((await api('POST', `/api/v3/Episode/${ep[1002]}/SetHidden?value=true`, undefined, viewerKey)).statusCode).toBe(403);
      expect((await api('POST', `/api/v3/Episode/${ep[1002]}/SetHidden?value=true`)).statusCode).toBe(200);
      expect((await listIds('includeHidden=only')).ids).toEqual([1002, 1005]);
      expect((await api('GET', `/api/v3/Series/${harbor}`)).json().Sizes.Hidden).toBe(2);
      expect((await api('POST', `/api/v3/Episode/${ep[1002]}/SetHidden?value=false`)).statusCode).toBe(200);
      expect((await listIds('includeHidden=only')).ids).toEqual([1005]);
      expect((await api('POST', '/api/v3/Episode/99999/SetHidden')).statusCode).toBe(404);
    });
  });

  describe('POST Series/{id}/Vote', () => {
    it('stores a 0–10 vote per user, permanent for finished anime unless Temporary is asked, and revokes with -1', async () => {
      expect((await api('POST', `/api/v3/Series/${harbor}/Vote`, { Value: 8, MaxValue: 10 })).statusCode).toBe(204);
      expect((await api('GET', `/api/v3/Series/${harbor}`)).json().UserRating).toEqual({
        Value: 8,
        MaxValue: 10,
        Source: 'User',
        Votes: 1,
        Type: 'Permanent',
      });
      expect((await api('GET', `/api/v3/Series/${harbor}`, undefined, viewerKey)).json().UserRating).toBeNull();
      await api('POST', `/api/v3/Series/${harbor}/Vote`, { Value: 3, MaxValue: 5, Type: 'temporary' });
      expect((await api('GET', `/api/v3/Series/${harbor}`)).json().UserRating).toMatchObject({ Value: 6, Type: 'Temporary' });
      await api('POST', `/api/v3/Series/${harbor}/Vote`, { Value: -1 });
      expect((await api('GET', `/api/v3/Series/${harbor}`)).json().UserRating).toBeNull();
    });

    it('rejects values above MaxValue and below -1', async () => {
      const tooHigh = await api('POST', `/api/v3/Series/${harbor}/Vote`, { Value: 11, MaxValue: 10 });
      expect(tooHigh.statusCode).toBe(400);
      expect(tooHigh.json().errors).toHaveProperty('Value');
      expect((await api('POST', `/api/v3/Series/${harbor}/Vote`, { Value: -2 })).statusCode).toBe(400);
      expect((await api('POST', `/api/v3/Series/${secret}/Vote`, { Value: 5 }, viewerKey)).statusCode).toBe(403);
    });
  });

  describe('POST Episode/{id}/Vote', () => {
    it('stores the episode rating per user and the includeVoted filter follows it', async () => {
      expect((await api('POST', `/api/v3/Episode/${ep[1002]}/Vote`, { Value: 4, MaxValue: 5 })).statusCode).toBe(204);
      expect((await api('GET', `/api/v3/Episode/${ep[1002]}`)).json().UserRating).toEqual({
        Value: 8,
        MaxValue: 10,
        Source: 'User',
        Votes: 1,
        Type: 'Episode',
      });
      expect((await api('GET', `/api/v3/Episode/${ep[1002]}`, undefined, viewerKey)).json().UserRating).toBeNull();
      expect((await listIds('includeVoted=only')).ids).toEqual([1002]);
      expect((await listIds('includeVoted=false&type=Episode')).ids).toEqual([1001]);
      expect((await api('POST', `/api/v3/Episode/${ep[1002]}/Vote`, { Value: 6, MaxValue: 5 })).statusCode).toBe(400);
      expect((await api('POST', `/api/v3/Episode/${ep[1002]}/Vote`, { Value: -1 })).statusCode).toBe(204);
      expect((await api('GET', `/api/v3/Episode/${ep[1002]}`)).json().UserRating).toBeNull();
      expect((await api('POST', `/api/v3/Episode/${ep[2001]}/Vote`, { Value: 5 }, viewerKey)).statusCode).toBe(403);
    });
  });

  describe('GET WebUI/Series/{id}/FileSummary', () => {
    beforeAll(async () => {
      const db = server.services.db.kysely;
      const folder = await seedImportFolder(server, 'Anime', '/media/anime');
      const fileOf = async (anidbEpisode: number) =>
        (
          await db
            .selectFrom('files')
            .select('id')
            .where('size', '=', 100_000_000 + anidbEpisode)
            .executeTakeFirstOrThrow()
        ).id;
      for (const [episode, path] of [
        [1001, 'Harbor/Season 1/Harbor - 01.mkv'],
        [1002, 'Harbor/Season 1/Harbor - 02.mkv'],
        [1011, 'Harbor/Specials/Harbor - S01.mkv'],
      ] as const)
        await db
          .insertInto('file_locations')
          .values({ file_id: await fileOf(episode), import_folder_id: folder, relative_path: path, is_accessible: 1, mtime_ms: null })
          .execute();
    });

    it('groups located files by the requested criteria and lists aired episodes without files', async () => {
      const res = await api(
        'GET',
        `/api/v3/WebUI/Series/${harbor}/FileSummary?groupBy=GroupName,FileVersion,FileLocation,AudioLanguages,SubtitleLanguages,VideoResolution`,
      );
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.Groups).toEqual([
        {
          GroupName: 'Unknown',
          GroupNameShort: 'Unk',
          FileVersion: 1,
          FileLocation: 'Harbor/Season 1',
          AudioLanguages: ['japanese'],
          SubtitleLanguages: ['english'],
          RangeByType: { Episode: { Count: 2, Range: '01-02', FileSize: 200_000_000 + 1001 + 1002 } },
        },
        {
          GroupName: 'Unknown',
          GroupNameShort: 'Unk',
          FileVersion: 1,
          FileLocation: 'Harbor/Specials',
          AudioLanguages: ['japanese'],
          SubtitleLanguages: ['english'],
          RangeByType: { Special: { Count: 1, Range: '01', FileSize: 100_001_011 } },
        },
      ]);
      expect(body.Overview).toEqual({
        TotalFileSize: 300_000_000 + 1001 + 1002 + 1011,
        ReleaseGroups: ['Unknown'],
        SourcesByType: [
          { Type: 'Episode', Sources: [{ Type: 'Web', Count: 2 }] },
          { Type: 'Special', Sources: [{ Type: 'Web', Count: 1 }] },
        ],
      });
      expect(body.MissingEpisodes.map((e: { ID: number }) => e.ID)).toEqual([1003]);
      expect(body.MissingEpisodes[0]).toMatchObject({ AnimeID: 101, Type: 'Episode', EpisodeNumber: 3, Title: 'Episode 3' });
    });

    it('merges everything without groupBy and honours the type, detail and missing flags', async () => {
      const plain = (
        await api(
          'GET',
          `/api/v3/WebUI/Series/${harbor}/FileSummary?includeEpisodeDetails=true&includeLocationDetails=true&includeMissingFutureEpisodes=true`,
        )
      ).json();
      expect(plain.Groups).toHaveLength(1);
      expect(Object.keys(plain.Groups[0].RangeByType)).toEqual(['Episode', 'Special']);
      expect(plain.Groups[0].Episodes.map((e: { EpisodeID: number }) => e.EpisodeID).sort()).toEqual([1001, 1002, 1011]);
      expect(plain.Groups[0].Locations[0]).toMatchObject({ RelativePath: 'Harbor/Season 1/Harbor - 01.mkv', IsAccessible: true });
      expect(plain.MissingEpisodes.map((e: { ID: number }) => e.ID)).toEqual([1003, 1004]);
      const all = (await api('GET', `/api/v3/WebUI/Series/${harbor}/FileSummary?type=`)).json();
      expect(all.MissingEpisodes.map((e: { ID: number }) => e.ID)).toEqual([1003, 1021]);
      const specials = (await api('GET', `/api/v3/WebUI/Series/${harbor}/FileSummary?type=Special`)).json();
      expect(specials.MissingEpisodes).toEqual([]);
      expect(specials.Overview.TotalFileSize).toBe(100_001_011);
      const bad = await api('GET', `/api/v3/WebUI/Series/${harbor}/FileSummary?groupBy=Colour`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors).toHaveProperty('groupBy');
      expect((await api('GET', `/api/v3/WebUI/Series/${secret}/FileSummary`, undefined, viewerKey)).statusCode).toBe(403);
    });
  });
});
