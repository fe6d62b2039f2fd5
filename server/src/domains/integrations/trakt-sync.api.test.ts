import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTrakt, type FakeTrakt } from '../../../../fakes/src/trakt.js';
import { seedTmdbEpisodes, seedTmdbShows } from '../../test/seed-tmdb.js';
import { insertSeries } from '../groups/synthetic.store.js';
import { completeFirstRunWithAniDB, createTestServer, createUser, setEnv, type TestServer } from '../../test/harness.js';

const CLIENT = { id: 'test-client-id', secret: 'test-secret' };
const STAMP = '2024-05-01T10:00:00.000Z';

/**
 * Invented data matching the Trakt fake's catalogue: "Kumo no Ue no Toshokan" (anime 601) is TMDB show 123456 (TVDB
 * 400001) with AniDB episodes 6001–6003 linked to TMDB episodes 3000001–3000003 (Trakt 91001–91003); anime 602 is
 * TMDB movie 654321 (Trakt 80001); anime 603 is TMDB show 777 that Trakt does not know.
 */
describe('Trakt watched-state sync, scrobbles and links against the Trakt fake', () => {
  let server: TestServer;
  let trakt: FakeTrakt;
  let restoreEnv: () => void;
  let adminKey: string;
  let admin: number;
  let viewer: { id: number; key: string };
  const series: Record<number, number> = {};
  const episode: Record<number, number> = {};
  const file: Record<number, number> = {};

  const api = (method: string, url: string, key = adminKey) => server.request({ method, url, key });
  const db = () => server.services.db.kysely;
  const idle = async () => {
    await server.services.integrations.traktScrobbler.idle();
    await server.services.queue.idle();
  };
  const played = () => trakt.history.map((p) => p.trakt).sort((a, b) => a - b);
  const watchedBy = async (userId: number, episodeId: number) =>
    !!(
      await db()
        .selectFrom('user_episode_states')
        .select('watched_at')
        .where('user_id', '=', userId)
        .where('episode_id', '=', episodeId)
        .executeTakeFirst()
    )?.watched_at;
  const setTrakt = (change: Partial<{ AutoLink: boolean; SyncFrequency: number; UpdateFrequency: number; Enabled: boolean }>) =>
    server.services.settings.update((s) => void Object.assign(s.TraktTv, change));

  beforeAll(async () => {
    trakt = await startFakeTrakt({ clientId: CLIENT.id, clientSecret: CLIENT.secret });
    restoreEnv = setEnv({ SHOKO_TRAKT_URL: trakt.url, SHOKO_TRAKT_CLIENT_ID: CLIENT.id, SHOKO_TRAKT_CLIENT_SECRET: CLIENT.secret });
    server = await createTestServer();
    adminKey = await completeFirstRunWithAniDB(server, { username: 'tester', password: 'secret1' });
    admin = (await api('GET', '/api/v3/User/Current')).json().ID;
    viewer = await createUser(server, adminKey, 'viewer', 'viewer-pass');
    // The first admin syncs with Trakt (CommunitySites has Trakt); the viewer does not.
    expect((await api('GET', '/api/v3/User/Current')).json().CommunitySites).toContain('Trakt');

    const written = await insertSeries(db(), [
      { animeId: 601, title: 'Kumo no Ue no Toshokan', episodes: [{ id: 6001, file: true }, { id: 6002, file: true }, { id: 6003 }] },
      { animeId: 602, title: 'Kumo no Ue no Toshokan: Stardust', type: 'Movie', episodes: [{ id: 6101 }] },
      { animeId: 603, title: 'Unknown on Trakt', episodes: [{ id: 6201 }] },
    ]);
    const anidbEpisodes: Record<number, number[]> = { 601: [6001, 6002, 6003], 602: [6101], 603: [6201] };
    for (const [animeId, w] of written) {
      series[animeId] = w.seriesId;
      w.episodeIds.forEach((localId, i) => (episode[anidbEpisodes[animeId][i]] = localId));
    }
    for (const anidbEpisode of [6001, 6002]) {
      const row = await db()
        .selectFrom('files')
        .innerJoin('file_episode_links as l', (j) => j.onRef('l.ed2k', '=', 'files.ed2k').onRef('l.size', '=', 'files.size'))
        .select('files.id')
        .where('l.episode_id', '=', anidbEpisode)
        .executeTakeFirstOrThrow();
      file[anidbEpisode] = row.id;
    }
    // 24 minutes long, so players' positions become percentages.
    await db()
      .updateTable('files')
      .set({ media_info: JSON.stringify({ Duration: '00:24:00' }) })
      .execute();

    const stored = { created_at: STAMP, updated_at: STAMP };
    await seedTmdbShows(server, [
      { id: 123456, tvdb_id: 400001, title: 'The Library Above the Clouds', ...stored },
      { id: 777, tvdb_id: 888, title: 'Unknown', ...stored },
    ]);
    const tmdbEpisode = (id: number, showId: number, number: number) => ({
      id,
      show_id: showId,
      season_id: showId * 10 + 1,
      season_number: 1,
      episode_number: number,
      ...stored,
    });
    await seedTmdbEpisodes(server, [
      tmdbEpisode(3000001, 123456, 1),
      tmdbEpisode(3000002, 123456, 2),
      tmdbEpisode(3000003, 123456, 3),
      tmdbEpisode(7771, 777, 1),
    ]);
    await db()
      .insertInto('xref_anidb_tmdb_show')
      .values([
        { anime_id: 601, show_id: 123456, source: 'User' },
        { anime_id: 603, show_id: 777, source: 'User' },
      ])
      .execute();
    const link = (animeId: number, anidbEpisode: number, showId: number, tmdbEpisode: number) => ({
      anime_id: animeId,
      anidb_episode_id: anidbEpisode,
      show_id: showId,
      tmdb_episode_id: tmdbEpisode,
      ordering: 0,
      rating: 'UserVerified',
    });
    await db()
      .insertInto('xref_anidb_tmdb_episode')
      .values([
        link(601, 6001, 123456, 3000001),
        link(601, 6002, 123456, 3000002),
        link(601, 6003, 123456, 3000003),
        link(603, 6201, 777, 7771),
      ])
      .execute();
    await db()
      .insertInto('xref_anidb_tmdb_movie')
      .values({ anime_id: 602, anidb_episode_id: 6101, movie_id: 654321, source: 'User' })
      .execute();

    const token = trakt.issueToken();
    await server.services.settings.update((s) => {
      s.TraktTv.Enabled = true;
      s.TraktTv.AuthToken = token.accessToken;
      s.TraktTv.RefreshToken = token.refreshToken;
      s.TraktTv.TokenExpirationDate = String(token.createdAt + token.expiresIn);
      s.TraktTv.AutoLink = false;
    });
  });
  afterAll(async () => {
    await server?.close();
    await trakt?.close();
    restoreEnv();
  });

  it('without Auto Link, a watched toggle of a series not linked on Trakt sends nothing', async () => {
    expect((await api('POST', `/api/v3/Episode/${episode[6001]}/Watched/true`)).statusCode).toBe(200);
    expect((await api('POST', `/api/v3/Episode/${episode[6002]}/Watched/true`)).statusCode).toBe(200);
    await idle();
    expect(trakt.history).toEqual([]);
    expect(trakt.requests.filter((r) => r.startsWith('GET /search'))).toEqual([]);
  });

  it('Series/{id}/Trakt/SendWatchStates links the show by its TMDB id and adds the watched episodes to the history', async () => {
    const res = await api('POST', `/api/v3/Series/${series[601]}/Trakt/SendWatchStates`);
    expect(res.statusCode, res.body).toBe(200);
    await idle();
    expect(trakt.requests).toContain('GET /search/tmdb/123456');
    expect(played()).toEqual([91001, 91002]);
    const links = await db().selectFrom('trakt_links').selectAll().where('anime_id', '=', 601).execute();
    expect(links).toMatchObject([{ kind: 'show', tmdb_id: 123456, trakt_id: 90001, slug: 'the-library-above-the-clouds' }]);
    // Sent again: Trakt already has them, nothing is added twice.
    expect((await api('POST', `/api/v3/Series/${series[601]}/Trakt/SendWatchStates`)).statusCode).toBe(200);
    await idle();
    expect(played()).toEqual([91001, 91002]);
  });

  it('Series/{id}/Trakt/GetWatchStates marks what Trakt has watched for the users who sync with Trakt only', async () => {
    trakt.history.push({ kind: 'episode', trakt: 91003, watchedAt: '2024-07-02T10:00:00.000Z' });
    const requestsBefore = trakt.requests.length;
    expect((await api('POST', `/api/v3/Series/${series[601]}/Trakt/GetWatchStates`)).statusCode).toBe(200);
    await idle();
    expect(await watchedBy(admin, episode[6003])).toBe(true);
    expect(await watchedBy(viewer.id, episode[6003])).toBe(false);
    // What came from Trakt is not sent back.
    expect(trakt.requests.slice(requestsBefore).filter((r) => r.startsWith('POST'))).toEqual([]);
    expect(played()).toEqual([91001, 91002, 91003]);
  });

  it('watched toggles of a linked series follow to Trakt; unwatching removes the play', async () => {
    expect((await api('POST', `/api/v3/Episode/${episode[6003]}/Watched/false`)).statusCode).toBe(200);
    await idle();
    expect(played()).toEqual([91001, 91002]);
    expect((await api('POST', `/api/v3/Episode/${episode[6003]}/Watched/true`)).statusCode).toBe(200);
    await idle();
    expect(played()).toEqual([91001, 91002, 91003]);
    // A user who does not sync with Trakt changes nothing there.
    expect((await api('POST', `/api/v3/Episode/${episode[6003]}/Watched/false`, viewer.key)).statusCode).toBe(200);
    expect((await api('POST', `/api/v3/Episode/${episode[6001]}/Watched/true`, viewer.key)).statusCode).toBe(200);
    await idle();
    expect(played()).toEqual([91001, 91002, 91003]);
  });

  it('players\u2019 reports (File/{id}/Scrobble) become Trakt scrobbles: start, pause, stop at the reported progress', async () => {
    expect((await api('POST', `/api/v3/Episode/${episode[6002]}/Watched/false`)).statusCode).toBe(200);
    await idle();
    expect(played()).toEqual([91001, 91003]);
    const scrobble = (query: string) => api('GET', `/api/v3/File/${file[6002]}/Scrobble?${query}`);
    expect((await scrobble('event=play&resumePosition=00:06:00')).statusCode).toBe(202);
    expect((await scrobble('event=pause&resumePosition=00:12:00')).statusCode).toBe(202);
    expect((await scrobble('event=resume&resumePosition=00:12:00')).statusCode).toBe(202);
    // The end of the file: watched, and Trakt records the play itself.
    expect((await scrobble('event=stop&resumePosition=00:24:00')).statusCode).toBe(202);
    await idle();
    expect(trakt.scrobbles).toEqual([
      { action: 'start', kind: 'episode', trakt: 91002, progress: 25 },
      { action: 'pause', kind: 'episode', trakt: 91002, progress: 50 },
      { action: 'start', kind: 'episode', trakt: 91002, progress: 50 },
      { action: 'stop', kind: 'episode', trakt: 91002, progress: 100 },
    ]);
    expect(await watchedBy(admin, episode[6002])).toBe(true);
    // One play from the scrobble, none added again by the watched change it caused.
    expect(played()).toEqual([91001, 91002, 91003]);
    // A viewer's player is not scrobbled to the server's Trakt account.
    await api('GET', `/api/v3/File/${file[6002]}/Scrobble?event=play&resumePosition=00:01:00`, viewer.key);
    await idle();
    expect(trakt.scrobbles).toHaveLength(4);
  });

  it('Auto Link: the whole-collection actions link every series with TMDB links, movies by TMDB id, TVDB as fallback', async () => {
    expect((await api('POST', `/api/v3/Episode/${episode[6101]}/Watched/true`)).statusCode).toBe(200);
    await idle();
    // Not linked and no Auto Link: the movie is left alone, also by the collection-wide send.
    expect((await api('GET', '/api/v3/Action/SendWatchStatesToTrakt')).statusCode).toBe(200);
    await idle();
    expect(trakt.history.filter((p) => p.kind === 'movie')).toEqual([]);

    await setTrakt({ AutoLink: true });
    expect((await api('GET', '/api/v3/Action/SendWatchStatesToTrakt')).statusCode).toBe(200);
    await idle();
    expect(trakt.history.filter((p) => p.kind === 'movie').map((p) => p.trakt)).toEqual([80001]);
    expect(trakt.requests).toEqual(expect.arrayContaining(['GET /search/tmdb/654321', 'GET /search/tmdb/777', 'GET /search/tvdb/888']));
    const unknown = await db().selectFrom('trakt_links').selectAll().where('anime_id', '=', 603).execute();
    expect(unknown).toMatchObject([{ kind: 'show', tmdb_id: 777, trakt_id: null }]);

    // Get from Trakt for everything: a movie play there marks the movie's episode watched here.
    expect((await api('POST', `/api/v3/Episode/${episode[6101]}/Watched/false`)).statusCode).toBe(200);
    await idle();
    expect(trakt.history.filter((p) => p.kind === 'movie')).toEqual([]);
    trakt.history.push({ kind: 'movie', trakt: 80001, watchedAt: '2024-07-03T10:00:00.000Z' });
    expect((await api('GET', '/api/v3/Action/GetWatchStatesFromTrakt')).statusCode).toBe(200);
    await idle();
    expect(await watchedBy(admin, episode[6101])).toBe(true);
  });

  it('links are looked up again only as often as Update Frequency says', async () => {
    const searches = () => trakt.requests.filter((r) => r === 'GET /search/tmdb/123456').length;
    const before = searches();
    await setTrakt({ UpdateFrequency: 4 });
    expect((await api('POST', `/api/v3/Series/${series[601]}/Trakt/SendWatchStates`)).statusCode).toBe(200);
    await idle();
    expect(searches()).toBe(before);
    // A link checked two days ago is due again with a daily update.
    await db()
      .updateTable('trakt_links')
      .set({ checked_at: new Date(Date.now() - 2 * 86_400_000).toISOString() })
      .where('anime_id', '=', 601)
      .execute();
    expect((await api('POST', `/api/v3/Series/${series[601]}/Trakt/SendWatchStates`)).statusCode).toBe(200);
    await idle();
    expect(searches()).toBe(before + 1);
  });

  it('the periodic two-way sync runs as often as Sync Frequency says, and never with Never', async () => {
    const sync = server.services.integrations.traktSync;
    await setTrakt({ SyncFrequency: 1 });
    expect(await sync.tick()).toBe(false);
    await setTrakt({ SyncFrequency: 4 });
    trakt.history.push({ kind: 'episode', trakt: 91002, watchedAt: '2024-07-04T10:00:00.000Z' });
    expect((await api('POST', `/api/v3/Episode/${episode[6002]}/Watched/false`)).statusCode).toBe(200);
    await idle();
    trakt.history.push({ kind: 'episode', trakt: 91002, watchedAt: '2024-07-04T10:00:00.000Z' });
    expect(await sync.tick()).toBe(true);
    await idle();
    // Both ways: Trakt's play came here.
    expect(await watchedBy(admin, episode[6002])).toBe(true);
    // Ran just now: not due again for a day.
    expect(await sync.tick()).toBe(false);
    await db()
      .updateTable('trakt_task_runs')
      .set({ ran_at: new Date(Date.now() - 25 * 3_600_000).toISOString() })
      .execute();
    expect(await sync.tick()).toBe(true);
    await idle();
    // Disabled: nothing runs.
    await db()
      .updateTable('trakt_task_runs')
      .set({ ran_at: new Date(Date.now() - 25 * 3_600_000).toISOString() })
      .execute();
    await setTrakt({ Enabled: false });
    expect(await sync.tick()).toBe(false);
    await setTrakt({ Enabled: true });
  });

  it("respects Trakt's limits: a 429 waits for its Retry-After; writes never come faster than one a second", async () => {
    trakt.rateLimitNext(1, 1);
    expect((await api('POST', `/api/v3/Episode/${episode[6001]}/Watched/false`)).statusCode).toBe(200);
    await idle();
    expect(trakt.requests.filter((r) => r === 'POST /sync/history/remove').length).toBeGreaterThanOrEqual(2);
    expect(played()).not.toContain(91001);
    // Every request above came inside the limits the fake enforces.
    expect(trakt.violations).toEqual([]);
  });

  it('a refused access token is refreshed once and the call sent again', async () => {
    const before = server.services.settings.current.TraktTv.AuthToken;
    trakt.revokeAccessTokens();
    expect((await api('POST', `/api/v3/Episode/${episode[6001]}/Watched/true`)).statusCode).toBe(200);
    await idle();
    expect(played()).toContain(91001);
    expect(server.services.settings.current.TraktTv.AuthToken).not.toBe(before);
    expect(server.services.settings.current.TraktTv.AuthToken).toBe(trakt.tokens.at(-1)!.accessToken);
  });

  it('the Trakt sync routes stay admin-only', async () => {
    expect((await api('POST', `/api/v3/Series/${series[601]}/Trakt/SendWatchStates`, viewer.key)).statusCode).toBe(403);
    expect((await api('GET', '/api/v3/Action/GetWatchStatesFromTrakt', viewer.key)).statusCode).toBe(403);
  });
});
