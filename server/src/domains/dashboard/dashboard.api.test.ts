import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DASHBOARD_SUMMARY_WIDGETS,
  type AnidbAnimeRecommendedForYou,
  type DashboardCollectionStats,
  type DashboardEpisode,
  type DashboardSummary,
  type DashboardSummaryWidget,
  type Series,
  type Tag,
} from '@shoko-ts/contract';
import { completeFirstRun, createTestServer, createUser, type TestServer } from '../../test/harness.js';
import { seedAnidbAnime } from '../../test/seed-anidb.js';
import { seedFile } from '../../test/seed-files.js';
import { insertSeries } from '../groups/synthetic.store.js';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/**
 * An invented collection: Alpha Academy (A, TV: E1 watched, E2 in two releases, E3 missing, E4), Beta Chronicle
 * (B, a watched movie), Gamma Journey (G, tag 99 hidden from the viewer, E2 airs in two days), Delta Tale (D, no
 * files, E1 missing); anime 5 is known to AniDB only and airs tomorrow. Similar anime: A→D, B→D, A→B, A→5.
 */
describe('dashboard API', () => {
  let server: TestServer;
  let key: string;
  let viewerKey: string;
  const series: Record<string, number> = {};
  const api = async <T>(url: string, apiKey = key) => {
    const res = await server.request({ method: 'GET', url, key: apiKey });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as T;
  };

  beforeAll(async () => {
    server = await createTestServer();
    key = await completeFirstRun(server);
    const viewer = await createUser(server, key, 'viewer', 'viewer-pass');
    viewerKey = viewer.key;
    const db = server.services.db.kysely;
    const written = await insertSeries(db, [
      {
        animeId: 1,
        title: 'Alpha Academy',
        airDate: '2020-01-05',
        episodes: [{ id: 11, file: true, watchedBy: [1] }, { id: 12, file: 2 }, { id: 13 }, { id: 14, file: true }],
      },
      { animeId: 2, title: 'Beta Chronicle', type: 'Movie', airDate: '2015-07-10', episodes: [{ id: 21, file: true, watchedBy: [1] }] },
      {
        animeId: 3,
        title: 'Gamma Journey',
        airDate: '2024-01-01',
        tags: [{ id: 99, name: 'ecchi' }],
        episodes: [
          { id: 31, file: true },
          { id: 32, airDate: day(2) },
        ],
      },
      { animeId: 4, title: 'Delta Tale', airDate: '2019-04-01', episodes: [{ id: 41 }] },
    ]);
    for (const [letter, animeId] of [
      ['A', 1],
      ['B', 2],
      ['G', 3],
      ['D', 4],
    ] as const)
      series[letter] = written.get(animeId)!.seriesId;
    await db
      .updateTable('users')
      .set({ restricted_tags: JSON.stringify([99]) })
      .where('id', '=', viewer.id)
      .execute();
    // An anime without a series (only in AniDB's calendar and the recommendations).
    await seedAnidbAnime(server, {
      id: 5,
      type: 'TV Series',
      title: 'Epsilon Signal',
      airDate: day(1),
      episodes: [{ id: 51, number: 1, title: 'Pilot', airDate: day(1) }],
      series: false,
    });
    await db
      .insertInto('anidb_similar')
      .values([
        { anime_id: 1, similar_anime_id: 4, approval: 10, total: 20, title: 'Delta Tale' },
        { anime_id: 2, similar_anime_id: 4, approval: 5, total: 10, title: 'Delta Tale' },
        { anime_id: 1, similar_anime_id: 2, approval: 5, total: 10, title: 'Beta Chronicle' },
        { anime_id: 1, similar_anime_id: 5, approval: 2, total: 10, title: 'Epsilon Signal' },
      ])
      .execute();
    // Import order (oldest first): Alpha's files, Beta's, Gamma's.
    const files = await db.selectFrom('files').select(['id', 'size']).orderBy('id').execute();
    for (const file of files) {
      const episode = (file.size % 10_000_000) % 100;
      const stamp = new Date(Date.UTC(2025, 0, 1, 0, episode)).toISOString();
      await db.updateTable('files').set({ imported_at: stamp }).where('id', '=', file.id).execute();
    }
    // One unrecognized file, and Alpha E1's file in two places.
    const folder = await db
      .insertInto('import_folders')
      .values({ name: 'Anime', path: server.home, is_drop_source: 0, is_drop_destination: 0, watch_for_new_files: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const unknown = { id: await seedFile(server, { size: 5000, ed2k: 'F'.repeat(32) }) };
    const e1File = files.find((f) => f.size === 100_000_011)!;
    await db
      .insertInto('file_locations')
      .values([
        { file_id: unknown.id, import_folder_id: folder.id, relative_path: 'unknown.mkv', is_accessible: 1, mtime_ms: null },
        { file_id: e1File.id, import_folder_id: folder.id, relative_path: 'a/alpha 01.mkv', is_accessible: 1, mtime_ms: null },
        { file_id: e1File.id, import_folder_id: folder.id, relative_path: 'b/alpha 01.mkv', is_accessible: 1, mtime_ms: null },
      ])
      .execute();
  });

  afterAll(() => server?.close());

  it('rejects every dashboard route without an API key', async () => {
    for (const route of server.routes.filter((r) => r.url.startsWith('/api/v3/Dashboard') || r.url.endsWith('RecommendedForYou'))) {
      const res = await server.request({ method: route.method, url: route.url });
      expect(res.statusCode, route.url).toBe(401);
    }
  });

  it('computes the collection statistics with SQL aggregates', async () => {
    const stats = await api<DashboardCollectionStats>('/api/v3/Dashboard/Stats');
    expect(stats).toEqual({
      FileCount: 6,
      SeriesCount: 4,
      GroupCount: 4,
      FileSize: 610_000_101,
      FinishedSeries: 1,
      WatchedEpisodes: 2,
      WatchedHours: 0.8,
      PercentDuplicate: 33.33,
      MissingEpisodes: 2,
      MissingEpisodesCollecting: 1,
      UnrecognizedFiles: 1,
      SeriesWithMissingLinks: 4,
      EpisodesWithMultipleFiles: 1,
      FilesWithDuplicateLocations: 1,
    });
    const viewer = await api<DashboardCollectionStats>('/api/v3/Dashboard/Stats', viewerKey);
    expect(viewer).toMatchObject({ SeriesCount: 3, FileCount: 5, WatchedEpisodes: 0, FinishedSeries: 0 });
  });

  it('counts series by type', async () => {
    expect(await api('/api/v3/Dashboard/SeriesSummary')).toEqual({
      Series: 3,
      OVA: 0,
      Movie: 1,
      Special: 0,
      Web: 0,
      Other: 0,
      MusicVideo: 0,
      Unknown: 0,
      None: 0,
    });
    expect(await api('/api/v3/Dashboard/SeriesSummary', viewerKey)).toMatchObject({ Series: 2, Movie: 1 });
  });

  it('lists recently imported episodes newest first, one per file', async () => {
    const result = await api<{ Total: number; List: DashboardEpisode[] }>('/api/v3/Dashboard/RecentlyAddedEpisodes?pageSize=3');
    expect(result.Total).toBe(6);
    expect(result.List.map((e) => [e.SeriesTitle, e.IDs.ID])).toEqual([
      ['Gamma Journey', 31],
      ['Beta Chronicle', 21],
      ['Alpha Academy', 14],
    ]);
    const beta = result.List[1];
    expect(beta).toMatchObject({
      Title: 'Episode 1',
      Number: 1,
      Type: 'Normal',
      Duration: '00:24:00',
      IDs: { Series: 2, ShokoSeries: series.B },
    });
    expect(beta.Watched).not.toBeNull();
    expect(beta.SeriesPoster).toMatchObject({ Source: 'AniDB', Type: 'Poster', ID: 2 });
    const page2 = await api<{ List: DashboardEpisode[] }>('/api/v3/Dashboard/RecentlyAddedEpisodes?pageSize=3&page=2');
    expect(page2.List.map((e) => e.IDs.ID)).toEqual([12, 12, 11]);
    const viewer = await api<{ Total: number; List: DashboardEpisode[] }>('/api/v3/Dashboard/RecentlyAddedEpisodes', viewerKey);
    expect(viewer.Total).toBe(5);
    expect(viewer.List.some((e) => e.SeriesTitle === 'Gamma Journey')).toBe(false);
  });

  it('lists recently imported series by their newest file', async () => {
    const result = await api<{ Total: number; List: Series[] }>('/api/v3/Dashboard/RecentlyAddedSeries');
    expect(result.Total).toBe(3);
    expect(result.List.map((s) => s.Name)).toEqual(['Gamma Journey', 'Beta Chronicle', 'Alpha Academy']);
    // A short page still counts the whole answer; a page past the end too.
    const second = await api<{ Total: number; List: Series[] }>('/api/v3/Dashboard/RecentlyAddedSeries?pageSize=2&page=2');
    expect([second.Total, second.List.map((s) => s.Name)]).toEqual([3, ['Alpha Academy']]);
    expect(await api('/api/v3/Dashboard/RecentlyAddedSeries?pageSize=2&page=3')).toEqual({ Total: 3, List: [] });
    // Page size 0 is the whole list, as Shoko's ToListResult answers it.
    const whole = await api<{ Total: number; List: Series[] }>('/api/v3/Dashboard/RecentlyAddedSeries?pageSize=0&page=2');
    expect([whole.Total, whole.List.map((s) => s.Name)]).toEqual([3, ['Gamma Journey', 'Beta Chronicle', 'Alpha Academy']]);
    const episodes = await api<{ Total: number; List: DashboardEpisode[] }>('/api/v3/Dashboard/RecentlyAddedEpisodes?pageSize=0');
    expect([episodes.Total, episodes.List.length]).toEqual([6, 6]);
    // A restricted (18+) anime: left out by default, kept with includeRestricted=true, alone with only.
    const db = server.services.db.kysely;
    await db.updateTable('anidb_anime').set({ restricted: 1 }).where('id', '=', 2).execute();
    try {
      const names = async (query: string) =>
        (await api<{ List: Series[] }>(`/api/v3/Dashboard/RecentlyAddedSeries${query}`)).List.map((s) => s.Name);
      expect(await names('?includeRestricted=false')).toEqual(['Gamma Journey', 'Alpha Academy']);
      expect(await names('?includeRestricted=true')).toEqual(['Gamma Journey', 'Beta Chronicle', 'Alpha Academy']);
      expect(await names('?includeRestricted=only')).toEqual(['Beta Chronicle']);
    } finally {
      await db.updateTable('anidb_anime').set({ restricted: 0 }).where('id', '=', 2).execute();
    }
  });

  it('suggests the next unwatched episode per series in progress, never a first episode', async () => {
    const result = await api<{ Total: number; List: DashboardEpisode[] }>(
      '/api/v3/Dashboard/NextUpEpisodes?pageSize=20&onlyUnwatched=true',
    );
    expect(result.Total).toBe(1);
    expect(result.List[0]).toMatchObject({ SeriesTitle: 'Alpha Academy', Number: 2, IDs: { ID: 12, ShokoSeries: series.A } });
    expect(result.List[0].IDs.ShokoFile).toBeGreaterThan(0);
    expect((await api<{ Total: number }>('/api/v3/Dashboard/NextUpEpisodes', viewerKey)).Total).toBe(0);
    expect(await api('/api/v3/Dashboard/ContinueWatchingEpisodes?pageSize=20')).toEqual({ Total: 0, List: [] });
  });

  it('lists upcoming episodes of the collection, or of all known anime', async () => {
    const mine = await api<DashboardEpisode[]>('/api/v3/Dashboard/AniDBCalendar?showAll=false');
    expect(mine.map((e) => [e.SeriesTitle, e.AirDate])).toEqual([['Gamma Journey', day(2)]]);
    const all = await api<DashboardEpisode[]>('/api/v3/Dashboard/AniDBCalendar?showAll=true');
    expect(all.map((e) => e.IDs.ID)).toEqual([51, 32]);
    expect(all[0]).toMatchObject({ Title: 'Pilot', IDs: { ShokoSeries: null } });
    expect(await api('/api/v3/Dashboard/AniDBCalendar?showAll=false', viewerKey)).toEqual([]);
  });

  it('lists episodes airing in a date range, with or without anime outside the collection', async () => {
    const range = `startDate=${day(0)}&endDate=${day(3)}`;
    const ids = async (query: string, apiKey = key) =>
      (await api<DashboardEpisode[]>(`/api/v3/Dashboard/CalendarEpisodes?${query}`, apiKey)).map((e) => e.IDs.ID);
    expect(await ids(range)).toEqual([32]);
    expect(await ids(`${range}&includeMissing=true`)).toEqual([51, 32]);
    expect(await ids(`${range}&includeMissing=only`)).toEqual([51]);
    expect(await ids(range, viewerKey)).toEqual([]);
    const january = await api<DashboardEpisode[]>('/api/v3/Dashboard/CalendarEpisodes?startDate=2020-01-01&endDate=2020-01-31');
    expect(january.map((e) => [e.SeriesTitle, e.Number, e.AirDate])).toEqual([1, 2, 3, 4].map((n) => ['Alpha Academy', n, '2020-01-05']));
  });

  it('ranks the AniDB tags of the visible series by use, filtered by tag category', async () => {
    const db = server.services.db.kysely;
    const now = new Date().toISOString();
    const tag = (id: number, name: string, parent: number | null) => ({
      id,
      parent_id: parent,
      name,
      description: null,
      is_spoiler: 0,
      is_verified: 1,
      updated_at: now,
    });
    await db
      .insertInto('anidb_tags')
      .values([
        tag(900, 'genre', null),
        tag(901, 'comedy', 900),
        tag(902, 'school', 900),
        tag(910, 'maintenance tags', null),
        tag(911, 'cast missing', 910),
      ])
      .execute();
    const uses: Array<[number, number[]]> = [
      [901, [1, 2, 3]],
      [902, [1]],
      [911, [1, 2]],
    ];
    await db
      .insertInto('anidb_anime_tags')
      .values(
        uses.flatMap(([tagId, animeIds]) =>
          animeIds.map((animeId) => ({ anime_id: animeId, tag_id: tagId, weight: 300, is_local_spoiler: 0 })),
        ),
      )
      .execute();
    const top = async (query = '', apiKey = key) =>
      (await api<Tag[]>(`/api/v3/Dashboard/TopTags${query}`, apiKey)).map((t) => [t.Name, t.Weight]);

    // The default filter drops AniDB-internal, misc (ecchi has no category) and source tags.
    expect(await top()).toEqual([
      ['comedy', 3],
      ['school', 1],
    ]);
    expect(await top('?filter=0')).toEqual([
      ['comedy', 3],
      ['cast missing', 2],
      ['ecchi', 1],
      ['school', 1],
    ]);
    expect(await top('?filter=Genre')).toEqual([
      ['cast missing', 2],
      ['ecchi', 1],
    ]);
    expect(await top(`?filter=Genre,Invert`)).toEqual([
      ['comedy', 3],
      ['school', 1],
    ]);
    expect(await top('?filter=0&pageSize=1&page=2')).toEqual([['cast missing', 2]]);
    expect(await top('?filter=0&pageSize=0&page=2')).toHaveLength(4);
    // The viewer cannot see Gamma Journey (tag 99), so its tags count one series less.
    expect(await top('', viewerKey)).toEqual([
      ['comedy', 2],
      ['school', 1],
    ]);
    const [comedy] = await api<Tag[]>('/api/v3/Dashboard/TopTags');
    expect(comedy).toMatchObject({ ID: 901, ParentID: 900, Source: 'AniDB', IsSpoiler: false });
    expect(comedy).not.toHaveProperty('Description');
  });

  it('recommends unwatched similar anime, most often similar first', async () => {
    const result = await api<{ Total: number; List: AnidbAnimeRecommendedForYou[] }>('/api/v3/Series/AniDB/RecommendedForYou?pageSize=20');
    expect(result.List.map((r) => [r.Anime.Title, r.SimilarTo, r.Anime.ShokoID])).toEqual([['Delta Tale', 2, series.D]]);
    const all = await api<{ List: AnidbAnimeRecommendedForYou[] }>('/api/v3/Series/AniDB/RecommendedForYou?showAll=true');
    expect(all.List.map((r) => r.Anime.ID)).toEqual([4, 5]);
    const first = await api<{ Total: number; List: AnidbAnimeRecommendedForYou[] }>(
      '/api/v3/Series/AniDB/RecommendedForYou?showAll=true&pageSize=1',
    );
    expect([first.Total, first.List.map((r) => r.Anime.ID)]).toEqual([2, [4]]);
    const strict = await api<{ List: AnidbAnimeRecommendedForYou[] }>('/api/v3/Series/AniDB/RecommendedForYou?showAll=true&approval=0.5');
    expect(strict.List.map((r) => r.Anime.ID)).toEqual([4]);
    // Beta's only episode hidden: it was still watched, so Beta stays left out and still points to Delta.
    const db = server.services.db.kysely;
    await db.updateTable('episodes').set({ is_hidden: 1 }).where('series_id', '=', series.B).execute();
    try {
      const hidden = await api<{ List: AnidbAnimeRecommendedForYou[] }>('/api/v3/Series/AniDB/RecommendedForYou?showAll=true');
      expect(hidden.List.map((r) => [r.Anime.ID, r.SimilarTo])).toEqual([
        [4, 2],
        [5, 1],
      ]);
    } finally {
      await db.updateTable('episodes').set({ is_hidden: 0 }).where('series_id', '=', series.B).execute();
    }
  });

  it('validates the query with 400 problems naming the field', async () => {
    const cases: Array<[string, string]> = [
      ['/api/v3/Dashboard/RecentlyAddedEpisodes?includeRestricted=maybe', 'includeRestricted'],
      ['/api/v3/Dashboard/NextUpEpisodes?pageSize=101', 'pageSize'],
      ['/api/v3/Dashboard/RecentlyAddedSeries?pageSize=1001', 'pageSize'],
      ['/api/v3/Series/AniDB/RecommendedForYou?endDate=2020-01-01T00:00:00Z', 'startDate'],
      ['/api/v3/Dashboard/AniDBCalendar?numberOfDays=x', 'numberOfDays'],
      ['/api/v3/Dashboard/ContinueWatchingEpisodes?includeRestricted=sometimes', 'includeRestricted'],
      ['/api/v3/Dashboard/ContinueWatchingEpisodes?pageSize=101', 'pageSize'],
      ['/api/v3/Dashboard/ContinueWatchingEpisodes?includeSpecials=perhaps', 'includeSpecials'],
      ['/api/v3/Dashboard/TopTags?filter=Shiny', 'filter'],
      ['/api/v3/Dashboard/TopTags?pageSize=101', 'pageSize'],
      ['/api/v3/Dashboard/CalendarEpisodes?endDate=2020-01-31', 'startDate'],
      ['/api/v3/Dashboard/CalendarEpisodes?startDate=2020-13-01&endDate=2020-12-31', 'startDate'],
      ['/api/v3/Dashboard/CalendarEpisodes?startDate=2020-01-01&endDate=31.01.2020', 'endDate'],
      ['/api/v3/Dashboard/CalendarEpisodes?startDate=2020-02-01&endDate=2020-01-01', 'startDate'],
      ['/api/v3/Dashboard/CalendarEpisodes?startDate=2020-01-01&endDate=2020-01-02&includeMissing=yes', 'includeMissing'],
    ];
    for (const [url, field] of cases) {
      const res = await server.request({ method: 'GET', url, key });
      expect(res.statusCode, url).toBe(400);
      expect(JSON.stringify(res.json().errors ?? {}), url).toContain(field);
    }
  });

  it('continues the episodes players reported a resume position for, latest activity first', async () => {
    const db = server.services.db.kysely;
    const fileOf = async (size: number) =>
      (await db.selectFrom('files').select('id').where('size', '=', size).executeTakeFirstOrThrow()).id;
    const [alphaE4, alphaE2, betaE1] = [await fileOf(100_000_014), await fileOf(110_000_012), await fileOf(100_000_021)];
    await db
      .updateTable('files')
      .set({ media_info: JSON.stringify({ Duration: '00:23:40' }) })
      .where('id', '=', alphaE4)
      .execute();
    const scrobble = async (fileId: number, query: string) => {
      // Each report gets its own millisecond, so "latest activity" is well defined.
      await new Promise((resolve) => setTimeout(resolve, 2));
      const res = await server.request({ method: 'GET', url: `/api/v3/File/${fileId}/Scrobble?${query}`, key });
      expect(res.statusCode, res.body).toBe(202);
    };
    type Page = { Total: number; List: DashboardEpisode[] };
    const continueWatching = (apiKey = key) => api<Page>('/api/v3/Dashboard/ContinueWatchingEpisodes?pageSize=20', apiKey);

    await scrobble(alphaE4, 'event=pause&resumePosition=00:05:00');
    const first = await continueWatching();
    expect(first.Total).toBe(1);
    expect(first.List[0]).toMatchObject({
      SeriesTitle: 'Alpha Academy',
      Number: 4,
      ResumePosition: '00:05:00',
      Duration: '00:23:40',
      Watched: null,
      IDs: { ID: 14, ShokoFile: alphaE4, ShokoSeries: series.A },
    });
    // The session is the viewer's own: another user sees nothing.
    expect((await continueWatching(viewerKey)).Total).toBe(0);
    // Next Up leaves a series in progress to Continue Watching, unless the two are combined.
    expect((await api<Page>('/api/v3/Dashboard/NextUpEpisodes?onlyUnwatched=true')).Total).toBe(0);
    const combined = await api<Page>('/api/v3/Dashboard/NextUpEpisodes?onlyUnwatched=false');
    expect(combined.List.map((e) => [e.SeriesTitle, e.Number, e.ResumePosition])).toEqual([['Alpha Academy', 4, '00:05:00']]);

    // Per series the most recently updated session counts; series order follows the latest activity.
    await scrobble(alphaE2, 'resumePosition=00:02:00');
    await scrobble(betaE1, 'resumePosition=00:40:00');
    const second = await continueWatching();
    expect(second.List.map((e) => [e.SeriesTitle, e.Number, e.ResumePosition, e.IDs.ShokoFile])).toEqual([
      ['Beta Chronicle', 1, '00:40:00', betaE1],
      ['Alpha Academy', 2, '00:02:00', alphaE2],
    ]);
    expect((await api<Page>('/api/v3/Dashboard/ContinueWatchingEpisodes?pageSize=1&page=2')).List.map((e) => e.SeriesTitle)).toEqual([
      'Alpha Academy',
    ]);
    expect((await api<Page>('/api/v3/Dashboard/ContinueWatchingEpisodes?pageSize=1&page=0')).List.map((e) => e.SeriesTitle)).toEqual([
      'Beta Chronicle',
    ]);
    const whole = await api<Page>('/api/v3/Dashboard/ContinueWatchingEpisodes?pageSize=0');
    expect([whole.Total, whole.List.map((e) => e.SeriesTitle)]).toEqual([2, ['Beta Chronicle', 'Alpha Academy']]);
    const nextUpWhole = await api<Page>('/api/v3/Dashboard/NextUpEpisodes?onlyUnwatched=false&pageSize=0');
    expect(nextUpWhole.List.map((e) => e.SeriesTitle)).toEqual(['Beta Chronicle', 'Alpha Academy']);

    // Finishing the episodes ends their sessions; Alpha falls back to its older session on E4.
    await scrobble(alphaE2, 'watched=true');
    await scrobble(betaE1, 'event=stop&watched=true');
    const third = await continueWatching();
    expect(third.List.map((e) => [e.SeriesTitle, e.Number])).toEqual([['Alpha Academy', 4]]);
    expect(
      (await api<Page>('/api/v3/Dashboard/RecentlyAddedEpisodes?pageSize=20')).List.find((e) => e.IDs.ShokoFile === alphaE4),
    ).toMatchObject({ ResumePosition: '00:05:00', Duration: '00:23:40' });
  });

  // Runs last: the collection above now has an unrecognized file, a session in progress and restricted series.
  it('answers Dashboard/Summary with each widget as its own route answers it, for the same parameters', async () => {
    const separate: Record<
      DashboardSummaryWidget,
      (p: { pageSize: number; restricted: boolean; onlyUnwatched: boolean; showAll: boolean }) => string
    > = {
      Stats: () => '/api/v3/Dashboard/Stats',
      SeriesSummary: () => '/api/v3/Dashboard/SeriesSummary',
      UnrecognizedFiles: (p) => `/api/v3/File?pageSize=${p.pageSize}&include_only=Unrecognized&sortOrder=-FileID&include=AbsolutePaths`,
      RecentlyAddedEpisodes: (p) => `/api/v3/Dashboard/RecentlyAddedEpisodes?pageSize=3&includeRestricted=${p.restricted}`,
      RecentlyAddedSeries: (p) => `/api/v3/Dashboard/RecentlyAddedSeries?pageSize=2&includeRestricted=${p.restricted}`,
      ContinueWatchingEpisodes: (p) =>
        `/api/v3/Dashboard/ContinueWatchingEpisodes?pageSize=${p.pageSize}&includeRestricted=${p.restricted}`,
      NextUpEpisodes: (p) =>
        `/api/v3/Dashboard/NextUpEpisodes?pageSize=${p.pageSize}&onlyUnwatched=${p.onlyUnwatched}&includeRestricted=${p.restricted}`,
      AniDBCalendar: (p) => `/api/v3/Dashboard/AniDBCalendar?showAll=${p.showAll}&includeRestricted=${p.restricted}`,
      RecommendedForYou: (p) => `/api/v3/Series/AniDB/RecommendedForYou?pageSize=${p.pageSize}&includeRestricted=${p.restricted}`,
    };
    const cases = [
      { pageSize: 20, restricted: false, onlyUnwatched: true, showAll: false },
      { pageSize: 1, restricted: true, onlyUnwatched: false, showAll: true },
    ];
    for (const apiKey of [key, viewerKey])
      for (const p of cases) {
        const widgets = DASHBOARD_SUMMARY_WIDGETS.map((w) => `widgets=${w}`).join('&');
        const summary = await api<DashboardSummary>(
          `/api/v3/Dashboard/Summary?${widgets}&pageSize=${p.pageSize}&recentlyAddedEpisodesPageSize=3&recentlyAddedSeriesPageSize=2` +
            `&onlyUnwatched=${p.onlyUnwatched}&showAll=${p.showAll}&includeRestricted=${p.restricted}`,
          apiKey,
        );
        expect(Object.keys(summary).sort()).toEqual([...DASHBOARD_SUMMARY_WIDGETS].sort());
        for (const widget of DASHBOARD_SUMMARY_WIDGETS) {
          const own = await api<unknown>(separate[widget](p), apiKey);
          expect(summary[widget], `${widget} ${JSON.stringify(p)}`).toEqual(own);
        }
        // Something to compare: the lists are not all empty.
        expect(summary.UnrecognizedFiles!.Total).toBe(1);
        expect(summary.RecentlyAddedEpisodes!.List.length).toBeGreaterThan(0);
      }
    // Only the widgets asked for are answered (a hidden widget costs nothing).
    expect(await api<DashboardSummary>('/api/v3/Dashboard/Summary?widgets=Stats&widgets=AniDBCalendar')).toEqual({
      Stats: await api('/api/v3/Dashboard/Stats'),
      AniDBCalendar: await api('/api/v3/Dashboard/AniDBCalendar'),
    });
  });

  it('refuses a bad Dashboard/Summary parameter with a problem naming it', async () => {
    for (const [query, field] of [
      ['', 'widgets'],
      ['widgets=Stats&widgets=Nonsense', 'widgets'],
      ['widgets=Stats&pageSize=0', 'pageSize'],
      ['widgets=Stats&recentlyAddedEpisodesPageSize=lots', 'recentlyAddedEpisodesPageSize'],
      ['widgets=Stats&includeRestricted=only', 'includeRestricted'],
    ]) {
      const res = await server.request({ method: 'GET', url: `/api/v3/Dashboard/Summary?${query}`, key });
      expect(res.statusCode, query).toBe(400);
      expect(JSON.stringify(res.json().errors), query).toContain(field);
    }
    expect((await server.request({ method: 'GET', url: '/api/v3/Dashboard/Summary?widgets=Stats' })).statusCode).toBe(401);
  });
});
