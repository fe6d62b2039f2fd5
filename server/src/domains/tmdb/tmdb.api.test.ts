import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FakeTmdb } from '../../../../fakes/src/tmdb/index.js';
import {
  CLOCKWORK_MOVIE_ID,
  CLOCKWORK_SHOW_ID,
  PAPER_COMET_ADULT_ID,
  PAPER_COMET_MOVIE_ID,
  TIDEWATER_DRAMA_ID,
  TIDEWATER_SHOW_ID,
  TIDEWATER_STORY_ARCS_GROUP_ID,
} from '../../../../fakes/src/tmdb/sample-data.js';
import { MATCH_RATING_BADGES, type TmdbMatchRating } from '../../providers/tmdb/index.js';
import { createUser, type TestServer } from '../../test/harness.js';
import { seedAnidbAnime } from '../../test/seed-anidb.js';
import { startServerWithTmdbFake } from '../../test/tmdb-fake-server.js';

/** Invented AniDB anime matching the TMDB fake's invented shows and movie. */
const TIDEWATER = 8101;
const ORCHARD = 8200;
const ORCHARD_SEQUEL = 8201;
const ORCHARD_MOVIE = 8301;

interface SeedAnime {
  id: number;
  type: string;
  airDate: string | null;
  restricted?: boolean;
  titles: { type: string; language: string; value: string }[];
  episodes: { id: number; type: string; number: number; airDate: string | null; title: string }[];
  prequel?: number;
  series?: boolean;
}

const seeds: SeedAnime[] = [
  {
    id: TIDEWATER,
    type: 'TV',
    airDate: '2022-04-05',
    titles: [
      { type: 'main', language: 'x-jat', value: 'Chousen no Lantern' },
      { type: 'official', language: 'ja', value: '潮線のランタン' },
      { type: 'official', language: 'en', value: 'Lanterns of the Tidewater Line' },
    ],
    episodes: [
      { id: 810101, type: 'Episode', number: 1, airDate: '2022-04-05', title: "The Lamp-Keeper's Apprentice" },
      { id: 810102, type: 'Episode', number: 2, airDate: '2022-04-13', title: 'Low Tide at Nine Bell' },
      { id: 810103, type: 'Episode', number: 3, airDate: '2022-04-19', title: 'Episode 3' },
      { id: 810104, type: 'Episode', number: 4, airDate: null, title: 'Where the Last Lantern Sail' },
      { id: 810105, type: 'Episode', number: 5, airDate: null, title: 'Episode 5' },
      { id: 810106, type: 'Special', number: 1, airDate: '2023-01-01', title: 'Harbour Lights: A Look Back' },
      { id: 810107, type: 'Credits', number: 1, airDate: null, title: 'Opening' },
    ],
    series: true,
  },
  {
    id: ORCHARD,
    type: 'TV',
    airDate: '2019-10-03',
    titles: [
      { type: 'main', language: 'x-jat', value: 'Zenmai Kajuen' },
      { type: 'official', language: 'ja', value: 'ぜんまい果樹園' },
    ],
    episodes: [],
  },
  {
    // Its own titles find nothing on TMDB: only the prequel chain's first entry leads to the show.
    id: ORCHARD_SEQUEL,
    type: 'TV',
    airDate: '2021-07-08',
    titles: [
      { type: 'main', language: 'x-jat', value: 'Makimodoshi no Kagi' },
      { type: 'official', language: 'ja', value: '巻き戻しの鍵' },
    ],
    episodes: [
      { id: 820101, type: 'Episode', number: 1, airDate: '2021-07-08', title: 'Episode 1' },
      { id: 820102, type: 'Episode', number: 2, airDate: null, title: 'A Grafted Gear' },
      { id: 820103, type: 'Episode', number: 3, airDate: null, title: 'Episode 3' },
    ],
    prequel: ORCHARD,
    series: true,
  },
  {
    id: ORCHARD_MOVIE,
    type: 'Movie',
    airDate: '2023-03-10',
    titles: [
      { type: 'main', language: 'x-jat', value: 'Zenmai Kajuen: Saigo no Shuukaku' },
      { type: 'official', language: 'ja', value: 'ぜんまい果樹園 最後の収穫' },
    ],
    episodes: [{ id: 830101, type: 'Episode', number: 1, airDate: '2023-03-10', title: 'Complete Movie' }],
    series: true,
  },
];

/** AniDB rows as the AniDB import stores them (series without Shoko episodes); returns anime id → series id. */
async function seedAnidb(server: TestServer, anime: SeedAnime[]): Promise<Map<number, number>> {
  const seriesIds = new Map<number, number>();
  for (const a of anime) {
    const [main, ...otherTitles] = a.titles;
    const seriesId = await seedAnidbAnime(server, {
      ...a,
      title: main.value,
      otherTitles,
      series: a.series === true,
      shokoEpisodes: false,
    });
    if (a.prequel) {
      await server.services.db.kysely
        .insertInto('anidb_relations')
        .values({ anime_id: a.id, related_anime_id: a.prequel, relation_type: 'Prequel', related_title: null })
        .execute();
    }
    if (seriesId !== null) seriesIds.set(a.id, seriesId);
  }
  return seriesIds;
}

/** A server pointed at a fresh TMDB fake, `settings` patched in before the first run, AniDB rows seeded. */
async function startWithFake(settings: { path: string; value: unknown }[], anime: SeedAnime[]) {
  const started = await startServerWithTmdbFake(settings);
  return { ...started, series: await seedAnidb(started.server, anime) };
}

/** The series' stored episode links as `anidbEpisodeId → "tmdbEpisodeId:badge"`. */
async function episodeBadges(server: TestServer, key: string, seriesId: number): Promise<Record<string, string>> {
  const res = await server.request({ method: 'GET', url: `/api/v3/Series/${seriesId}/TMDB/Show/CrossReferences/Episode?pageSize=0`, key });
  expect(res.statusCode).toBe(200);
  const list = res.json().List as { AnidbEpisodeID: number; TmdbEpisodeID: number; Rating: TmdbMatchRating }[];
  return Object.fromEntries(list.map((x) => [x.AnidbEpisodeID, `${x.TmdbEpisodeID}:${MATCH_RATING_BADGES[x.Rating]}`]));
}

describe('TMDB linking and metadata against the TMDB fake', () => {
  let server: TestServer;
  let fake: FakeTmdb;
  let close: (() => Promise<void>) | undefined;
  let key: string;
  let series: Map<number, number>;
  const api = (method: string, url: string, body?: unknown) => server.request({ method, url, key, body });
  const badges = (seriesId: number) => episodeBadges(server, key, seriesId);

  beforeAll(async () => {
    ({ fake, server, key, series, close } = await startWithFake(
      [
        { path: '/TMDB/UserApiKey', value: 'TESTKEY' },
        { path: '/TMDB/AutoDownloadAlternateOrdering', value: true },
        { path: '/TMDB/AutoDownloadCrewAndCast', value: true },
      ],
      seeds,
    ));
  });

  afterAll(() => close?.());

  it('auto-links a series to its TMDB show, skipping the live-action namesake, and rates every episode link', async () => {
    expect(await server.services.tmdb.linking.queueAutoMatch(TIDEWATER)).toBe(true);
    await server.services.queue.idle();

    const shows = await api('GET', `/api/v3/Series/${series.get(TIDEWATER)}/TMDB/Show/CrossReferences`);
    expect(shows.json()).toEqual([{ AnidbAnimeID: TIDEWATER, TmdbShowID: TIDEWATER_SHOW_ID, Rating: 'Automatic' }]);
    expect(await badges(series.get(TIDEWATER)!)).toEqual({
      810101: '9100101:DT',
      810102: '9100102:~DT',
      810103: '9100103:D',
      810104: '9100104:~T',
      810105: '0:None',
      810106: '9100100:T',
    });
    // The show was stored with every season, its alternate ordering and its credits.
    const show = (
      await api('GET', `/api/v3/Tmdb/Show/${TIDEWATER_SHOW_ID}?include=Ordering&include=Cast&include=Crew&include=CrossReferences`)
    ).json();
    expect(show).toMatchObject({
      ID: TIDEWATER_SHOW_ID,
      Title: 'Lanterns of the Tidewater Line',
      TvdbID: 7700001,
      Genres: expect.arrayContaining(['Animation', 'Drama', 'Sci-Fi', 'Fantasy']),
      EpisodeCount: 4,
      SeasonCount: 1,
      AlternateOrderingCount: 1,
      FirstAiredAt: '2022-04-05',
      LastAiredAt: '2022-04-26',
      UserRating: { Value: 7.8, MaxValue: 10, Source: 'TMDB', Votes: 64 },
      CrossReferences: [{ AnidbAnimeID: TIDEWATER, TmdbShowID: TIDEWATER_SHOW_ID, Rating: 'Automatic' }],
    });
    expect(show.Cast).toEqual([
      expect.objectContaining({ RoleName: 'Actor', RoleDetails: 'Suzu', Staff: expect.objectContaining({ Name: 'Mirei Hanazono' }) }),
    ]);
    expect(show.Crew[0]).toMatchObject({ RoleName: 'Director', Staff: { Name: 'Tadashi Kurokawa' } });
    expect(show.Ordering.map((o: { OrderingName: string; InUse: boolean }) => [o.OrderingName, o.InUse])).toEqual([
      ['Seasons', true],
      ['Story Arcs', false],
    ]);
    expect(fake.requests.some((r) => r.startsWith(`GET /3/tv/episode_group/${TIDEWATER_STORY_ARCS_GROUP_ID}`))).toBe(true);
  });

  it('serves the episodes in an alternate ordering and stores the preferred one', async () => {
    const arcs = (
      await api('GET', `/api/v3/Tmdb/Show/${TIDEWATER_SHOW_ID}/Episode?alternateOrderingID=${TIDEWATER_STORY_ARCS_GROUP_ID}`)
    ).json();
    expect(arcs.Total).toBe(5);
    expect(
      arcs.List.map((e: { ID: number; SeasonNumber: number; EpisodeNumber: number }) => [e.ID, e.SeasonNumber, e.EpisodeNumber]),
    ).toEqual([
      [9100101, 1, 1],
      [9100102, 1, 2],
      [9100103, 2, 1],
      [9100104, 2, 2],
      [9100100, 2, 3],
    ]);
    const set = await api('POST', `/api/v3/Tmdb/Show/${TIDEWATER_SHOW_ID}/Ordering/SetPreferred`, {
      AlternateOrderingID: TIDEWATER_STORY_ARCS_GROUP_ID,
    });
    expect(set.statusCode).toBe(200);
    expect((await api('GET', `/api/v3/Tmdb/Show/${TIDEWATER_SHOW_ID}`)).json().AlternateOrderingID).toBe(TIDEWATER_STORY_ARCS_GROUP_ID);
    // Episodes by id come numbered in their show's preferred ordering; unknown ids are skipped.
    const bulk = await api('POST', '/api/v3/Tmdb/Episode/Bulk', { IDs: [9100100, 1, 9100101] });
    expect(
      bulk
        .json()
        .map((e: { ID: number; AlternateOrderingID: string; SeasonNumber: number; EpisodeNumber: number }) => [
          e.ID,
          e.AlternateOrderingID,
          e.SeasonNumber,
          e.EpisodeNumber,
        ]),
    ).toEqual([
      [9100100, TIDEWATER_STORY_ARCS_GROUP_ID, 2, 3],
      [9100101, TIDEWATER_STORY_ARCS_GROUP_ID, 1, 1],
    ]);
    const wrong = await api('POST', `/api/v3/Tmdb/Show/${TIDEWATER_SHOW_ID}/Ordering/SetPreferred`, {
      AlternateOrderingID: 'ffffffffffffffffffffffff',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toHaveProperty('AlternateOrderingID');
    await api('POST', `/api/v3/Tmdb/Show/${TIDEWATER_SHOW_ID}/Ordering/SetPreferred`, { AlternateOrderingID: 'default' });
  });

  it('finds a sequel through its prequel chain when the stored anime is announced', async () => {
    server.services.bus.emit('shoko', {
      event: 'SeriesUpdated',
      payload: {
        Source: 'AniDB',
        Reason: 'Updated',
        SeriesID: ORCHARD_SEQUEL,
        ShokoSeriesIDs: [series.get(ORCHARD_SEQUEL)!],
        Episodes: [],
      },
    });
    // The listener queues asynchronously: wait for the job's link, then for the job to finish.
    for (let i = 0; i < 250 && (await server.services.tmdb.store.showLinksOfAnime(ORCHARD_SEQUEL)).length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await server.services.queue.idle();
    expect((await server.services.tmdb.store.showLinksOfAnime(ORCHARD_SEQUEL)).map((l) => l.show_id)).toEqual([CLOCKWORK_SHOW_ID]);
    expect(await badges(series.get(ORCHARD_SEQUEL)!)).toEqual({ 820101: '9130201:D', 820102: '9130202:T', 820103: '9130203:BG' });
    expect(fake.requests.some((r) => r.includes('/3/search/tv?query=%E3%81%9C%E3%82%93%E3%81%BE%E3%81%84'))).toBe(true);
  });

  it('links a movie-type anime to the TMDB movie through its episode (Series AutoSearch)', async () => {
    const res = await api('POST', `/api/v3/Series/${series.get(ORCHARD_MOVIE)}/TMDB/Action/AutoSearch`);
    expect(res.statusCode).toBe(204);
    await server.services.queue.idle();
    const links = (await api('GET', `/api/v3/Series/${series.get(ORCHARD_MOVIE)}/TMDB/Movie/CrossReferences`)).json();
    expect(links).toEqual([{ AnidbAnimeID: ORCHARD_MOVIE, AnidbEpisodeID: 830101, TmdbMovieID: CLOCKWORK_MOVIE_ID, Rating: 'Automatic' }]);
    const movie = (await api('GET', `/api/v3/Tmdb/Movie/${CLOCKWORK_MOVIE_ID}?include=Keywords`)).json();
    expect(movie).toMatchObject({
      ID: CLOCKWORK_MOVIE_ID,
      Title: 'Clockwork Orchard: The Last Harvest',
      Runtime: '01:44:00',
      ReleasedAt: '2023-03-10',
      CollectionID: 930001,
      ImdbMovieID: 'tt9900002',
      Keywords: ['anime'],
    });
    expect((await api('GET', `/api/v3/Series/${series.get(ORCHARD_MOVIE)}/TMDB/Movie`)).json().map((m: { ID: number }) => m.ID)).toEqual([
      CLOCKWORK_MOVIE_ID,
    ]);
  });

  it('never replaces a link the user made, and keeps user-verified episode links', async () => {
    const seriesId = series.get(TIDEWATER)!;
    const link = await api('POST', `/api/v3/Series/${seriesId}/TMDB/Show`, { ID: TIDEWATER_SHOW_ID, Replace: true });
    expect(link.statusCode).toBe(204);
    expect((await api('GET', `/api/v3/Series/${seriesId}/TMDB/Show/CrossReferences`)).json()).toEqual([
      { AnidbAnimeID: TIDEWATER, TmdbShowID: TIDEWATER_SHOW_ID, Rating: 'User' },
    ]);
    const before = fake.requests.length;
    await api('POST', `/api/v3/Series/${seriesId}/TMDB/Action/AutoSearch?force=true`);
    await server.services.queue.idle();
    expect(fake.requests.length).toBe(before);
    expect((await api('GET', `/api/v3/Series/${seriesId}/TMDB/Show/CrossReferences`)).json()[0].Rating).toBe('User');

    // A user-verified episode link survives re-matching.
    await server.services.db.kysely
      .updateTable('xref_anidb_tmdb_episode')
      .set({ tmdb_episode_id: 9100104, show_id: TIDEWATER_SHOW_ID, rating: 'UserVerified' })
      .where('anidb_episode_id', '=', 810105)
      .execute();
    await server.services.db.kysely.deleteFrom('xref_anidb_tmdb_episode').where('anidb_episode_id', '=', 810104).execute();
    await server.services.tmdb.linking.matchEpisodes(TIDEWATER, TIDEWATER_SHOW_ID);
    const after = await badges(seriesId);
    expect(after[810105]).toBe('9100104:UO');
    expect(after[810104]).toBe('0:None');
    expect(after[810101]).toBe('9100101:DT');
  });

  it('refreshes a show now (200) or as a queued job (204)', async () => {
    expect((await api('GET', `/api/v3/Tmdb/Show/${TIDEWATER_DRAMA_ID}`)).statusCode).toBe(404);
    const now = await api('POST', `/api/v3/Tmdb/Show/${TIDEWATER_DRAMA_ID}/Action/Refresh`, { Immediate: true });
    expect(now.statusCode).toBe(200);
    expect((await api('GET', `/api/v3/Tmdb/Show/${TIDEWATER_DRAMA_ID}`)).json()).toMatchObject({
      ID: TIDEWATER_DRAMA_ID,
      Genres: ['Drama'],
      EpisodeCount: 1,
    });

    const missing = await api('GET', `/api/v3/Tmdb/Movie/${PAPER_COMET_MOVIE_ID}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toBe('A TMDB.Movie by the given `movieID` was not found.');
    await server.services.queue.pause();
    const later = await api('POST', `/api/v3/Tmdb/Movie/${PAPER_COMET_MOVIE_ID}/Action/Refresh`, {});
    expect(later.statusCode).toBe(204);
    expect((await server.services.queue.typeCounts())['Update TMDB Movie']).toBe(1);
    expect((await api('GET', `/api/v3/Tmdb/Movie/${PAPER_COMET_MOVIE_ID}`)).statusCode).toBe(404);
    await server.services.queue.resume();
    await server.services.queue.idle();
    expect((await api('GET', `/api/v3/Tmdb/Movie/${PAPER_COMET_MOVIE_ID}`)).json()).toMatchObject({
      ID: PAPER_COMET_MOVIE_ID,
      Title: 'Paper Comet',
    });

    // SkipIfExists answers at once for a stored movie; an unknown id is a 404 when refreshed now.
    const before = fake.requests.length;
    expect(
      (await api('POST', `/api/v3/Tmdb/Movie/${PAPER_COMET_MOVIE_ID}/Action/Refresh`, { Immediate: true, SkipIfExists: true })).statusCode,
    ).toBe(200);
    expect(fake.requests.length).toBe(before);
    const unknown = await api('POST', '/api/v3/Tmdb/Show/999999/Action/Refresh', { Immediate: true });
    expect([unknown.statusCode, unknown.body]).toEqual([404, 'Show not found on TMDB.']);
  });

  it('searches TMDB online in pages of the requested size, admin only', async () => {
    const first = (await api('GET', '/api/v3/Tmdb/Show/Online/Search?query=Lanterns')).json();
    expect(first.Total).toBe(2);
    expect(first.List.map((s: { ID: number }) => s.ID)).toEqual([TIDEWATER_DRAMA_ID, TIDEWATER_SHOW_ID]);
    expect(first.List[1]).toMatchObject({
      Title: 'Lanterns of the Tidewater Line',
      OriginalTitle: '潮線のランタン',
      FirstAiredAt: '2022-04-05',
      Poster: `${fake.imageUrl}/tidewaterPoster1.png`,
    });
    expect(first.List[1].Genres).toContain('Animation');
    const second = (await api('GET', '/api/v3/Tmdb/Show/Online/Search?query=Lanterns&pageSize=1&page=2')).json();
    expect(second).toMatchObject({ Total: 2, List: [{ ID: TIDEWATER_SHOW_ID }] });
    const movies = (await api('GET', '/api/v3/Tmdb/Movie/Online/Search?query=Paper%20Comet&includeRestricted=true')).json();
    expect(movies.List.map((m: { ID: number; IsRestricted: boolean }) => m.IsRestricted)).toEqual([false, false, true]);

    // Online/{id}: the stored copy, else TMDB's details, else a 404 text.
    expect((await api('GET', `/api/v3/Tmdb/Show/Online/${CLOCKWORK_SHOW_ID}`)).json()).toMatchObject({
      ID: CLOCKWORK_SHOW_ID,
      Title: 'Clockwork Orchard',
      Genres: ['Animation', 'Comedy'],
    });
    const before = fake.requests.length;
    expect((await api('GET', `/api/v3/Tmdb/Movie/Online/${PAPER_COMET_ADULT_ID}`)).json()).toMatchObject({
      ID: PAPER_COMET_ADULT_ID,
      IsRestricted: true,
      ReleasedAt: '2021-02-01',
    });
    expect(fake.requests.slice(before).some((r) => r.startsWith(`GET /3/movie/${PAPER_COMET_ADULT_ID}`))).toBe(true);
    const unknown = await api('GET', '/api/v3/Tmdb/Movie/Online/999999');
    expect([unknown.statusCode, unknown.body]).toEqual([404, 'Movie not found on TMDB.']);
    const bulk = await api('POST', '/api/v3/Tmdb/Movie/Online/Bulk', { IDs: [CLOCKWORK_MOVIE_ID, 999999] });
    expect([bulk.statusCode, bulk.json().errors]).toEqual([400, { IDs: ['No TMDB entry was found for id 999999.'] }]);
    expect(
      (await api('POST', '/api/v3/Tmdb/Show/Online/Bulk', { IDs: [TIDEWATER_SHOW_ID, CLOCKWORK_SHOW_ID] }))
        .json()
        .map((s: { ID: number }) => s.ID),
    ).toEqual([TIDEWATER_SHOW_ID, CLOCKWORK_SHOW_ID]);

    const user = await createUser(server, key, 'viewer', 'viewer-pass');
    const denied = await server.request({ method: 'GET', url: '/api/v3/Tmdb/Show/Online/Search?query=Lanterns', key: user.key });
    expect(denied.statusCode).toBe(403);
    const refreshDenied = await server.request({
      method: 'POST',
      url: `/api/v3/Tmdb/Show/${TIDEWATER_SHOW_ID}/Action/Refresh`,
      key: user.key,
      body: {},
    });
    expect(refreshDenied.statusCode).toBe(403);
    expect((await server.request({ method: 'GET', url: `/api/v3/Tmdb/Show/${TIDEWATER_SHOW_ID}` })).statusCode).toBe(401);
  });
  it('sets episode links by hand, and previews or re-applies the automatic ones', async () => {
    const seriesId = series.get(ORCHARD_SEQUEL)!;
    const path = `/api/v3/Series/${seriesId}/TMDB/Show/CrossReferences/Episode`;
    const automatic = { 820101: '9130201:D', 820102: '9130202:T', 820103: '9130203:BG' };
    const preview = (query = '') => api('GET', `${path}/Auto?pageSize=0${query}`);
    const previewBadges = async (query = '') =>
      Object.fromEntries(
        (await preview(query))
          .json()
          .List.map((x: { AnidbEpisodeID: number; TmdbEpisodeID: number; Rating: TmdbMatchRating }) => [
            x.AnidbEpisodeID,
            `${x.TmdbEpisodeID}:${MATCH_RATING_BADGES[x.Rating]}`,
          ]),
      );
    expect(await previewBadges()).toEqual(automatic);

    expect((await api('POST', path, { Mapping: [{ AniDBID: 820103, TmdbID: 9130103, Replace: true }] })).statusCode).toBe(204);
    expect(await badges(seriesId)).toEqual({ ...automatic, 820103: '9130103:UO' });
    const foreign = await api('POST', path, { Mapping: [{ AniDBID: 810101, TmdbID: 1234 }] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors.Mapping).toHaveLength(2);
    expect((await api('POST', path, { Mapping: [] })).json().errors).toHaveProperty('Body');

    // Re-applying keeps the hand-set link unless told not to.
    expect((await api('POST', `${path}/Auto`, {})).statusCode).toBe(204);
    expect((await badges(seriesId))[820103]).toBe('9130103:UO');
    expect((await api('POST', `${path}/Auto`, { keepExisting: false })).statusCode).toBe(204);
    expect(await badges(seriesId)).toEqual(automatic);

    // One season only: nothing agrees with the first season, so its episodes are taken in order.
    expect(await previewBadges('&tmdbSeasonID=9130001')).toEqual({ 820101: '9130101:BG', 820102: '9130102:BG', 820103: '9130103:BG' });
    expect((await preview('&tmdbSeasonID=9110001')).json().errors).toHaveProperty('tmdbSeasonID');
    expect(await badges(seriesId)).toEqual(automatic);

    expect((await api('DELETE', path)).statusCode).toBe(204);
    expect((await api('GET', `${path}?pageSize=0`)).json()).toEqual({ Total: 0, List: [] });
  });
  it("previews the automatic search without storing anything, and searches a show's episodes by numbers and title", async () => {
    const movieSeries = series.get(ORCHARD_MOVIE)!;
    const before = (await api('GET', `/api/v3/Series/${movieSeries}/TMDB/Movie/CrossReferences`)).json();
    const movie = await api('GET', `/api/v3/Series/${movieSeries}/TMDB/Action/AutoSearch`);
    expect(movie.statusCode).toBe(200);
    expect(movie.json()).toEqual([
      expect.objectContaining({
        AnimeID: ORCHARD_MOVIE,
        EpisodeID: 830101,
        IsMovie: true,
        IsLocal: true,
        IsRemote: true,
        Movie: expect.objectContaining({ ID: CLOCKWORK_MOVIE_ID, Genres: expect.arrayContaining(['Animation']) }),
      }),
    ]);
    expect((await api('GET', `/api/v3/Series/${movieSeries}/TMDB/Movie/CrossReferences`)).json()).toEqual(before);
    const show = (await api('GET', `/api/v3/Series/${series.get(TIDEWATER)}/TMDB/Action/AutoSearch`)).json();
    expect(show).toEqual([
      expect.objectContaining({
        AnimeID: TIDEWATER,
        IsMovie: false,
        IsLocal: true,
        Show: expect.objectContaining({ ID: TIDEWATER_SHOW_ID }),
      }),
    ]);
    expect(show[0]).not.toHaveProperty('EpisodeID');

    const search = async (text: string) =>
      (await api('GET', `/api/v3/Tmdb/Show/${TIDEWATER_SHOW_ID}/Episode?pageSize=30&search=${encodeURIComponent(text)}`))
        .json()
        .List.map((e: { ID: number }) => e.ID);
    expect(await search('S1E2')).toEqual([9100102]);
    expect(await search('E3')).toEqual([9100103]);
    expect(await search('S1')).toEqual([9100101, 9100102, 9100103, 9100104]);
    expect(await search('Specials')).toEqual([9100100]);
    expect(await search('lantern')).toEqual([9100104]);
    expect(await search('S1 tide')).toEqual([9100102]);
    expect(await search('nothing like this')).toEqual([]);
  });

  it('clusters one-to-many and many-to-one episode links, and queues image downloads of linked shows and movies', async () => {
    const seriesId = series.get(TIDEWATER)!;
    const path = `/api/v3/Series/${seriesId}/TMDB/Show/CrossReferences`;
    // 810101 and 810102 share one TMDB episode; 810103 spans two.
    const mapping = [
      { AniDBID: 810101, TmdbID: 9100101, Replace: true },
      { AniDBID: 810102, TmdbID: 9100101, Replace: true },
      { AniDBID: 810103, TmdbID: 9100102, Replace: true },
      { AniDBID: 810103, TmdbID: 9100103, Replace: false },
    ];
    expect((await api('POST', `${path}/Episode`, { UnsetAll: true, Mapping: mapping })).statusCode).toBe(204);
    const groups = (await api('GET', `${path}/EpisodeGroups?pageSize=0`)).json();
    expect(groups.Total).toBe(2);
    expect(
      groups.List.map((group: { AnidbEpisodeID: number; TmdbEpisodeID: number; Index: number }[]) =>
        group.map((x) => [x.AnidbEpisodeID, x.TmdbEpisodeID, x.Index]),
      ),
    ).toEqual([
      [
        [810101, 9100101, 0],
        [810102, 9100101, 1],
      ],
      [
        [810103, 9100102, 0],
        [810103, 9100103, 1],
      ],
    ]);
    expect((await api('GET', `${path}/EpisodeGroups?pageSize=1&page=2`)).json().List[0][0].AnidbEpisodeID).toBe(810103);
    expect((await api('GET', `${path}/EpisodeGroups?tmdbShowID=${CLOCKWORK_SHOW_ID}`)).json().errors).toHaveProperty('tmdbShowID');

    const downloads = vi.spyOn(server.services.images.service, 'queueTmdbImages');
    try {
      expect((await api('POST', `/api/v3/Series/${seriesId}/TMDB/Show/Action/DownloadImages`, { Force: true })).statusCode).toBe(204);
      expect(
        (await api('POST', `/api/v3/Series/${series.get(ORCHARD_MOVIE)}/TMDB/Movie/Action/DownloadImages`, { Immediate: true })).statusCode,
      ).toBe(200);
      expect(downloads.mock.calls).toEqual([[{ type: 'Show', id: TIDEWATER_SHOW_ID }], [{ type: 'Movie', id: CLOCKWORK_MOVIE_ID }]]);
    } finally {
      downloads.mockRestore();
    }
    await server.services.queue.idle();
    const user = await createUser(server, key, 'images-viewer', 'viewer-pass');
    expect(
      (await server.request({ method: 'POST', url: `/api/v3/Series/${seriesId}/TMDB/Show/Action/DownloadImages`, key: user.key, body: {} }))
        .statusCode,
    ).toBe(403);
  });

  it('serves and edits the TMDB links of one episode', async () => {
    const seriesId = series.get(TIDEWATER)!;
    const now = new Date().toISOString();
    const row = await server.services.db.kysely
      .insertInto('episodes')
      .values({ series_id: seriesId, anidb_episode_id: 810103, is_hidden: 0, title_override: null, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const path = `/api/v3/Episode/${row.id}/TMDB`;
    expect((await api('GET', `${path}/Episode/CrossReferences`)).json().map((x: { TmdbEpisodeID: number }) => x.TmdbEpisodeID)).toEqual([
      9100102, 9100103,
    ]);
    expect((await api('GET', `${path}/Episode`)).json().map((e: { ID: number }) => e.ID)).toEqual([9100102, 9100103]);
    expect((await api('GET', `${path}/Movie`)).json()).toEqual([]);

    expect((await api('POST', `${path}/Movie`, { ID: CLOCKWORK_MOVIE_ID })).statusCode).toBe(204);
    expect((await api('GET', `${path}/Movie/CrossReferences`)).json()).toEqual([
      { AnidbAnimeID: TIDEWATER, AnidbEpisodeID: 810103, TmdbMovieID: CLOCKWORK_MOVIE_ID, Rating: 'User' },
    ]);
    expect((await api('GET', `${path}/Movie`)).json().map((m: { ID: number }) => m.ID)).toEqual([CLOCKWORK_MOVIE_ID]);
    expect((await api('POST', `${path}/Movie`, { ID: 0 })).json().errors).toHaveProperty('ID');
    const user = await createUser(server, key, 'episode-viewer', 'viewer-pass');
    expect((await server.request({ method: 'DELETE', url: `${path}/Movie`, key: user.key, body: {} })).statusCode).toBe(403);
    expect((await api('DELETE', `${path}/Movie`, {})).statusCode).toBe(204);
    expect((await api('GET', `${path}/Movie/CrossReferences`)).json()).toEqual([]);

    const missing = await api('GET', '/api/v3/Episode/999999/TMDB/Movie');
    expect([missing.statusCode, missing.body]).toEqual([404, 'No Episode entry for the given episodeID']);
  });

  it('reads stored shows and movies in bulk, in the order asked for, skipping unknown ids', async () => {
    const shows = await api('POST', '/api/v3/Tmdb/Show/Bulk', { IDs: [999999, TIDEWATER_SHOW_ID, 0], Include: ['CrossReferences'] });
    expect(shows.statusCode, shows.body).toBe(200);
    const single = (await api('GET', `/api/v3/Tmdb/Show/${TIDEWATER_SHOW_ID}?include=CrossReferences`)).json();
    expect(shows.json()).toEqual([single]);
    expect(shows.json()[0].CrossReferences).toEqual(expect.arrayContaining([expect.objectContaining({ TmdbShowID: TIDEWATER_SHOW_ID })]));

    const movies = await api('POST', '/api/v3/Tmdb/Movie/Bulk', { IDs: [PAPER_COMET_MOVIE_ID, 424242, PAPER_COMET_MOVIE_ID] });
    expect(movies.statusCode, movies.body).toBe(200);
    const movie = (await api('GET', `/api/v3/Tmdb/Movie/${PAPER_COMET_MOVIE_ID}`)).json();
    expect(movies.json()).toEqual([movie, movie]);
    expect((await api('POST', '/api/v3/Tmdb/Movie/Bulk', { IDs: [] })).json()).toEqual([]);

    const bad = await api('POST', '/api/v3/Tmdb/Movie/Bulk', { IDs: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('IDs');
    expect((await server.request({ method: 'POST', url: '/api/v3/Tmdb/Show/Bulk', body: { IDs: [1] } })).statusCode).toBe(401);
  });

  it('lists the AniDB links of a stored show or movie, 404 text for an unknown one', async () => {
    const showLinks = await api('GET', `/api/v3/Tmdb/Show/${TIDEWATER_SHOW_ID}/CrossReferences`);
    expect(showLinks.statusCode, showLinks.body).toBe(200);
    expect(showLinks.json()).toEqual((await api('GET', `/api/v3/Series/${series.get(TIDEWATER)}/TMDB/Show/CrossReferences`)).json());
    expect(showLinks.json()).toContainEqual(expect.objectContaining({ AnidbAnimeID: TIDEWATER, TmdbShowID: TIDEWATER_SHOW_ID }));
    const movieLinks = await api('GET', `/api/v3/Tmdb/Movie/${CLOCKWORK_MOVIE_ID}/CrossReferences`);
    expect(movieLinks.json()).toEqual([
      { AnidbAnimeID: ORCHARD_MOVIE, AnidbEpisodeID: 830101, TmdbMovieID: CLOCKWORK_MOVIE_ID, Rating: 'Automatic' },
    ]);
    expect((await api('GET', `/api/v3/Tmdb/Movie/${PAPER_COMET_MOVIE_ID}/CrossReferences`)).json()).toEqual([]);
    const missingShow = await api('GET', '/api/v3/Tmdb/Show/999999/CrossReferences');
    expect([missingShow.statusCode, missingShow.body]).toEqual([404, 'A TMDB.Show by the given `showID` was not found.']);
    const missingMovie = await api('GET', '/api/v3/Tmdb/Movie/424242/CrossReferences');
    expect([missingMovie.statusCode, missingMovie.body]).toEqual([404, 'A TMDB.Movie by the given `movieID` was not found.']);
    expect((await api('GET', '/api/v3/Tmdb/Movie/0/CrossReferences')).statusCode).toBe(400);
  });

  it('auto-links only when TMDB.AutoLink is on, and restricted anime only with TMDB.AutoLinkRestricted', async () => {
    const restricted = {
      id: 8401,
      type: 'OVA',
      airDate: '2020-01-01',
      restricted: true,
      titles: [{ type: 'main', language: 'x-jat', value: 'Himitsu no Kaidan' }],
      episodes: [],
    };
    await seedAnidb(server, [restricted]);
    // After the first run the settings API validates the whole object (AniDB login included): set them directly.
    const setTmdb = (values: Partial<Record<'AutoLink' | 'AutoLinkRestricted', boolean>>) =>
      server.services.settings.update((settings) => Object.assign(settings.TMDB, values));
    await setTmdb({ AutoLinkRestricted: false });
    expect(await server.services.tmdb.linking.queueAutoMatch(restricted.id)).toBe(false);
    await setTmdb({ AutoLinkRestricted: true, AutoLink: false });
    expect(await server.services.tmdb.linking.queueAutoMatch(restricted.id)).toBe(false);
    await setTmdb({ AutoLink: true });
    expect(await server.services.tmdb.linking.queueAutoMatch(restricted.id)).toBe(true);
    await server.services.queue.idle();
    expect(fake.requests.some((r) => r.includes('query=Himitsu') && r.includes('include_adult=true'))).toBe(true);
  });
});

describe('TMDB without an API key', () => {
  let server: TestServer;
  let fake: FakeTmdb;
  let close: (() => Promise<void>) | undefined;
  let key: string;
  let series: Map<number, number>;
  const api = (method: string, url: string, body?: unknown) => server.request({ method, url, key, body });

  beforeAll(async () => {
    ({ fake, server, key, series, close } = await startWithFake(
      [],
      seeds.filter((s) => s.id === TIDEWATER),
    ));
  });

  afterAll(() => close?.());

  it('sends nothing to TMDB and says why', async () => {
    expect(await server.services.tmdb.linking.queueAutoMatch(TIDEWATER)).toBe(false);
    expect((await api('POST', `/api/v3/Series/${series.get(TIDEWATER)}/TMDB/Action/AutoSearch`)).statusCode).toBe(204);
    expect((await api('POST', `/api/v3/Tmdb/Show/${TIDEWATER_SHOW_ID}/Action/Refresh`, {})).statusCode).toBe(204);
    await server.services.queue.idle();

    const refresh = await api('POST', `/api/v3/Tmdb/Show/${TIDEWATER_SHOW_ID}/Action/Refresh`, { Immediate: true });
    expect(refresh.statusCode).toBe(400);
    expect(refresh.body).toMatch(/TMDB\.UserApiKey/);
    expect((await api('GET', '/api/v3/Tmdb/Show/Online/Search?query=Lanterns')).statusCode).toBe(400);
    expect(fake.requests).toEqual([]);
    expect(await server.services.tmdb.store.showLinksOfAnime(TIDEWATER)).toEqual([]);
    const logged = server.services.logs.backlog().map((line) => line.Message ?? '');
    expect(logged.some((message: string) => message.includes('no TMDB API key is configured'))).toBe(true);
  });
});
