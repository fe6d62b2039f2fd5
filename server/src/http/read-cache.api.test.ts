import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RaisedShokoEvent } from '@shoko-ts/contract';
import { completeFirstRun, createTestServer, type TestServer } from '../test/harness.js';
import { seedSeries } from '../test/seed-anidb.js';

/** A collection event of the background work: the cache clears on any; no listener acts on this one's content. */
const seriesUpdated: RaisedShokoEvent = {
  event: 'SeriesUpdated',
  payload: { Source: 'Shoko', Reason: 'Updated', SeriesID: 0, ShokoSeriesIDs: [], Episodes: [] },
};

describe('the read cache of collection, group and series pages and dashboard widgets', () => {
  let server: TestServer;
  let key: string;
  const seriesCount = async () =>
    (await server.request({ method: 'GET', url: '/api/v3/Dashboard/Stats', key })).json().SeriesCount as number;

  beforeAll(async () => {
    server = await createTestServer();
    key = await completeFirstRun(server);
  });
  afterAll(() => server.close());

  it('answers from the cache until a write request or a collection event clears it', async () => {
    const addSeries = (animeId: number) => seedSeries(server, animeId, `G${animeId}`);
    expect(await seriesCount()).toBe(0);
    // A change behind the API's back is not seen while the answer is cached…
    await addSeries(1);
    expect(await seriesCount()).toBe(0);
    // …a write through the API clears it…
    const write = await server.request({ method: 'POST', url: '/api/v3/Filter', key, body: { Name: 'cache test', IsDirectory: true } });
    expect(write.statusCode).toBeLessThan(300);
    expect(await seriesCount()).toBe(1);
    // …and so does a collection event of the background work; a read-only POST (a live filter) does not.
    await addSeries(2);
    await server.request({ method: 'POST', url: '/api/v3/Filter/Preview/Group', key, body: {} });
    expect(await seriesCount()).toBe(1);
    server.services.bus.emit('shoko', seriesUpdated);
    expect(await seriesCount()).toBe(2);
  });

  it('keeps a series page until a watch-state event, and never keeps a failure', async () => {
    const db = server.services.db.kysely;
    const now = new Date().toISOString();
    const missing = await server.request({ method: 'GET', url: '/api/v3/Series/99', key });
    expect(missing.statusCode).toBe(404);
    // A series appears behind the API's back: the 404 was not kept, so the next request sees it.
    await db
      .insertInto('series')
      .values({ id: 99, anime_id: 3, group_id: 1, title_override: 'First', created_at: now, updated_at: now })
      .execute();
    const first = await server.request({ method: 'GET', url: '/api/v3/Series/99', key });
    expect(first.statusCode).toBe(200);
    expect(first.json().Name).toBe('First');
    await db.updateTable('series').set({ title_override: 'Renamed' }).where('id', '=', 99).execute();
    const kept = await server.request({ method: 'GET', url: '/api/v3/Series/99', key });
    expect(kept.body).toBe(first.body);
    expect(kept.headers['content-type']).toBe(first.headers['content-type']);
    server.services.bus.emit('watched:changed', { userId: 1, episodeIds: [], watched: true, source: 'User' });
    expect((await server.request({ method: 'GET', url: '/api/v3/Series/99', key })).json().Name).toBe('Renamed');
  });

  it('forgets what a background job changed as soon as the job ends', async () => {
    const db = server.services.db.kysely;
    const page = async () => (await server.request({ method: 'GET', url: '/api/v3/Series/99', key })).json().Name as string;
    const before = await page();
    await server.services.queue.enqueue(
      {
        kind: 'CacheTestRename',
        type: 'CacheTestRename',
        title: 'Rename a series behind the API',
        group: 'Test',
        priority: 0,
        key: () => 'only',
        details: () => ({}),
        run: async () => {
          await db.updateTable('series').set({ title_override: 'Renamed by a job' }).where('id', '=', 99).execute();
        },
      },
      {},
    );
    await server.services.queue.idle();
    expect(before).not.toBe('Renamed by a job');
    expect(await page()).toBe('Renamed by a job');
  });

  it('computes a widget once for callers that ask at the same time', async () => {
    server.services.bus.emit('shoko', seriesUpdated);
    const dashboard = server.services.dashboard;
    const original = dashboard.seriesSummary.bind(dashboard);
    let calls = 0;
    dashboard.seriesSummary = async (userId) => {
      calls++;
      return original(userId);
    };
    try {
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => server.request({ method: 'GET', url: '/api/v3/Dashboard/SeriesSummary', key })),
      );
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
      expect(new Set(answers.map((a) => a.body)).size).toBe(1);
      expect(calls).toBe(1);
    } finally {
      dashboard.seriesSummary = original;
    }
  });
});
