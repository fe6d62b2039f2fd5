import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, createUser, type TestServer } from '../../test/harness.js';

describe('Queue/DebugStats and Queue/AcquisitionFilters', () => {
  let server: TestServer;
  let adminKey: string;
  let userKey: string;

  beforeAll(async () => {
    server = await createTestServer();
    // Before the server is started these are not init-friendly (contract server.md §1.4): 503.
    for (const url of ['/api/v3/Queue/DebugStats', '/api/v3/Queue/AcquisitionFilters']) {
      expect((await server.request({ method: 'GET', url })).statusCode).toBe(503);
    }
    adminKey = await completeFirstRun(server);
    userKey = (await createUser(server, adminKey, 'queue-viewer', 'pw')).key;
  });
  afterAll(() => server.close());

  it('answers an admin with the queue snapshot and the concurrency limits, and refuses other users', async () => {
    const refused = await server.request({ method: 'GET', url: '/api/v3/Queue/DebugStats', key: userKey });
    expect(refused.statusCode).toBe(403);
    const res = await server.request({ method: 'GET', url: '/api/v3/Queue/DebugStats', key: adminKey });
    expect(res.statusCode, res.body).toBe(200);
    const stats = res.json();
    expect(Object.keys(stats).sort()).toEqual([
      'AcquisitionFilters',
      'AvailableConcurrencyGroups',
      'Queue',
      'TypesToExclude',
      'TypesToLimit',
    ]);
    expect(stats.Queue).toMatchObject({ WaitingCount: expect.any(Number), BlockedCount: 0, ThreadCount: expect.any(Number) });
    expect(stats.Queue).not.toHaveProperty('Running');
    expect(Array.isArray(stats.Queue.CurrentlyExecuting)).toBe(true);
    expect(stats.TypesToExclude).toEqual([]);
    for (const [kind, limit] of Object.entries(stats.TypesToLimit)) {
      expect(typeof kind).toBe('string');
      expect(Number.isInteger(limit)).toBe(true);
    }
    expect(stats.AvailableConcurrencyGroups).toEqual(Object.keys(stats.TypesToLimit).map((kind) => [kind]));
    expect(stats.AcquisitionFilters).toEqual({});
  });

  it('lists no acquisition filters while nothing is held back, and needs a key', async () => {
    const res = await server.request({ method: 'GET', url: '/api/v3/queue/acquisitionfilters', key: userKey });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    expect((await server.request({ method: 'GET', url: '/api/v3/Queue/AcquisitionFilters' })).statusCode).toBe(401);
    expect((await server.request({ method: 'GET', url: '/api/v3/Queue/DebugStats' })).statusCode).toBe(401);
  });
});
