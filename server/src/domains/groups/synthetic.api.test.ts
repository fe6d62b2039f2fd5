import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, type TestServer } from '../../test/harness.js';
import { generateCollection, longRunningSeries } from './synthetic.js';

describe('the synthetic collection generator', () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    server = await createTestServer();
    key = await completeFirstRun(server);
    await generateCollection(server.services.db.kysely, { series: 40, files: 400, seed: 3, userIds: [1], placeFiles: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('writes the requested number of series and about the requested number of files, grouped with sequels', async () => {
    const db = server.services.db.kysely;
    const count = async (table: 'series' | 'groups' | 'files') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count('series')).toBe(40);
    const files = await count('files');
    expect(files).toBeGreaterThan(300);
    expect(files).toBeLessThan(500);
    const groups = await count('groups');
    expect(groups).toBeLessThan(40);
    expect(groups).toBeGreaterThan(20);
  });

  it('produces a collection the browsing API serves: pages of groups, watch state and tag filters', async () => {
    const page = (await server.request({ method: 'POST', url: '/api/v3/Filter/Preview/Group?pageSize=10', key, body: {} })).json();
    expect(page.List).toHaveLength(10);
    expect(page.List.some((g: { Sizes: { Watched: { Episodes: number } } }) => g.Sizes.Watched.Episodes > 0)).toBe(true);
    const names = page.List.map((g: { Name: string }) => g.Name.toLowerCase());
    expect([...names].sort()).toEqual(names);
    const tagged = (
      await server.request({
        method: 'POST',
        url: '/api/v3/Filter/Preview/Group',
        key,
        body: { ApplyAtSeriesLevel: true, Expression: { Type: 'HasTag', Parameter: 'action' } },
      })
    ).json();
    expect(tagged.Total).toBeGreaterThan(0);
    expect(tagged.Total).toBeLessThan(page.Total);
  });

  it('places the files for the file lists: 1% unrecognized, every file in a folder, every 40th in two', async () => {
    const list = async (query: string) =>
      (await server.request({ method: 'GET', url: `/api/v3/File?pageSize=1&${query}`, key })).json() as { Total: number };
    const all = (await list('')).Total;
    expect((await list('include_only=Unrecognized')).Total).toBe(4);
    const duplicates = (await list('include_only=Duplicates')).Total;
    expect(duplicates).toBe(Math.floor(all / 40));
  });
});

describe('the generator with long-running series', () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    server = await createTestServer();
    key = await completeFirstRun(server);
    await generateCollection(server.services.db.kysely, { series: 30, files: 2600, seed: 5, longRunning: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('picks one long run per 1,250 series, spread over the collection, the first of 1,500 episodes', () => {
    expect([...longRunningSeries(30)]).toEqual([[15, 1500]]);
    expect([...longRunningSeries(5000)]).toEqual([
      [625, 1500],
      [1875, 1000],
      [3125, 700],
      [4375, 400],
    ]);
    expect(longRunningSeries(20_000).size).toBe(16);
  });

  it('writes a 1,500-episode series with a file for every episode, and about the requested number of files', async () => {
    const db = server.services.db.kysely;
    const files = Number(
      (
        await db
          .selectFrom('files')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(files).toBeGreaterThan(2400);
    expect(files).toBeLessThan(2800);
    const longest = await db
      .selectFrom('series')
      .innerJoin('anidb_anime', 'anidb_anime.id', 'series.anime_id')
      .select(['series.id', 'anidb_anime.episode_count', 'anidb_anime.type', 'anidb_anime.end_date'])
      .orderBy('anidb_anime.episode_count', 'desc')
      .executeTakeFirstOrThrow();
    expect(longest).toMatchObject({ episode_count: 1500, type: 'TV Series' });
    expect(longest.end_date! <= '2025-12-31').toBe(true);
    const page = (await server.request({ method: 'GET', url: `/api/v3/Series/${longest.id}/Episode?pageSize=26&page=58`, key })).json() as {
      Total: number;
      List: Array<{ Size: number }>;
    };
    expect(page.Total).toBe(1500);
    expect(page.List).toHaveLength(18);
    expect(page.List.every((e) => e.Size > 0)).toBe(true);
  });
});
