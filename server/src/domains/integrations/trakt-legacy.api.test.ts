import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRunWithAniDB, createTestServer, createUser, patchSettings, type TestServer } from '../../test/harness.js';

describe('legacy /api/trakt/get and /api/trakt/sync', () => {
  let server: TestServer;
  let adminKey: string;
  let userKey: string;

  beforeAll(async () => {
    server = await createTestServer();
    adminKey = await completeFirstRunWithAniDB(server, { username: 'tester', password: 'secret1' });
    userKey = (await createUser(server, adminKey, 'viewer', 'viewer-pass')).key;
  });
  afterAll(() => server.close());

  const get = (url: string, key = adminKey) => server.request({ method: 'GET', url, key });

  it('is admin only', async () => {
    for (const url of ['/api/trakt/get', '/api/trakt/sync']) {
      expect((await get(url, '')).statusCode).toBe(401);
      expect((await get(url, userKey)).statusCode).toBe(403);
    }
  });

  it('answers 204 from sync while Trakt is not linked', async () => {
    const res = await get('/api/trakt/sync');
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
  });

  it('answers the v2 credentials shape without ever revealing the stored tokens', async () => {
    await patchSettings(server, adminKey, [
      { op: 'replace', path: '/TraktTv/Enabled', value: true },
      { op: 'replace', path: '/TraktTv/AuthToken', value: 'stored-auth-token' },
      { op: 'replace', path: '/TraktTv/RefreshToken', value: 'stored-refresh-token' },
    ]);
    expect(server.services.settings.current.TraktTv.AuthToken).toBe('stored-auth-token');
    const res = await get('/api/trakt/get');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ login: null, password: null, port: 0, token: '', refresh_token: '', apikey: null, apiport: 0 });
    expect(res.body).not.toContain('stored-');
  });

  it('queues "Send Watch States to Trakt" once Trakt is linked and answers the v2 ok message', async () => {
    await server.services.queue.pause();
    try {
      const res = await get('/api/Trakt/Sync');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ code: 200, message: 'ok', details: [] });
      const queued = await server.services.queue.items(1, 50);
      expect(queued.List.map((item) => item.Type)).toContain('Send Watch States to Trakt');
    } finally {
      await server.services.queue.clear();
      await server.services.queue.resume();
    }
  });
});
