import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, createUser, type TestServer } from '../../test/harness.js';
import { localIsoWithOffset } from './ban-status.js';

const LOCAL_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}:\d{2}$/;

describe('GET AniDB/BanStatus', () => {
  let server: TestServer;
  let userKey: string;

  beforeAll(async () => {
    server = await createTestServer();
    expect((await server.request({ method: 'GET', url: '/api/v3/AniDB/BanStatus' })).statusCode).toBe(503);
    const adminKey = await completeFirstRun(server);
    userKey = (await createUser(server, adminKey, 'ban-viewer', 'pw')).key;
  });
  afterAll(() => server.close());

  it('reports neither connection banned on a fresh server, in local time with offset', async () => {
    const res = await server.request({ method: 'GET', url: '/api/v3/AniDB/BanStatus', key: userKey });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.UDP).toMatchObject({ Type: 'UDPBan', IsBanned: false, BanDuration: null });
    expect(body.HTTP).toMatchObject({ Type: 'HTTPBan', IsBanned: false, BanDuration: null });
    expect(body.UDP.LastUpdatedAt).toMatch(LOCAL_WITH_OFFSET);
    expect((await server.request({ method: 'GET', url: '/api/v3/AniDB/BanStatus' })).statusCode).toBe(401);
  });

  it('reports an HTTP ban with its duration as a TimeSpan', async () => {
    const before = Date.now();
    server.services.metadata.anidb.httpBan.raise('Banned', 12 * 3600 * 1000);
    const body = (await server.request({ method: 'GET', url: '/api/v3/anidb/banstatus', key: userKey })).json();
    expect(body.HTTP).toMatchObject({ Type: 'HTTPBan', IsBanned: true, BanDuration: '12:00:00' });
    const since = new Date(body.HTTP.LastUpdatedAt).getTime();
    expect(since).toBeGreaterThanOrEqual(before);
    expect(since).toBeLessThanOrEqual(Date.now());
    server.services.metadata.anidb.httpBan.lower();
    expect(body.UDP.IsBanned).toBe(false);
  });

  it('writes local time with the offset of the moment', () => {
    const date = new Date('2026-01-15T23:30:00.000Z');
    const text = localIsoWithOffset(date);
    expect(text).toMatch(LOCAL_WITH_OFFSET);
    expect(new Date(text).getTime()).toBe(date.getTime());
  });
});
