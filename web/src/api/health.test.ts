import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchServerHealth } from './health';

const report = (reachable: boolean) => ({
  Status: reachable ? 'Healthy' : 'Unhealthy',
  ServerState: 'Started',
  Database: { Kind: 'PostgreSQL', Reachable: reachable },
  Queue: { Running: true, WaitingCount: 3, Fault: reachable ? null : 'The database connection was lost' },
  DataDisk: { FreeBytes: 1_000_000, TotalBytes: 2_000_000, Full: false, LastFullAt: null },
  Problems: reachable ? [] : ['The database does not answer.'],
});

const answer = (status: number, body: unknown) =>
  vi.fn(() => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })));

describe('fetchServerHealth', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads the report of an unhealthy server (503) as a report: the console shows that its database does not answer', async () => {
    vi.stubGlobal('fetch', answer(503, report(false)));
    expect(await fetchServerHealth()).toMatchObject({ Status: 'Unhealthy', Database: { Reachable: false } });
  });

  it('reads a healthy report, and throws a 503 that is no report', async () => {
    vi.stubGlobal('fetch', answer(200, report(true)));
    expect(await fetchServerHealth()).toMatchObject({ Status: 'Healthy' });
    vi.stubGlobal('fetch', answer(503, { title: 'Service Unavailable', status: 503, detail: 'Not started' }));
    await expect(fetchServerHealth()).rejects.toThrow();
  });
});
