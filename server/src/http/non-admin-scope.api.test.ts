import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, login, type TestServer } from '../test/harness.js';
import { insertSeries } from '../domains/groups/synthetic.store.js';
import { ROUTE_CLASSES } from './access-policy.js';

const PNG_1X1 = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const ONE_MINUTE_TICKS = 60 * 10_000_000;

/**
 * A family member's account (issue 44): not an admin, with a tag restriction. It does everything in its own scope —
 * reads what it may see, its watch state, resume positions, votes, keys, password, avatar — and is told why for the
 * changes that would reach everyone, which stay undone.
 */
describe('a non-admin account with tag restrictions', () => {
  let server: TestServer;
  let adminKey: string;
  let key: string;
  let visibleSeries = 0;
  let hiddenSeries = 0;
  let episode = 0;
  let file = 0;
  let hiddenFile = 0;

  const as = (apiKey: string, method: string, url: string, body?: unknown) => server.request({ method, url, key: apiKey, body });
  const me = (method: string, url: string, body?: unknown) => as(key, method, url, body);

  beforeAll(async () => {
    server = await createTestServer();
    adminKey = await completeFirstRun(server);
    const db = server.services.db.kysely;
    const written = await insertSeries(db, [
      {
        animeId: 501,
        title: 'Open Sky',
        airDate: '2021-01-01',
        tags: [{ id: 801, name: 'comedy' }],
        episodes: [
          { id: 5001, file: true },
          { id: 5002, file: true },
        ],
      },
      {
        animeId: 502,
        title: 'Night Cellar',
        airDate: '2021-01-01',
        tags: [{ id: 901, name: 'gore' }],
        episodes: [{ id: 5011, file: true }],
      },
    ]);
    visibleSeries = written.get(501)!.seriesId;
    hiddenSeries = written.get(502)!.seriesId;
    episode = written.get(501)!.episodeIds[0]!;
    const fileOf = async (episodeId: number) =>
      ((await as(adminKey, 'GET', `/api/v3/Episode/${episodeId}/File`)).json() as { List: Array<{ ID: number }> }).List[0]!.ID;
    file = await fileOf(episode);
    hiddenFile = await fileOf(written.get(502)!.episodeIds[0]!);
    const created = await as(adminKey, 'POST', '/api/v3/User', {
      Username: 'family',
      Password: 'family-pass',
      IsAdmin: false,
      RestrictedTags: [901],
    });
    expect(created.statusCode, created.body).toBe(200);
    key = await login(server, 'family', 'family-pass', 'family-tablet');
  });
  afterAll(() => server?.close());

  it('reads the series, episodes and files its restrictions let it see, and lists the filters', async () => {
    expect((await me('GET', `/api/v3/Series/${visibleSeries}`)).json()).toMatchObject({ Name: 'Open Sky' });
    expect((await me('GET', `/api/v3/Series/${hiddenSeries}`)).statusCode).toBe(403);
    const series = (await me('GET', '/api/v3/Series?pageSize=0')).json() as { List: Array<{ Name: string }> };
    expect(series.List.map((s) => s.Name)).toEqual(['Open Sky']);
    expect((await me('GET', `/api/v3/Series/${visibleSeries}/Episode?pageSize=0`)).json().Total).toBe(2);
    expect((await me('GET', `/api/v3/Episode/${episode}`)).statusCode).toBe(200);
    expect((await me('GET', `/api/v3/File/${file}`)).json()).toMatchObject({ ID: file });
    expect((await me('GET', `/api/v3/Series/${visibleSeries}/File`)).statusCode).toBe(200);
    expect((await me('GET', `/api/v3/File/${hiddenFile}/Episode`)).statusCode).toBe(403);
    const filters = await me('GET', '/api/v3/Filter?pageSize=0');
    expect(filters.statusCode).toBe(200);
    expect(filters.json().Total).toBeGreaterThan(0);
    const groups = (await me('GET', '/api/v3/Filter/0/Group?pageSize=0')).json() as { List: Array<{ Name: string }> };
    expect(groups.List.map((g) => g.Name)).toEqual(['Open Sky']);
  });

  it('marks its own watch state and keeps a resume position through Scrobble', async () => {
    expect((await me('POST', `/api/v3/Episode/${episode}/Watched/true`)).statusCode).toBe(200);
    expect((await me('GET', `/api/v3/Episode/${episode}`)).json().Watched).not.toBeNull();
    expect((await as(adminKey, 'GET', `/api/v3/Episode/${episode}`)).json().Watched).toBeNull();
    expect((await me('POST', `/api/v3/File/${file}/Watched/true`)).statusCode).toBe(200);
    expect((await me('GET', `/api/v3/File/${file}/UserStats`)).json()).toMatchObject({ WatchedCount: 1 });
    const scrobbled = await me('PATCH', `/api/v3/File/${file}/Scrobble?event=pause&resumePosition=${ONE_MINUTE_TICKS}`);
    expect(scrobbled.statusCode).toBe(202);
    expect((await me('GET', `/api/v3/File/${file}/UserStats`)).json()).toMatchObject({ ResumePosition: '00:01:00' });
    // The admin's own state is untouched.
    expect((await as(adminKey, 'GET', `/api/v3/File/${file}/UserStats`)).statusCode).toBe(404);
  });

  it('votes on a series and an episode', async () => {
    expect((await me('POST', `/api/v3/Series/${visibleSeries}/Vote`, { Value: 8, MaxValue: 10 })).statusCode).toBe(204);
    expect((await me('GET', `/api/v3/Series/${visibleSeries}`)).json().UserRating).toMatchObject({ Value: 8, MaxValue: 10 });
    expect((await me('POST', `/api/v3/Episode/${episode}/Vote`, { Value: 4, MaxValue: 5 })).statusCode).toBe(204);
  });

  it('makes and revokes its own API keys, changes its password and its avatar', async () => {
    const made = await me('POST', '/api/auth/apikey', 'family-script');
    expect(made.statusCode).toBe(200);
    const scriptKey = made.body;
    expect((await as(scriptKey, 'GET', '/api/v3/User/Current')).json()).toMatchObject({ Username: 'family', IsAdmin: false });
    expect(((await me('GET', '/api/auth')).json() as Array<{ Device: string }>).map((k) => k.Device)).toContain('family-script');
    expect((await me('DELETE', '/api/auth', 'family-script')).statusCode).toBe(200);
    expect((await as(scriptKey, 'GET', '/api/v3/User/Current')).statusCode).toBe(401);

    const changed = await me('POST', '/api/v3/User/Current/ChangePassword', { Password: 'new-family-pass', RevokeAPIKeys: false });
    expect(changed.statusCode).toBe(200);
    expect(await login(server, 'family', 'new-family-pass')).toBeTruthy();

    const avatar = await me('PUT', '/api/v3/User/Current', { Avatar: PNG_1X1 });
    expect(avatar.statusCode, avatar.body).toBe(200);
    expect((await me('GET', '/api/v3/User/Current')).json().Avatar).toMatch(/^data:image\//);
  });

  it('reads the console themes; the console settings, shared by everyone, are for admins', async () => {
    expect((await me('GET', '/api/v3/WebUI/Theme')).statusCode).toBe(200);
    // The legacy per-console settings routes are stubs (always 400), not refused.
    expect((await me('GET', '/api/webui/config')).statusCode).toBe(400);
    const settings = await me('PATCH', '/api/v3/Settings', [{ op: 'replace', path: '/WebUI_Settings', value: '{}' }]);
    expect(settings.statusCode).toBe(403);
    expect(settings.json().detail).toBe(ROUTE_CLASSES.settings.reason);
  });

  it('is told why for changes that reach everyone, and nothing changes', async () => {
    const ignore = await me('PUT', `/api/v3/File/${file}/Ignore?value=true`);
    expect(ignore.statusCode).toBe(403);
    expect(ignore.json()).toMatchObject({ title: 'Forbidden', status: 403, detail: ROUTE_CLASSES.files.reason });
    expect((await as(adminKey, 'GET', `/api/v3/File/${file}`)).json().IsIgnored).toBe(false);

    const group = (await me('GET', `/api/v3/Series/${visibleSeries}/Group`)).json() as { IDs: { ID: number }; Name: string };
    const rename = await me('PUT', `/api/v3/Group/${group.IDs.ID}`, { Name: 'Mine now' });
    expect(rename.json()).toMatchObject({ status: 403, detail: ROUTE_CLASSES.collection.reason });
    expect((await as(adminKey, 'GET', `/api/v3/Group/${group.IDs.ID}`)).json().Name).toBe(group.Name);

    const refresh = await me('POST', `/api/v3/Series/${visibleSeries}/AniDB/Refresh`);
    expect(refresh.json()).toMatchObject({ status: 403, detail: ROUTE_CLASSES.metadata.reason });
    const runImport = await me('GET', '/api/v3/Action/RunImport');
    expect(runImport.json()).toMatchObject({ status: 403, detail: ROUTE_CLASSES.jobs.reason });
    expect((await me('GET', '/api/v3/Queue/DebugStats')).json()).toMatchObject({ status: 403, detail: ROUTE_CLASSES.server.reason });
  });
});
