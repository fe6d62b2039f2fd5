import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, createUser, login, type TestServer } from '../../test/harness.js';

describe('auth API', () => {
  let server: TestServer;
  let adminKey: string;

  beforeAll(async () => {
    server = await createTestServer();
    adminKey = await completeFirstRun(server, { Username: 'Default', Password: 'hunter2' });
  });
  afterAll(() => server.close());

  it('logs in with the right password and returns a GUID key', async () => {
    const res = await server.request({ method: 'POST', url: '/api/auth', body: { user: 'default', pass: 'hunter2', device: 'web-ui' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().apikey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('refuses a bad password with 401 and a problem body', async () => {
    const res = await server.request({ method: 'POST', url: '/api/auth', body: { user: 'Default', pass: 'wrong', device: 'web-ui' } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ status: 401, title: 'Unauthorized' });
  });

  it('refuses an unknown user the same way', async () => {
    const res = await server.request({ method: 'POST', url: '/api/auth', body: { user: 'nobody', pass: 'x', device: 'web-ui' } });
    expect(res.statusCode).toBe(401);
  });

  it('names every missing login field', async () => {
    const res = await server.request({ method: 'POST', url: '/api/auth', body: {} });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors).sort()).toEqual(['device', 'pass', 'user']);
  });

  it('accepts PascalCase property names (case-insensitive binding)', async () => {
    const res = await server.request({ method: 'POST', url: '/api/auth', body: { User: 'Default', Pass: 'hunter2', Device: 'kodi' } });
    expect(res.statusCode).toBe(200);
  });

  it('answers 401 with an empty body for a missing or invalid key', async () => {
    for (const key of [undefined, 'not-a-key', '00000000-0000-0000-0000-000000000000']) {
      const res = await server.request({ method: 'GET', url: '/api/auth', key });
      expect(res.statusCode).toBe(401);
      expect(res.body).toBe('');
    }
  });

  it('accepts the key as a query parameter and case-insensitive routes', async () => {
    const res = await server.request({ method: 'GET', url: `/API/AUTH?apikey=${adminKey.toUpperCase()}` });
    expect(res.statusCode).toBe(200);
  });

  it('generates a key from a JSON string device name, returned as plain text', async () => {
    const res = await server.request({ method: 'POST', url: '/api/auth/apikey', key: adminKey, body: 'my-script' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const key = res.body;
    const me = await server.request({ method: 'GET', url: '/api/v3/User/Current', key });
    expect(me.json().Username).toBe('Default');
  });

  it('refuses an empty device name', async () => {
    const res = await server.request({ method: 'POST', url: '/api/auth/apikey', key: adminKey, body: '  ' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('device cannot be empty');
  });

  it('isolates key lists between users, even from an admin', async () => {
    const alice = await createUser(server, adminKey, 'alice', 'alice-pass');
    const bob = await createUser(server, adminKey, 'bob', 'bob-pass');
    await server.request({ method: 'POST', url: '/api/auth/apikey', key: alice.key, body: 'alice-phone' });

    const aliceList = (await server.request({ method: 'GET', url: '/api/auth', key: alice.key })).json();
    const bobList = (await server.request({ method: 'GET', url: '/api/auth', key: bob.key })).json();
    const adminList = (await server.request({ method: 'GET', url: '/api/auth', key: adminKey })).json();

    expect(aliceList.map((k: { Device: string }) => k.Device).sort()).toEqual(['alice-phone', 'test']);
    expect(aliceList.every((k: { Username: string }) => k.Username === 'alice')).toBe(true);
    expect(bobList.every((k: { Username: string }) => k.Username === 'bob')).toBe(true);
    expect(adminList.some((k: { Username: string }) => k.Username === 'alice')).toBe(false);
    // No key value is ever listed.
    expect(JSON.stringify(aliceList)).not.toContain(alice.key);

    // Bob cannot revoke Alice's device by name.
    const res = await server.request({ method: 'DELETE', url: '/api/auth', key: bob.key, body: 'alice-phone' });
    expect(res.statusCode).toBe(400);
    expect((await server.request({ method: 'GET', url: '/api/auth', key: alice.key })).json()).toHaveLength(2);
  });

  it('revokes a key by device name, after which the key stops working', async () => {
    const key = await login(server, 'Default', 'hunter2', 'to-revoke');
    expect((await server.request({ method: 'DELETE', url: '/api/auth', key: adminKey, body: 'to-revoke' })).statusCode).toBe(200);
    expect((await server.request({ method: 'GET', url: '/api/auth', key })).statusCode).toBe(401);
    const again = await server.request({ method: 'DELETE', url: '/api/auth', key: adminKey, body: 'to-revoke' });
    expect(again.statusCode).toBe(400);
    expect(again.body).toBe('Could not find apikey or device name to delete');
  });

  it('keeps two browsers of the same device logged in at once', async () => {
    const first = await login(server, 'Default', 'hunter2', 'web-ui');
    const second = await login(server, 'Default', 'hunter2', 'web-ui');
    expect(first).not.toBe(second);
    expect((await server.request({ method: 'GET', url: '/api/auth', key: first })).statusCode).toBe(200);
    expect((await server.request({ method: 'GET', url: '/api/auth', key: second })).statusCode).toBe(200);
  });

  it('stores neither passwords nor keys in clear text', async () => {
    const users = await server.services.db.kysely.selectFrom('users').select(['password_hash']).execute();
    expect(users.every((u) => u.password_hash.startsWith('scrypt$') && !u.password_hash.includes('hunter2'))).toBe(true);
    const keys = await server.services.db.kysely.selectFrom('api_keys').select(['key_hash']).execute();
    expect(keys.some((k) => k.key_hash === adminKey)).toBe(false);
    expect(keys.every((k) => /^[0-9a-f]{64}$/.test(k.key_hash))).toBe(true);
  });
});
