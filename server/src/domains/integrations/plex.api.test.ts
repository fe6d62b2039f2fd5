import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_PLEX_SERVER_ID, startFakePlex, type FakePlex } from '../../../../fakes/src/plex.js';
import { completeFirstRunWithAniDB, createTestServer, createUser, setEnv, type TestServer } from '../../test/harness.js';
import { seedFile, seedImportFolder } from '../../test/seed-files.js';
import { PLEX_CLIENT_ID } from './plex.client.js';
import { NO_DIRECTORIES } from './plex.service.js';

describe('Plex PIN login, servers and libraries against the Plex fakes', () => {
  let server: TestServer;
  let plex: FakePlex;
  let restoreEnv: () => void;
  let adminKey: string;
  let admin: number;
  let viewer: { id: number; key: string };

  const api = (method: string, url: string, body?: unknown, key = adminKey) => server.request({ method, url, key, body });
  const tokenOf = async (userId: number) =>
    (await server.services.db.kysely.selectFrom('users').select('plex_token').where('id', '=', userId).executeTakeFirstOrThrow())
      .plex_token;
  const authenticated = async (key = adminKey) => (await api('GET', '/plex/pin/authenticated', undefined, key)).json() as boolean;
  const loginCode = async (key = adminKey) => {
    const res = await api('GET', '/plex/loginurl', undefined, key);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const match = new RegExp(`^${plex.url}/auth#\\?clientID=${PLEX_CLIENT_ID}&code=([0-9a-f]+)$`).exec(res.body);
    expect(match, res.body).not.toBeNull();
    return match![1];
  };

  beforeAll(async () => {
    plex = await startFakePlex();
    restoreEnv = setEnv({ SHOKO_PLEXTV_URL: plex.url, SHOKO_PLEX_APP_URL: plex.url });
    server = await createTestServer();
    adminKey = await completeFirstRunWithAniDB(server, { username: 'tester', password: 'secret1' });
    admin = (await api('GET', '/api/v3/User/Current')).json().ID;
    viewer = await createUser(server, adminKey, 'viewer', 'viewer-pass');
  });
  afterAll(async () => {
    await server.close();
    await plex.close();
    restoreEnv();
  });

  it('needs a key on every helper route', async () => {
    for (const [method, url] of [
      ['GET', '/plex/sync'],
      ['GET', '/plex/sync/all'],
      ['GET', '/plex/loginurl'],
      ['GET', '/plex/pin/authenticated'],
      ['GET', '/plex/server/list'],
      ['GET', '/plex/libraries'],
      ['POST', '/plex/libraries'],
      ['POST', '/plex/server'],
      ['GET', '/plex/token/invalidate'],
    ]) {
      expect((await server.request({ method, url })).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('hands out the app.plex.tv login URL of one strong PIN, reused while it is valid', async () => {
    const code = await loginCode();
    expect(await loginCode()).toBe(code);
    expect(plex.pins).toHaveLength(1);
    expect(plex.pins[0]).toMatchObject({ code, clientIdentifier: PLEX_CLIENT_ID });
    expect(plex.requests.filter((r) => r === 'tv POST /api/v2/pins')).toHaveLength(1);
  });

  it('is not authenticated until the PIN is approved, then saves the token on the caller only', async () => {
    expect(await authenticated()).toBe(false);
    expect(await tokenOf(admin)).toBeNull();

    plex.approvePin(plex.pins[0].id);
    expect(await authenticated()).toBe(true);
    expect(await tokenOf(admin)).toBe(plex.userToken);
    expect(await authenticated(viewer.key)).toBe(false);
    expect(await tokenOf(viewer.id)).toBeNull();

    // A positive answer is remembered: the next poll does not ask plex.tv again.
    const accountChecks = () => plex.requests.filter((r) => r === 'tv GET /users/account.json').length;
    const before = accountChecks();
    expect(await authenticated()).toBe(true);
    expect(accountChecks()).toBe(before);

    const user = (await api('GET', '/api/v3/User/Current')).json();
    expect(user.CommunitySites).toContain('Plex');
    expect(JSON.stringify(user)).not.toContain(plex.userToken);
  });

  it("lists the account's media servers without their access tokens; other users see none", async () => {
    const res = await api('GET', '/plex/server/list');
    expect(res.statusCode).toBe(200);
    const servers = res.json();
    expect(servers).toHaveLength(1);
    expect(servers[0]).toMatchObject({
      Name: 'HomeMedia',
      ClientIdentifier: FAKE_PLEX_SERVER_ID,
      Provides: 'server',
      Product: 'Plex Media Server',
      AccessToken: '',
    });
    expect(servers[0].Connection).toHaveLength(2);
    expect(res.body).not.toContain(plex.serverToken);
    expect((await api('GET', '/plex/server/list', undefined, viewer.key)).json()).toEqual([]);
  });

  it('selects a server by client identifier', async () => {
    let res = await api('GET', '/plex/libraries');
    expect([res.statusCode, res.body]).toEqual([404, NO_DIRECTORIES]);
    for (const body of ['phone-01', 'unknown-server', '']) {
      res = await api('POST', '/plex/server', body);
      expect([res.statusCode, res.body], body).toEqual([400, 'Invalid Client ID']);
    }
    res = await api('POST', '/plex/server', FAKE_PLEX_SERVER_ID);
    expect([res.statusCode, res.body]).toEqual([200, '']);
    expect((await api('GET', '/api/v3/Settings')).json().Plex).toEqual({ Libraries: [], Server: FAKE_PLEX_SERVER_ID });
  });

  it("reads the selected server's libraries through the connection that answers", async () => {
    const res = await api('GET', '/plex/libraries');
    expect(res.statusCode).toBe(200);
    const libraries = res.json();
    expect(libraries.map((l: { Key: number; Agent: string; Type: number }) => [l.Key, l.Agent, l.Type])).toEqual([
      [2, 'com.plexapp.agents.shoko', 1],
      [3, 'com.plexapp.agents.shokorelay', 1],
      [4, 'tv.plex.agents.series', 1],
    ]);
    expect(libraries[1]).toMatchObject({
      Title: 'Anime',
      Scanner: 'Shoko Relay Scanner',
      Location: [{ Id: 3, Path: '/media/anime' }],
      AllowSync: true,
      UpdatedAt: 1719900000,
    });
    // The media server was asked with its own token, never the user's.
    expect(plex.requests).toContain('pms GET /library/sections');
  });

  it('stores only library keys the server has; [] clears', async () => {
    let res = await api('POST', '/plex/libraries', [3, 99, 3]);
    expect(res.statusCode).toBe(200);
    expect((await api('GET', '/api/v3/Settings')).json().Plex.Libraries).toEqual([3]);
    res = await api('POST', '/plex/libraries', [99]);
    expect([res.statusCode, res.body]).toEqual([400, NO_DIRECTORIES]);
    expect(server.services.settings.current.Plex.Libraries).toEqual([3]);
    res = await api('POST', '/plex/libraries', ['three']);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['0']);
    res = await api('POST', '/plex/libraries', { keys: [3] });
    expect(res.statusCode).toBe(400);
    // A body of null is coerced as the schema says ([0], a key the server lacks), never handed on as null (a 500).
    res = await api('POST', '/plex/libraries', null);
    expect([res.statusCode, res.body]).toEqual([400, NO_DIRECTORIES]);
    expect(server.services.settings.current.Plex.Libraries).toEqual([3]);
    res = await api('POST', '/plex/libraries', []);
    expect(res.statusCode).toBe(200);
    expect(server.services.settings.current.Plex.Libraries).toEqual([]);
  });

  let folderId = 0;
  const addFile = async (relativePath: string, size: number) => {
    if (!folderId) folderId = await seedImportFolder(server, 'Anime', '/srv/anime');
    return seedFile(server, { size, ed2k: '', location: { importFolderId: folderId, relativePath } });
  };
  const watched = async (id: number, userId = admin) =>
    !!(
      await server.services.db.kysely
        .selectFrom('user_file_states')
        .select('watched_at')
        .where('user_id', '=', userId)
        .where('file_id', '=', id)
        .executeTakeFirst()
    )?.watched_at;
  const sync = async (url = '/plex/sync') => {
    expect((await api('GET', url)).statusCode).toBe(200);
    await server.services.queue.idle();
  };

  it('syncs watched states both ways for files matched by folder and file name', async () => {
    // Same file name in another folder: not the episode Plex has.
    const decoy = await addFile('Other Show/Kumo no Ue no Toshokan - 01.mkv', 1000);
    const fileId = await addFile('Kumo no Ue no Toshokan/Kumo no Ue no Toshokan - 01.mkv', 2000);
    await api('POST', '/plex/libraries', [3]);
    // Unwatched on both sides: nothing happens.
    await sync();
    expect(plex.scrobbled).toEqual([]);
    expect(await watched(fileId)).toBe(false);

    // Watched here only → scrobbled in Plex.
    expect((await api('POST', `/api/v3/File/${fileId}/Watched/true`)).statusCode).toBe(200);
    await sync();
    expect(plex.scrobbled).toEqual(['205']);

    // Watched in Plex only → marked watched here, on the matching file only.
    expect((await api('POST', `/api/v3/File/${fileId}/Watched/false`)).statusCode).toBe(200);
    await sync();
    expect(await watched(fileId)).toBe(true);
    expect(await watched(decoy)).toBe(false);
    expect(plex.scrobbled).toEqual(['205']);
  });

  it('sync routes: admins queue any linked user; users without Plex are refused', async () => {
    expect((await api('GET', '/plex/sync/all', undefined, viewer.key)).statusCode).toBe(403);
    expect((await api('GET', `/plex/sync/${admin}`, undefined, viewer.key)).statusCode).toBe(403);
    expect((await api('GET', '/plex/sync/all')).statusCode).toBe(200);
    let res = await api('GET', `/plex/sync/${viewer.id}`);
    expect([res.statusCode, res.body]).toEqual([400, 'Invalid User ID']);
    res = await api('GET', '/plex/sync/999999');
    expect([res.statusCode, res.body]).toEqual([400, 'Invalid User ID']);
    expect((await api('GET', `/plex/sync/${admin}`)).statusCode).toBe(200);
    await server.services.queue.idle();
  });

  it('syncs only the selected libraries', async () => {
    // Watched in Plex, in section 2 ("Anime (ShokoMetadata)").
    const legacy = await addFile('Hoshi no Tsuri/Hoshi no Tsuri - 01.mkv', 3000);
    await api('POST', '/plex/libraries', [3]);
    await sync();
    expect(await watched(legacy)).toBe(false);
    expect(plex.requests).not.toContain('pms GET /library/sections/2/all');
    await api('POST', '/plex/libraries', [2]);
    await sync();
    expect(plex.requests).toContain('pms GET /library/sections/2/all');
    expect(await watched(legacy)).toBe(true);
  });

  it('sync/{id} syncs the user it names; sync/all and Action/PlexSyncAll sync every user with Plex linked', async () => {
    const legacy = (await server.services.db.kysely
      .selectFrom('file_locations')
      .select('file_id')
      .where('relative_path', '=', 'Hoshi no Tsuri/Hoshi no Tsuri - 01.mkv')
      .executeTakeFirstOrThrow())!.file_id;
    // The viewer links the same Plex account.
    await server.services.db.kysely.updateTable('users').set({ plex_token: plex.userToken }).where('id', '=', viewer.id).execute();
    await sync(`/plex/sync/${viewer.id}`);
    expect(await watched(legacy, viewer.id)).toBe(true);

    for (const url of ['/plex/sync/all', '/api/v3/Action/PlexSyncAll']) {
      for (const userId of [admin, viewer.id]) await server.services.scrobble.setWatched(userId, legacy, false);
      await sync(url);
      expect([url, await watched(legacy, admin), await watched(legacy, viewer.id)]).toEqual([url, true, true]);
    }
    await server.services.db.kysely.updateTable('users').set({ plex_token: null }).where('id', '=', viewer.id).execute();
  });

  it('unlinks: the token is forgotten, server and libraries stay until the console clears them', async () => {
    await api('POST', '/plex/libraries', [2, 3]);
    const res = await api('GET', '/plex/token/invalidate');
    expect([res.statusCode, res.json()]).toEqual([200, true]);
    expect(await tokenOf(admin)).toBeNull();
    expect(await authenticated()).toBe(false);
    expect((await api('GET', '/plex/server/list')).json()).toEqual([]);
    expect(server.services.settings.current.Plex).toEqual({ Libraries: [2, 3], Server: FAKE_PLEX_SERVER_ID });
    const patch = await api('PATCH', '/api/v3/Settings', [
      { op: 'replace', path: '/Plex/Server', value: '' },
      { op: 'remove', path: '/Plex/Libraries/1' },
      { op: 'remove', path: '/Plex/Libraries/0' },
    ]);
    expect(patch.statusCode).toBe(200);
    expect(server.services.settings.current.Plex).toEqual({ Libraries: [], Server: '' });
  });

  it('an expired PIN is dropped and the next login URL carries a new one', async () => {
    const code = await loginCode(viewer.key);
    plex.expirePin(code);
    expect(await authenticated(viewer.key)).toBe(false);
    const next = await loginCode(viewer.key);
    expect(next).not.toBe(code);
    plex.approvePin(next);
    expect(await authenticated(viewer.key)).toBe(true);
    expect(await tokenOf(viewer.id)).toBe(plex.userToken);
  });

  it('a token plex.tv revoked (422) is removed', async () => {
    await loginCode();
    plex.approvePin(plex.pins.at(-1)!.id);
    plex.invalidateUserToken();
    expect(await authenticated()).toBe(false);
    expect(await tokenOf(admin)).toBeNull();
    expect((await api('GET', '/api/v3/User/Current')).json().CommunitySites).not.toContain('Plex');
  });
});
