import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, createUser, type TestServer } from '../../test/harness.js';

describe('PATCH User/Current and User/{userID} (JSON Patch over an empty CreateOrUpdateUserBody)', () => {
  let server: TestServer;
  let adminKey: string;
  let adminId: number;
  let dora: { id: number; key: string };
  let emil: { id: number; key: string };

  beforeAll(async () => {
    server = await createTestServer();
    adminKey = await completeFirstRun(server);
    adminId = (await server.request({ method: 'GET', url: '/api/v3/User/Current', key: adminKey })).json().ID;
    dora = await createUser(server, adminKey, 'dora', 'pw-dora');
    emil = await createUser(server, adminKey, 'emil', 'pw-emil');
  });
  afterAll(() => server.close());

  const patch = (url: string, key: string, body: unknown) => server.request({ method: 'PATCH', url, key, body });

  it('lets a user patch their own name and Plex names; untouched fields stay as they were', async () => {
    const res = await patch('/api/v3/User/Current', dora.key, [
      { op: 'replace', path: '/Username', value: ' dora2 ' },
      { op: 'replace', path: '/plexusernames', value: 'doraplex' },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ID: dora.id, Username: 'dora2', IsAdmin: false, PlexUsernames: 'doraplex', Avatar: '' });
    const stored = (await server.request({ method: 'GET', url: `/api/v3/User/${dora.id}`, key: adminKey })).json();
    expect(stored).toMatchObject({ Username: 'dora2', PlexUsernames: 'doraplex', CommunitySites: [] });
  });

  it('refuses a non-admin making themselves admin or touching admin fields, and saves nothing', async () => {
    let res = await patch('/api/v3/User/Current', dora.key, [
      { op: 'replace', path: '/IsAdmin', value: true },
      { op: 'replace', path: '/PlexUsernames', value: 'changed' },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.IsAdmin).toEqual(['Only admins are allowed to change the admin status of users.']);
    res = await patch('/api/v3/User/Current', dora.key, [{ op: 'add', path: '/CommunitySites', value: ['AniDB'] }]);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['CommunitySites']);
    res = await patch('/api/v3/User/Current', dora.key, [{ op: 'replace', path: '/RestrictedTags', value: [] }]);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['RestrictedTags']);
    const me = (await server.request({ method: 'GET', url: '/api/v3/User/Current', key: dora.key })).json();
    expect(me).toMatchObject({ IsAdmin: false, PlexUsernames: 'doraplex' });
  });

  it('validates the patched values, naming the field', async () => {
    let res = await patch('/api/v3/User/Current', dora.key, [{ op: 'replace', path: '/Username', value: 42 }]);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['Username']);
    res = await patch('/api/v3/User/Current', dora.key, [{ op: 'replace', path: '/Username', value: '   ' }]);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['Username']);
    res = await patch('/api/v3/User/Current', dora.key, [{ op: 'replace', path: '/Username', value: 'EMIL' }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.Username).toEqual(['The username is unavailable.']);
    res = await patch('/api/v3/User/Current', dora.key, [{ op: 'replace', path: '/Avatar', value: 'not a data url' }]);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['Avatar']);
    res = await patch('/api/v3/User/Current', dora.key, [{ op: 'replace', path: '/Password', value: 'x' }]);
    expect(res.statusCode).toBe(400);
    res = await patch('/api/v3/User/Current', dora.key, { op: 'replace', path: '/Username', value: 'x' });
    expect(res.statusCode).toBe(400);
  });

  it('is admin-only for another user: a non-admin cannot patch other users', async () => {
    const res = await patch(`/api/v3/User/${emil.id}`, dora.key, [{ op: 'replace', path: '/Username', value: 'hacked' }]);
    expect(res.statusCode).toBe(403);
    const anonymous = await patch(`/api/v3/User/${emil.id}`, '', [{ op: 'replace', path: '/Username', value: 'hacked' }]);
    expect(anonymous.statusCode).toBe(401);
    const stored = (await server.request({ method: 'GET', url: `/api/v3/User/${emil.id}`, key: adminKey })).json();
    expect(stored.Username).toBe('emil');
  });

  it('lets an admin patch another user with admin rules', async () => {
    const res = await patch(`/api/v3/User/${emil.id}`, adminKey, [
      { op: 'replace', path: '/IsAdmin', value: true },
      { op: 'replace', path: '/CommunitySites', value: ['Trakt', 'Plex'] },
      { op: 'replace', path: '/RestrictedTags', value: [3, 3, 9] },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ID: emil.id, Username: 'emil', IsAdmin: true, CommunitySites: ['Trakt'], RestrictedTags: [3, 9] });
  });

  it('answers 404 with the contract text for an unknown user and 400 for a bad id', async () => {
    let res = await patch('/api/v3/User/9999', adminKey, [{ op: 'replace', path: '/Username', value: 'x' }]);
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe("An user by the given `userID` doesn't exist.");
    res = await patch('/api/v3/User/0', adminKey, []);
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('userID');
  });

  it('keeps the last admin: an admin cannot patch away the only admin status', async () => {
    await patch(`/api/v3/User/${emil.id}`, adminKey, [{ op: 'replace', path: '/IsAdmin', value: false }]);
    const res = await patch('/api/v3/User/Current', adminKey, [{ op: 'replace', path: '/IsAdmin', value: false }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.IsAdmin).toEqual(['There must be at least one admin user.']);
    const me = (await server.request({ method: 'GET', url: `/api/v3/User/${adminId}`, key: adminKey })).json();
    expect(me.IsAdmin).toBe(true);
  });
});
