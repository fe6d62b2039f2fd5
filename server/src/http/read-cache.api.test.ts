import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, type TestServer } from '../test/harness.js';

describe('the read cache of collection pages and dashboard aggregates', () => {
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
    const db = server.services.db.kysely;
    const now = new Date().toISOString();
    const addSeries = async (animeId: number) => {
      const group = await db
        .insertInto('groups')
        .values({
          parent_id: null,
          name: `G${animeId}`,
          description: '',
          has_custom_name: 0,
          has_custom_description: 0,
          preferred_series_id: null,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('series')
        .values({ anime_id: animeId, group_id: group.id, title_override: null, created_at: now, updated_at: now })
        .execute();
    };
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
    server.services.bus.emit('shoko', { event: 'SeriesUpdated', payload: {} });
    expect(await seriesCount()).toBe(2);
  });
});
