import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLOCKWORK_MOVIE_ID,
  PAPER_COMET_ADULT_ID,
  PAPER_COMET_MOVIE_ID,
  TIDEWATER_SHOW_ID,
  TIDEWATER_STORY_ARCS_GROUP_ID,
} from '../../../../fakes/src/tmdb/sample-data.js';
import { createUser, type TestServer } from '../../test/harness.js';
import { seedFile } from '../../test/seed-files.js';
import { seedTmdbLinks, TMDB_LINKS } from '../../test/seed-tmdb.js';
import { startServerWithTmdbFake, type TmdbFakeServer } from '../../test/tmdb-fake-server.js';

/** The AniDB entries seedTmdbLinks links the stored TMDB data to. */
const {
  movieAnime: MOVIE_ANIME,
  movieEpisode: MOVIE_EPISODE,
  showAnime: SHOW_ANIME,
  showEpisode: SHOW_EPISODE,
  season: SEASON_1,
  episode: EPISODE_1,
} = TMDB_LINKS;
const VOYAGE_2 = '5a1b2c3d4e5f60718293a4c1';

const MOVIE_NOT_FOUND = 'A TMDB.Movie by the given `movieID` was not found.';
const SHOW_NOT_FOUND = 'A TMDB.Show by the given `showID` was not found.';
const SEASON_NOT_FOUND = 'A TMDB.Season by the given `seasonID` was not found.';
const EPISODE_NOT_FOUND = 'A TMDB.Episode by the given `episodeID` was not found.';

describe('local TMDB reads (Tmdb/Movie, Show, Season, Episode)', () => {
  let started: TmdbFakeServer | undefined;
  let server: TestServer;
  let key: string;
  let viewerKey: string;
  let movieSeries: number;
  let showSeries: number;
  const api = (method: string, url: string, body?: unknown) => server.request({ method, url, key, body });
  const get = async (url: string) => {
    const res = await api('GET', url);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json();
  };
  const notFound = async (url: string, text: string) => {
    const res = await api('GET', url);
    expect(res.statusCode, url).toBe(404);
    expect(res.body, url).toBe(text);
  };

  beforeAll(async () => {
    started = await startServerWithTmdbFake([
      { path: '/TMDB/UserApiKey', value: 'TESTKEY' },
      { path: '/TMDB/AutoDownloadAlternateOrdering', value: true },
      { path: '/TMDB/AutoDownloadCrewAndCast', value: true },
    ]);
    ({ server, key } = started);
    viewerKey = (await createUser(server, key, 'tmdb-viewer', 'viewer-pass')).key;
    // The movie and the show linked to their AniDB anime, then the other sample movies (not linked).
    ({ movieSeries, showSeries } = await seedTmdbLinks(server));
    for (const id of [PAPER_COMET_MOVIE_ID, PAPER_COMET_ADULT_ID]) {
      expect(await server.services.tmdb.sync.refreshMovie(id, { downloadImages: false })).toBe('updated');
    }
    await seedMovieFile();
  });

  /** One file linked to the movie's AniDB episode. */
  const seedMovieFile = async () => {
    const db = server.services.db.kysely;
    await seedFile(server, { size: 7000, ed2k: 'C'.repeat(32) });
    await db
      .insertInto('file_episode_links')
      .values({
        ed2k: 'C'.repeat(32),
        size: 7000,
        anime_id: MOVIE_ANIME,
        episode_id: MOVIE_EPISODE,
        percentage: 100,
        ordering: 0,
        source: 'User',
        release_group_id: null,
      })
      .execute();
  };

  afterAll(() => started?.close());

  it('lists, filters, searches, pages and bulk-reads the stored movies', async () => {
    const all = await get('/api/v3/Tmdb/Movie');
    expect(all.Total).toBe(3);
    expect(all.List.map((m: { ID: number }) => m.ID)).toEqual([CLOCKWORK_MOVIE_ID, PAPER_COMET_MOVIE_ID, PAPER_COMET_ADULT_ID]);
    expect((await get('/api/v3/Tmdb/Movie?restricted=false')).Total).toBe(2);
    const adult = await get('/api/v3/Tmdb/Movie?restricted=Only');
    expect(adult.List.map((m: { ID: number }) => m.ID)).toEqual([PAPER_COMET_ADULT_ID]);
    const paged = await get('/api/v3/Tmdb/Movie?pageSize=1&page=2');
    expect(paged).toMatchObject({ Total: 3, List: [{ ID: PAPER_COMET_MOVIE_ID }] });
    const found = await get('/api/v3/Tmdb/Movie?search=last%20harvest&include=CrossReferences');
    expect(found.List[0]).toMatchObject({ ID: CLOCKWORK_MOVIE_ID, CrossReferences: [{ AnidbAnimeID: MOVIE_ANIME }] });
    expect((await get('/api/v3/Tmdb/Movie?search=zzzzqqq&fuzzy=false')).Total).toBe(0);

    const bad = await api('GET', '/api/v3/Tmdb/Movie?restricted=maybe');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toHaveProperty('restricted');
    expect((await api('GET', '/api/v3/Tmdb/Movie?pageSize=5000')).statusCode).toBe(400);

    const bulk = await api('POST', '/api/v3/Tmdb/Movie/Bulk', {
      IDs: [PAPER_COMET_MOVIE_ID, 4242, CLOCKWORK_MOVIE_ID],
      Include: ['Keywords'],
    });
    expect(bulk.statusCode).toBe(200);
    expect(bulk.json().map((m: { ID: number }) => m.ID)).toEqual([PAPER_COMET_MOVIE_ID, CLOCKWORK_MOVIE_ID]);
    expect(bulk.json()[1].Keywords).toEqual(['anime']);
  });

  it("answers a movie's sub-resources, its linked AniDB and Shoko entries, and 404s with Shoko's texts", async () => {
    const base = `/api/v3/Tmdb/Movie/${CLOCKWORK_MOVIE_ID}`;
    expect(await get(`${base}/Keywords`)).toEqual(['anime']);
    expect(await get(`${base}/ContentRatings`)).toEqual([{ Rating: 'G', Country: 'JP', Language: expect.any(String), Source: 'TMDB' }]);
    expect(await get(`${base}/YearlySeasons`)).toEqual([{ Year: 2023, AnimeSeason: 'Winter' }]);
    expect(await get(`${base}/CrossReferences`)).toEqual([
      { AnidbAnimeID: MOVIE_ANIME, AnidbEpisodeID: MOVIE_EPISODE, TmdbMovieID: CLOCKWORK_MOVIE_ID, Rating: 'User' },
    ]);
    expect(Array.isArray(await get(`${base}/Titles`))).toBe(true);
    expect(Array.isArray(await get(`${base}/Overviews?language=en`))).toBe(true);
    expect(Array.isArray(await get(`${base}/Cast`))).toBe(true);
    expect(Array.isArray(await get(`${base}/Crew`))).toBe(true);
    expect(Array.isArray(await get(`${base}/Studios`))).toBe(true);
    expect(typeof (await get(`${base}/ProductionCountries`))).toBe('object');
    expect(await get(`${base}/Images`)).toMatchObject({ Posters: expect.any(Array), Backdrops: expect.any(Array), Logos: [], Banners: [] });

    expect((await get(`${base}/AniDB/Anime`)).map((a: { ID: number }) => a.ID)).toEqual([MOVIE_ANIME]);
    expect(await get(`${base}/AniDB/Episode`)).toEqual([expect.objectContaining({ ID: MOVIE_EPISODE })]);
    expect((await get(`${base}/Shoko/Series`)).map((s: { IDs: { ID: number } }) => s.IDs.ID)).toEqual([movieSeries]);
    expect((await get(`${base}/Shoko/Episode`)).map((e: { IDs: { AniDB: number } }) => e.IDs.AniDB)).toEqual([MOVIE_EPISODE]);
    expect(await get(`/api/v3/Tmdb/Movie/${PAPER_COMET_MOVIE_ID}/Shoko/Series`)).toEqual([]);
    const files = await get(`${base}/Shoko/File?pageSize=10`);
    expect(files.Total).toBe(1);
    expect(files.List[0].Hashes.ED2K).toBe('C'.repeat(32));
    expect(await get(`/api/v3/Tmdb/Movie/${PAPER_COMET_MOVIE_ID}/Shoko/File`)).toEqual({ Total: 0, List: [] });
    expect(await get(`${base}/FileCrossReferences`)).toEqual([
      {
        SeriesID: expect.objectContaining({ ID: movieSeries, AniDB: MOVIE_ANIME }),
        EpisodeIDs: [expect.objectContaining({ AniDB: MOVIE_EPISODE, ED2K: 'C'.repeat(32), FileSize: 7000, Source: 'User' })],
      },
    ]);
    expect(await get(`/api/v3/Tmdb/Movie/${PAPER_COMET_MOVIE_ID}/FileCrossReferences`)).toEqual([]);
    expect(await get(`/api/v3/Tmdb/Show/${TIDEWATER_SHOW_ID}/Shoko/File`)).toEqual({ Total: 0, List: [] });
    expect(await get(`/api/v3/Tmdb/Episode/${EPISODE_1}/FileCrossReferences`)).toEqual([]);

    await notFound(`${base}/Collection`, 'A TMDB.MovieCollection by the given `movieID` was not found.');
    expect(await get('/api/v3/Tmdb/Movie/Collection')).toEqual({ Total: 0, List: [] });
    await notFound('/api/v3/Tmdb/Movie/Collection/930001', 'A TMDB.MovieCollection by the given `collectionID` was not found.');
    for (const sub of ['Titles', 'Keywords', 'Images', 'CrossReferences', 'AniDB/Anime', 'Shoko/Series', 'YearlySeasons']) {
      await notFound(`/api/v3/Tmdb/Movie/4242/${sub}`, MOVIE_NOT_FOUND);
    }
    const bad = await api('GET', '/api/v3/Tmdb/Movie/abc/Keywords');
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json().errors)).toContain('movieID');
  });

  it('lists shows and answers their sub-resources, seasons and episode cross-references', async () => {
    const shows = await get('/api/v3/Tmdb/Show?search=tidewater');
    expect(shows).toMatchObject({ Total: 1, List: [{ ID: TIDEWATER_SHOW_ID, Title: 'Lanterns of the Tidewater Line' }] });
    expect((await get('/api/v3/Tmdb/Show?restricted=only')).Total).toBe(0);
    const bulk = await api('POST', '/api/v3/Tmdb/Show/Bulk', { IDs: [4242, TIDEWATER_SHOW_ID] });
    expect(bulk.json().map((s: { ID: number }) => s.ID)).toEqual([TIDEWATER_SHOW_ID]);

    const base = `/api/v3/Tmdb/Show/${TIDEWATER_SHOW_ID}`;
    expect(await get(`${base}/Keywords`)).toEqual(['anime', 'lighthouse']);
    expect(await get(`${base}/Studios`)).toEqual([expect.objectContaining({ ID: 77001, Name: 'Brinewind Animation' })]);
    expect(await get(`${base}/ProductionCountries`)).toEqual({ JP: 'Japan' });
    expect(await get(`${base}/Networks`)).toEqual([]);
    expect((await get(`${base}/Cast`)).length).toBeGreaterThan(0);
    expect(await get(`${base}/Crew`)).toEqual([expect.objectContaining({ RoleName: 'Director' })]);
    expect(await get(`${base}/DaysOfWeek`)).toEqual(['Tuesday']);
    expect(await get(`${base}/YearlySeasons`)).toEqual([{ Year: 2022, AnimeSeason: 'Spring' }]);
    expect(await get(`${base}/CrossReferences`)).toEqual([{ AnidbAnimeID: SHOW_ANIME, TmdbShowID: TIDEWATER_SHOW_ID, Rating: 'User' }]);
    expect(await get(`${base}/Episode/CrossReferences`)).toMatchObject({
      Total: 1,
      List: [{ AnidbEpisodeID: SHOW_EPISODE, TmdbEpisodeID: EPISODE_1, Rating: 'UserVerified' }],
    });
    expect((await get(`${base}/Episode/CrossReferences/EpisodeGroups`)).Total).toBe(1);
    const titles = await get(`${base}/Titles?language=ja`);
    expect(titles.map((t: { Language: string }) => t.Language)).toEqual(['ja']);

    const seasons = await get(`${base}/Season?include=DaysOfWeek`);
    expect(seasons.Total).toBe(2);
    expect(seasons.List[1]).toMatchObject({ ID: String(SEASON_1), SeasonNumber: 1, EpisodeCount: 4, DaysOfWeek: ['Tuesday'] });
    const arcs = await get(`${base}/Season?alternateOrderingID=${TIDEWATER_STORY_ARCS_GROUP_ID}&pageSize=1&page=2`);
    expect(arcs).toMatchObject({ Total: 2, List: [{ ID: VOYAGE_2, AlternateOrderingID: TIDEWATER_STORY_ARCS_GROUP_ID, EpisodeCount: 3 }] });
    expect((await api('GET', `${base}/Season?alternateOrderingID=nope`)).statusCode).toBe(400);

    expect((await get(`${base}/AniDB/Anime`)).map((a: { ID: number }) => a.ID)).toEqual([SHOW_ANIME]);
    expect((await get(`${base}/Shoko/Series`)).map((s: { IDs: { ID: number } }) => s.IDs.ID)).toEqual([showSeries]);
    await notFound('/api/v3/Tmdb/Show/4242/Keywords', SHOW_NOT_FOUND);
    await notFound('/api/v3/Tmdb/Show/4242/Season', SHOW_NOT_FOUND);
  });

  it('reads seasons of either ordering and episodes with their show, season and links', async () => {
    expect(await get(`/api/v3/Tmdb/Season/${SEASON_1}?include=YearlySeasons,Cast`)).toMatchObject({
      ID: String(SEASON_1),
      ShowID: TIDEWATER_SHOW_ID,
      Title: 'Season 1',
      YearlySeasons: [{ Year: 2022, AnimeSeason: 'Spring' }],
      Cast: [],
    });
    const episodes = await get(`/api/v3/Tmdb/Season/${SEASON_1}/Episode?pageSize=2&page=2`);
    expect(episodes).toMatchObject({ Total: 4, List: [{ EpisodeNumber: 3 }, { EpisodeNumber: 4 }] });
    expect((await get(`/api/v3/Tmdb/Season/${SEASON_1}/Episode?includeHidden=only`)).Total).toBe(0);
    const voyage = await get(`/api/v3/Tmdb/Season/${VOYAGE_2}/Episode`);
    expect(voyage.List.map((e: { SeasonID: string; EpisodeNumber: number }) => [e.SeasonID, e.EpisodeNumber])).toEqual([
      [VOYAGE_2, 1],
      [VOYAGE_2, 2],
      [VOYAGE_2, 3],
    ]);
    expect(await get(`/api/v3/Tmdb/Season/${VOYAGE_2}/Show`)).toMatchObject({
      ID: TIDEWATER_SHOW_ID,
      AlternateOrderingID: TIDEWATER_STORY_ARCS_GROUP_ID,
    });
    expect(await get(`/api/v3/Tmdb/Season/${SEASON_1}/Titles`)).toEqual([]);
    expect((await get(`/api/v3/Tmdb/Season/${SEASON_1}/Shoko/Series`)).map((s: { IDs: { ID: number } }) => s.IDs.ID)).toEqual([showSeries]);
    await notFound('/api/v3/Tmdb/Season/4242', SEASON_NOT_FOUND);
    await notFound('/api/v3/Tmdb/Season/aaaaaaaaaaaaaaaaaaaaaaaa/Episode', SEASON_NOT_FOUND);
    const badSeason = await api('GET', '/api/v3/Tmdb/Season/not-a-season');
    expect(badSeason.statusCode).toBe(400);
    expect(JSON.stringify(badSeason.json().errors)).toContain('seasonID');

    const episode = await get(`/api/v3/Tmdb/Episode/${EPISODE_1}?include=CrossReferences,Titles`);
    expect(episode).toMatchObject({
      ID: EPISODE_1,
      ShowID: TIDEWATER_SHOW_ID,
      SeasonID: String(SEASON_1),
      EpisodeNumber: 1,
      CrossReferences: [{ AnidbEpisodeID: SHOW_EPISODE }],
      Titles: expect.any(Array),
    });
    expect(await get(`/api/v3/Tmdb/Episode/${EPISODE_1}?alternateOrderingID=${TIDEWATER_STORY_ARCS_GROUP_ID}`)).toMatchObject({
      SeasonID: '5a1b2c3d4e5f60718293a4c0',
      AlternateOrderingID: TIDEWATER_STORY_ARCS_GROUP_ID,
    });
    expect(await get(`/api/v3/Tmdb/Episode/${EPISODE_1}/Show`)).toMatchObject({ ID: TIDEWATER_SHOW_ID });
    expect(await get(`/api/v3/Tmdb/Episode/${EPISODE_1}/Season`)).toMatchObject({ ID: String(SEASON_1) });
    expect(await get(`/api/v3/Tmdb/Episode/${EPISODE_1}/CrossReferences`)).toMatchObject([{ TmdbEpisodeID: EPISODE_1 }]);
    expect(await get(`/api/v3/Tmdb/Episode/${EPISODE_1}/Cast`)).toEqual([]);
    expect(await get(`/api/v3/Tmdb/Episode/${EPISODE_1}/Images`)).toMatchObject({ Posters: [], Thumbnails: expect.any(Array) });
    expect(await get(`/api/v3/Tmdb/Episode/${EPISODE_1}/Anidb/Episode`)).toEqual([expect.objectContaining({ ID: SHOW_EPISODE })]);
    expect((await get(`/api/v3/Tmdb/Episode/${EPISODE_1}/Shoko/Episode`)).map((e: { IDs: { AniDB: number } }) => e.IDs.AniDB)).toEqual([
      SHOW_EPISODE,
    ]);
    await notFound('/api/v3/Tmdb/Episode/4242/Titles', EPISODE_NOT_FOUND);

    const orderings = await get(`/api/v3/Tmdb/Episode/${EPISODE_1}/Ordering`);
    expect(orderings).toEqual([
      expect.objectContaining({
        OrderingID: String(TIDEWATER_SHOW_ID),
        OrderingName: 'Seasons',
        SeasonID: String(SEASON_1),
        IsDefault: true,
        InUse: true,
      }),
      expect.objectContaining({
        OrderingID: TIDEWATER_STORY_ARCS_GROUP_ID,
        OrderingType: 'StoryArc',
        SeasonID: '5a1b2c3d4e5f60718293a4c0',
        EpisodeNumber: 1,
        IsDefault: false,
        InUse: false,
      }),
    ]);
    expect(orderings[0]).not.toHaveProperty('OrderingType');
    const inArcs = await get(`/api/v3/Tmdb/Episode/${EPISODE_1}/Ordering?alternateOrderingID=${TIDEWATER_STORY_ARCS_GROUP_ID}`);
    expect(inArcs.map((o: { InUse: boolean }) => o.InUse)).toEqual([false, true]);
    const wrong = await api('GET', `/api/v3/Tmdb/Episode/${EPISODE_1}/Ordering?alternateOrderingID=aaaaaaaaaaaaaaaaaaaaaaaa`);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toHaveProperty('alternateOrderingID');
    await notFound('/api/v3/Tmdb/Episode/4242/Ordering', EPISODE_NOT_FOUND);
  });

  it('answers malformed ids and queries with a 400 or 404, never a 5xx', async () => {
    const subs = {
      Movie: [
        '',
        '/Titles',
        '/Images',
        '/Cast',
        '/Studios',
        '/YearlySeasons',
        '/Collection',
        '/AniDB/Episode',
        '/Shoko/File',
        '/FileCrossReferences',
      ],
      Show: ['/Season', '/Cast', '/DaysOfWeek', '/Networks', '/Episode/CrossReferences', '/AniDB/Anime', '/Shoko/Series'],
      Season: ['', '/Episode', '/Show', '/Images', '/DaysOfWeek', '/Shoko/Episode', '/Shoko/File'],
      Episode: ['', '/Show', '/Season', '/Images', '/Anidb/Episode', '/Shoko/Series', '/Ordering'],
    };
    const ids = ['0', '-1', '99999999999999999999', 'x', '%00', 'ffffffffffffffffffffffff', '1.5'];
    const queries = [
      '',
      '?include=Nope',
      '?pageSize=-1',
      '?page=0',
      '?alternateOrderingID=%27',
      '?includeHidden=sometimes',
      '?language=zz',
    ];
    // Ids and queries are checked apart (every bad id without a query, every bad query with a stored and an unknown
    // id): route parameters and query strings are parsed independently, and the full cross product of 1,519
    // requests took over 30 s on a loaded machine.
    const stored = { Movie: PAPER_COMET_MOVIE_ID, Show: TIDEWATER_SHOW_ID, Season: SEASON_1, Episode: EPISODE_1 };
    for (const [kind, list] of Object.entries(subs)) {
      for (const sub of list) {
        const urls = [
          ...ids.map((id) => `${id}${sub}`),
          ...queries.flatMap((query) => [`${stored[kind as keyof typeof stored]}${sub}${query}`, `4242${sub}${query}`]),
        ];
        for (const tail of urls) {
          const url = `/api/v3/Tmdb/${kind}/${tail}`;
          const res = await api('GET', url);
          expect([200, 400, 404], `${url}: ${res.body}`).toContain(res.statusCode);
        }
      }
    }
  });

  it('keeps DELETE and the image downloads for admins; DELETE removes the local copy and its links', async () => {
    for (const [method, url] of [
      ['DELETE', `/api/v3/Tmdb/Movie/${PAPER_COMET_MOVIE_ID}`],
      ['DELETE', `/api/v3/Tmdb/Show/${TIDEWATER_SHOW_ID}`],
      ['POST', `/api/v3/Tmdb/Movie/${CLOCKWORK_MOVIE_ID}/Action/DownloadImages`],
      ['POST', `/api/v3/Tmdb/Show/${TIDEWATER_SHOW_ID}/Action/DownloadImages`],
    ]) {
      const res = await server.request({ method, url, key: viewerKey, body: method === 'POST' ? {} : undefined });
      expect(res.statusCode, url).toBe(403);
    }
    // A viewer may read.
    expect((await server.request({ method: 'GET', url: '/api/v3/Tmdb/Movie', key: viewerKey })).statusCode).toBe(200);
    expect((await api('POST', '/api/v3/Tmdb/Movie/4242/Action/DownloadImages', {})).body).toBe(MOVIE_NOT_FOUND);
    expect((await api('POST', `/api/v3/Tmdb/Movie/${CLOCKWORK_MOVIE_ID}/Action/DownloadImages`, {})).statusCode).toBe(204);

    expect((await api('DELETE', `/api/v3/Tmdb/Movie/${CLOCKWORK_MOVIE_ID}`)).statusCode).toBe(204);
    await notFound(`/api/v3/Tmdb/Movie/${CLOCKWORK_MOVIE_ID}`, MOVIE_NOT_FOUND);
    expect(await get(`/api/v3/Series/${movieSeries}/TMDB/Movie/CrossReferences`)).toEqual([]);
    expect((await get('/api/v3/Tmdb/Movie')).Total).toBe(2);

    expect((await api('DELETE', `/api/v3/Tmdb/Show/${TIDEWATER_SHOW_ID}`)).statusCode).toBe(204);
    await notFound(`/api/v3/Tmdb/Show/${TIDEWATER_SHOW_ID}`, SHOW_NOT_FOUND);
    await notFound(`/api/v3/Tmdb/Season/${SEASON_1}`, SEASON_NOT_FOUND);
    await notFound(`/api/v3/Tmdb/Episode/${EPISODE_1}`, EPISODE_NOT_FOUND);
    expect(await get(`/api/v3/Series/${showSeries}/TMDB/Show/CrossReferences`)).toEqual([]);
    // Deleting what is not stored is no error.
    expect((await api('DELETE', '/api/v3/Tmdb/Show/4242')).statusCode).toBe(204);
  });
});
