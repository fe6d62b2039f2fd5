import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, createUser, login, type TestServer } from '../../test/harness.js';

describe('POST /api/auth/ChangePassword (legacy)', () => {
  let server: TestServer;
  let adminKey: string;

  beforeAll(async () => {
    server = await createTestServer();
    adminKey = await completeFirstRun(server);
  });
  afterAll(() => server.close());

  const change = (key: string, password: unknown, query = '') =>
    server.request({ method: 'POST', url: `/api/auth/ChangePassword${query}`, key, body: password });
  const canLogin = async (user: string, pass: string) =>
    (await server.request({ method: 'POST', url: '/api/auth', body: { user, pass, device: 'check' } })).statusCode === 200;

  it("changes the caller's own password (trimmed) and revokes all of the caller's keys", async () => {
    const fay = await createUser(server, adminKey, 'fay', 'old-pass');
    const second = await login(server, 'fay', 'old-pass', 'phone');
    const res = await change(fay.key, '  new-pass  ');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
    expect(await canLogin('fay', 'old-pass')).toBe(false);
    expect(await canLogin('fay', 'new-pass')).toBe(true);
    for (const key of [fay.key, second]) {
      expect((await server.request({ method: 'GET', url: '/api/v3/User/Current', key })).statusCode).toBe(401);
    }
  });

  it('ignores userID for a non-admin: the caller cannot change another user', async () => {
    const gus = await createUser(server, adminKey, 'gus', 'gus-pass');
    const hal = await createUser(server, adminKey, 'hal', 'hal-pass');
    const res = await change(gus.key, 'gus-new', `?userID=${hal.id}`);
    expect(res.statusCode).toBe(200);
    expect(await canLogin('hal', 'hal-pass')).toBe(true);
    expect(await canLogin('hal', 'gus-new')).toBe(false);
    expect(await canLogin('gus', 'gus-new')).toBe(true);
    expect((await server.request({ method: 'GET', url: '/api/v3/User/Current', key: hal.key })).statusCode).toBe(200);
  });

  it("lets an admin change another user's password via userID, revoking that user's keys", async () => {
    const ida = await createUser(server, adminKey, 'ida', 'ida-pass');
    const res = await change(adminKey, 'ida-new', `?userID=${ida.id}`);
    expect(res.statusCode).toBe(200);
    expect(await canLogin('ida', 'ida-new')).toBe(true);
    expect((await server.request({ method: 'GET', url: '/api/v3/User/Current', key: ida.key })).statusCode).toBe(401);
    expect((await server.request({ method: 'GET', url: '/api/v3/User/Current', key: adminKey })).statusCode).toBe(200);
  });

  it('answers 400 for an unknown user, a bad userID or a missing password, and 401 without a key', async () => {
    let res = await change(adminKey, 'x', '?userID=9999');
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('Could not get user');
    res = await change(adminKey, 'x', '?userID=abc');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('userID');
    res = await change(adminKey, null);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['Body']);
    res = await change('', 'x');
    expect(res.statusCode).toBe(401);
    expect((await server.request({ method: 'GET', url: '/api/v3/User/Current', key: adminKey })).statusCode).toBe(200);
  });
});
