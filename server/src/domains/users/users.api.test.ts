import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, createUser, login, type TestServer } from '../../test/harness.js';

// 1×1 PNG and a 600×10 PNG header (only the header is read for dimensions).
const PNG_1X1 = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const pngHeader = (w: number, h: number) => {
  const b = Buffer.alloc(33);
  b.writeUInt32BE(0x89504e47, 0);
  b.writeUInt32BE(0x0d0a1a0a, 4);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'ascii');
  b.writeUInt32BE(w, 16);
  b.writeUInt32BE(h, 20);
  return `data:image/png;base64,${b.toString('base64')}`;
};

describe('users API', () => {
  let server: TestServer;
  let adminKey: string;
  let adminId: number;

  beforeAll(async () => {
    server = await createTestServer();
    adminKey = await completeFirstRun(server);
    adminId = (await server.request({ method: 'GET', url: '/api/v3/User/Current', key: adminKey })).json().ID;
  });
  afterAll(() => server.close());

  it('creates only the first-run admin on start (no password-less extra admin)', async () => {
    const users = (await server.request({ method: 'GET', url: '/api/v3/User', key: adminKey })).json();
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({
      Username: 'Default',
      IsAdmin: true,
      CommunitySites: ['AniDB', 'Trakt'],
      RestrictedTags: [],
      Avatar: '',
      PlexUsernames: '',
    });
  });

  it('creates, updates and deletes a user with the contract shapes', async () => {
    const created = await server.request({
      method: 'POST',
      url: '/api/v3/User',
      key: adminKey,
      body: { Username: 'carol', Password: 'pw', CommunitySites: ['AniDB'], RestrictedTags: [5, 5, 7], PlexUsernames: ' carolplex ' },
    });
    expect(created.statusCode).toBe(200);
    const carol = created.json();
    expect(carol).toMatchObject({
      Username: 'carol',
      IsAdmin: false,
      CommunitySites: ['AniDB'],
      RestrictedTags: [5, 7],
      PlexUsernames: 'carolplex',
    });

    const updated = await server.request({
      method: 'PUT',
      url: `/api/v3/User/${carol.ID}`,
      key: adminKey,
      body: { Username: 'Caroline', CommunitySites: ['Trakt', 'Plex'], Avatar: PNG_1X1, IsAdmin: true },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      Username: 'Caroline',
      IsAdmin: true,
      CommunitySites: ['Trakt'],
      Avatar: PNG_1X1,
      RestrictedTags: [5, 7],
    });

    expect((await server.request({ method: 'DELETE', url: `/api/v3/User/${carol.ID}`, key: adminKey })).statusCode).toBe(200);
    const gone = await server.request({ method: 'GET', url: `/api/v3/User/${carol.ID}`, key: adminKey });
    expect(gone.statusCode).toBe(404);
    expect(gone.body).toBe("An user by the given `userID` doesn't exist.");
  });

  it('rejects duplicate usernames regardless of case', async () => {
    const res = await server.request({ method: 'POST', url: '/api/v3/User', key: adminKey, body: { Username: 'DEFAULT', Password: 'x' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.Username).toEqual(['The username is unavailable.']);
  });

  it('requires a password for a new user', async () => {
    const res = await server.request({ method: 'POST', url: '/api/v3/User', key: adminKey, body: { Username: 'nopass' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toHaveProperty('Password');
  });

  it('validates avatars: format, declared type and 512 px limit', async () => {
    const user = await createUser(server, adminKey, 'avatar-user', 'pw');
    const put = (Avatar: string) => server.request({ method: 'PUT', url: '/api/v3/User/Current', key: user.key, body: { Avatar } });
    expect((await put('not a data url')).json().errors.Avatar).toEqual(["Invalid data URL format for field 'Avatar'."]);
    expect((await put(PNG_1X1.replace('image/png', 'image/jpeg'))).statusCode).toBe(400);
    expect((await put(pngHeader(600, 10))).statusCode).toBe(400);
    expect((await put(pngHeader(512, 512))).statusCode).toBe(200);
    expect((await put('')).json().Avatar).toBe('');
  });

  it('refuses to let a user delete themselves', async () => {
    const res = await server.request({ method: 'DELETE', url: `/api/v3/User/${adminId}`, key: adminKey });
    expect(res.statusCode).toBe(400);
    expect((await server.request({ method: 'GET', url: `/api/v3/User/${adminId}`, key: adminKey })).statusCode).toBe(200);
  });

  it('keeps at least one admin', async () => {
    const res = await server.request({ method: 'PUT', url: `/api/v3/User/${adminId}`, key: adminKey, body: { IsAdmin: false } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.IsAdmin).toEqual(['There must be at least one admin user.']);
  });

  it('lets non-admins manage only themselves', async () => {
    const dave = await createUser(server, adminKey, 'dave', 'pw');
    expect((await server.request({ method: 'GET', url: '/api/v3/User', key: dave.key })).statusCode).toBe(403);
    expect((await server.request({ method: 'GET', url: `/api/v3/User/${adminId}`, key: dave.key })).statusCode).toBe(403);
    expect(
      (await server.request({ method: 'PUT', url: `/api/v3/User/${adminId}`, key: dave.key, body: { Username: 'pwned' } })).statusCode,
    ).toBe(403);
    expect((await server.request({ method: 'DELETE', url: `/api/v3/User/${adminId}`, key: dave.key })).statusCode).toBe(403);

    const self = await server.request({
      method: 'PUT',
      url: '/api/v3/User/Current',
      key: dave.key,
      body: { Username: 'david', PlexUsernames: 'dplex' },
    });
    expect(self.json()).toMatchObject({ Username: 'david', PlexUsernames: 'dplex' });

    const escalate = await server.request({
      method: 'PUT',
      url: '/api/v3/User/Current',
      key: dave.key,
      body: { IsAdmin: true, RestrictedTags: [] },
    });
    expect(escalate.statusCode).toBe(400);
    expect(Object.keys(escalate.json().errors).sort()).toEqual(['IsAdmin', 'RestrictedTags']);
  });

  it('changes a password and revokes keys by default', async () => {
    const erin = await createUser(server, adminKey, 'erin', 'old');
    const res = await server.request({
      method: 'POST',
      url: '/api/v3/User/Current/ChangePassword',
      key: erin.key,
      body: { Password: 'new' },
    });
    expect(res.statusCode).toBe(200);
    expect((await server.request({ method: 'GET', url: '/api/v3/User/Current', key: erin.key })).statusCode).toBe(401);
    await expect(login(server, 'erin', 'old')).rejects.toThrow();
    const key = await login(server, 'erin', 'new');

    const keep = await server.request({
      method: 'POST',
      url: '/api/v3/User/Current/ChangePassword',
      key,
      body: { Password: 'newer', RevokeAPIKeys: false },
    });
    expect(keep.statusCode).toBe(200);
    expect((await server.request({ method: 'GET', url: '/api/v3/User/Current', key })).statusCode).toBe(200);

    const missing = await server.request({ method: 'POST', url: '/api/v3/User/Current/ChangePassword', key, body: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toHaveProperty('Password');
  });

  it('lets only admins change or read other users, and never returns a password', async () => {
    const frank = await createUser(server, adminKey, 'frank', 'pw');
    const gina = await createUser(server, adminKey, 'gina', 'pw');
    const asFrank = (method: string, url: string, body?: unknown) => server.request({ method, url, key: frank.key, body });
    expect((await asFrank('POST', `/api/v3/User/${gina.id}/ChangePassword`, { Password: 'hacked' })).statusCode).toBe(403);
    expect((await asFrank('PUT', `/api/v3/User/${gina.id}`, { RestrictedTags: [] })).statusCode).toBe(403);
    expect((await asFrank('POST', '/api/v3/User', { Username: 'sneaky', Password: 'x' })).statusCode).toBe(403);
    expect((await asFrank('GET', `/api/v3/User/${gina.id}`)).statusCode).toBe(403);
    // Gina's password and keys are untouched by Frank's attempts.
    expect((await server.request({ method: 'GET', url: '/api/v3/User/Current', key: gina.key })).json().Username).toBe('gina');
    await login(server, 'gina', 'pw', 'again');

    const reset = await server.request({
      method: 'POST',
      url: `/api/v3/User/${gina.id}/ChangePassword`,
      key: adminKey,
      body: { Password: 'by-admin' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await server.request({ method: 'GET', url: '/api/v3/User/Current', key: gina.key })).statusCode).toBe(401);
    await login(server, 'gina', 'by-admin');

    const all = (await server.request({ method: 'GET', url: '/api/v3/User', key: adminKey })).json() as Record<string, unknown>[];
    for (const user of all)
      expect(Object.keys(user).sort()).toEqual([
        'Avatar',
        'CommunitySites',
        'ID',
        'IsAdmin',
        'PlexUsernames',
        'RestrictedTags',
        'Username',
      ]);
  });

  it('allows demoting an admin while another admin remains', async () => {
    const second = await createUser(server, adminKey, 'second-admin', 'pw', true);
    const demote = await server.request({ method: 'PUT', url: `/api/v3/User/${second.id}`, key: adminKey, body: { IsAdmin: false } });
    expect(demote.json().IsAdmin).toBe(false);
    expect((await server.request({ method: 'GET', url: '/api/v3/User', key: second.key })).statusCode).toBe(403);
    expect((await server.request({ method: 'DELETE', url: `/api/v3/User/${second.id}`, key: adminKey })).statusCode).toBe(200);
  });

  it("lists AniDB tags for the restriction picker, hiding a restricted user's tags from that user", async () => {
    const now = new Date().toISOString();
    await server.services.db.kysely
      .insertInto('anidb_tags')
      .values([
        { id: 9001, parent_id: null, name: 'zz horror', description: 'scary', is_spoiler: 0, is_verified: 1, updated_at: now },
        { id: 9002, parent_id: null, name: 'zz comedy', description: null, is_spoiler: 0, is_verified: 1, updated_at: now },
        { id: 9003, parent_id: null, name: 'zz unverified', description: null, is_spoiler: 0, is_verified: 0, updated_at: now },
      ])
      .execute();
    const names = (res: { json(): { List: { Name: string }[] } }) =>
      res
        .json()
        .List.map((t) => t.Name)
        .filter((n) => n.startsWith('zz'));
    const full = await server.request({ method: 'GET', url: '/api/v3/Tag/AniDB?pageSize=0&excludeDescriptions=true', key: adminKey });
    expect(full.statusCode).toBe(200);
    expect(names(full)).toEqual(['zz comedy', 'zz horror']);
    expect(full.json().List.find((t: { Name: string }) => t.Name === 'zz horror')).not.toHaveProperty('Description');

    const viewer = await createUser(server, adminKey, 'restricted-viewer', 'pw');
    await server.request({ method: 'PUT', url: `/api/v3/User/${viewer.id}`, key: adminKey, body: { RestrictedTags: [9001] } });
    expect((await server.request({ method: 'GET', url: `/api/v3/User/${viewer.id}`, key: adminKey })).json().RestrictedTags).toEqual([
      9001,
    ]);
    expect(names(await server.request({ method: 'GET', url: '/api/v3/Tag/AniDB?pageSize=0', key: viewer.key }))).toEqual(['zz comedy']);
    expect((await server.request({ method: 'GET', url: '/api/v3/Tag/AniDB' })).statusCode).toBe(401);

    // An admin restricted from a tag still sees it in the picker, so the restriction stays editable.
    const restrictedAdmin = await createUser(server, adminKey, 'restricted-admin', 'pw', true);
    await server.request({ method: 'PUT', url: `/api/v3/User/${restrictedAdmin.id}`, key: adminKey, body: { RestrictedTags: [9001] } });
    expect(names(await server.request({ method: 'GET', url: '/api/v3/Tag/AniDB?pageSize=0', key: restrictedAdmin.key }))).toEqual([
      'zz comedy',
      'zz horror',
    ]);
    expect((await server.request({ method: 'GET', url: '/api/v3/Tag/AniDB?filter=x', key: adminKey })).statusCode).toBe(400);
  });

  it('rejects a non-numeric or zero user id with a validation problem', async () => {
    for (const id of ['abc', '0']) {
      const res = await server.request({ method: 'GET', url: `/api/v3/User/${id}`, key: adminKey });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toHaveProperty('userID');
    }
  });
});
