import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, createUser, login, type TestServer } from '../test/harness.js';
import { insertSeries } from '../domains/groups/synthetic.store.js';

const AVATAR = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/**
 * The per-user half of the auth matrix: two non-admin users, Alice and Bob, each with their own keys, watch state,
 * avatar and password. Nothing one of them can send reads or changes what belongs to the other.
 */
describe('one user never reads or changes another user’s keys, watch state, avatar or password', () => {
  let server: TestServer;
  let alice: { id: number; key: string };
  let bob: { id: number; key: string };
  let bobSecondKey = '';
  let seriesId = 0;
  const episodes: number[] = [];

  const as = (key: string, method: string, url: string, body?: unknown) => server.request({ method, url, key, body });

  beforeAll(async () => {
    server = await createTestServer();
    const adminKey = await completeFirstRun(server);
    alice = await createUser(server, adminKey, 'alice', 'alice-pass');
    bob = await createUser(server, adminKey, 'bob', 'bob-pass');
    bobSecondKey = await login(server, 'bob', 'bob-pass', 'bob-phone');
    const db = server.services.db.kysely;
    const written = await insertSeries(db, [
      {
        animeId: 301,
        title: 'Quiet Harbor',
        airDate: '2020-01-01',
        episodes: [
          { id: 3001, file: true },
          { id: 3002, file: true },
        ],
      },
    ]);
    seriesId = written.get(301)!.seriesId;
    for (const row of await db.selectFrom('episodes').select('id').orderBy('id').execute()) episodes.push(row.id);
  });
  afterAll(() => server?.close());

  it('lists only the caller’s own keys and cannot revoke another user’s key', async () => {
    const aliceKeys = (await as(alice.key, 'GET', '/api/auth')).json() as Array<{ Device: string; UserID?: number }>;
    expect(aliceKeys.length).toBeGreaterThan(0);
    expect(JSON.stringify(aliceKeys)).not.toContain(bob.key);
    expect(JSON.stringify(aliceKeys)).not.toContain('bob-phone');

    // Revoking by Bob's key or Bob's device name, sent with Alice's key, leaves Bob's keys working.
    expect((await as(alice.key, 'DELETE', '/api/auth', bobSecondKey)).statusCode).toBe(400);
    await as(alice.key, 'DELETE', '/api/auth', 'bob-phone');
    expect((await as(bobSecondKey, 'GET', '/api/v3/User/Current')).statusCode).toBe(200);
    expect((await as(bob.key, 'GET', '/api/v3/User/Current')).json()).toMatchObject({ ID: bob.id, Username: 'bob' });
  });

  it('keeps watch state per user', async () => {
    expect((await as(alice.key, 'POST', `/api/v3/Episode/${episodes[0]}/Watched/true`)).statusCode).toBe(200);
    expect((await as(alice.key, 'POST', `/api/v3/Series/${seriesId}/Episode/Watched?value=true`)).statusCode).toBe(200);

    expect((await as(alice.key, 'GET', `/api/v3/Episode/${episodes[0]}`)).json().Watched).not.toBeNull();
    expect((await as(bob.key, 'GET', `/api/v3/Episode/${episodes[0]}`)).json().Watched).toBeNull();
    expect((await as(alice.key, 'GET', `/api/v3/Series/${seriesId}`)).json().Sizes.Watched.Episodes).toBe(2);
    expect((await as(bob.key, 'GET', `/api/v3/Series/${seriesId}`)).json().Sizes.Watched.Episodes).toBe(0);

    // Bob unwatching changes only Bob's state.
    expect((await as(bob.key, 'POST', `/api/v3/Episode/${episodes[0]}/Watched/false`)).statusCode).toBe(200);
    expect((await as(alice.key, 'GET', `/api/v3/Episode/${episodes[0]}`)).json().Watched).not.toBeNull();
  });

  it('cannot read or change another user’s avatar', async () => {
    expect((await as(alice.key, 'PUT', '/api/v3/User/Current', { Avatar: AVATAR })).json().Avatar).toBe(AVATAR);
    expect((await as(bob.key, 'GET', `/api/v3/User/${alice.id}`)).statusCode).toBe(403);
    expect((await as(bob.key, 'GET', '/api/v3/User')).statusCode).toBe(403);
    expect((await as(bob.key, 'GET', '/api/v3/User/Current')).json().Avatar).toBe('');
    expect((await as(bob.key, 'PUT', `/api/v3/User/${alice.id}`, { Avatar: '' })).statusCode).toBe(403);
    expect((await as(bob.key, 'PATCH', `/api/v3/User/${alice.id}`, [{ op: 'replace', path: '/Avatar', value: '' }])).statusCode).not.toBe(
      200,
    );
    expect((await as(alice.key, 'GET', '/api/v3/User/Current')).json().Avatar).toBe(AVATAR);
  });

  it('cannot change another user’s password', async () => {
    expect((await as(bob.key, 'POST', `/api/v3/User/${alice.id}/ChangePassword`, { Password: 'taken-over' })).statusCode).toBe(403);
    await expect(login(server, 'alice', 'taken-over')).rejects.toThrow();
    expect(await login(server, 'alice', 'alice-pass')).toBeTruthy();
    // Changing one's own password does not touch the other user's keys.
    expect((await as(bob.key, 'POST', '/api/v3/User/Current/ChangePassword', { Password: 'bob-new' })).statusCode).toBe(200);
    expect((await as(alice.key, 'GET', '/api/v3/User/Current')).statusCode).toBe(200);
  });
});
