import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, type TestServer } from '../../test/harness.js';

const databaseKind = process.env.SHOKO_TEST_DB ? 'PostgreSQL' : 'SQLite';

describe('GET /healthz', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  it('is healthy without a key while the server waits for its first run', async () => {
    const res = await server.request({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      Status: 'Healthy',
      ServerState: 'Waiting',
      Database: { Kind: databaseKind, Reachable: true },
      Queue: { Running: expect.any(Boolean), WaitingCount: expect.any(Number), Fault: null },
      DataDisk: { FreeBytes: expect.any(Number), TotalBytes: expect.any(Number), Full: false, LastFullAt: null },
      Problems: [],
    });
  });

  it('reports the started server and its running queue', async () => {
    await completeFirstRun(server);
    const res = await server.request({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ Status: 'Healthy', ServerState: 'Started', Queue: { Running: true } });
  });
});

describe('GET /healthz when the database is gone', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await createTestServer();
    await completeFirstRun(server);
  });
  afterAll(async () => {
    await server.close().catch(() => undefined);
  });

  it('answers 503 naming the problem', async () => {
    await server.services.stopBackground();
    await server.services.db.close();
    const res = await server.request({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      Status: 'Unhealthy',
      Database: { Kind: databaseKind, Reachable: false },
      Problems: ['The database does not answer.'],
    });
  });
});
