import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, createUser, login, type TestServer } from '../../test/harness.js';
import { insertSeries } from '../groups/synthetic.store.js';

interface FilterList {
  Total: number;
  List: Array<{ IDs: { ID: number }; Name: string; Size: number; IsDirectory: boolean }>;
}

/**
 * The filters' warm-up after a start (FiltersService.warmKeptFigures) pauses before each figure it computes, and a
 * request made meanwhile never waits for the warm-up: here the warm-up is held at one of its pauses until requests
 * made there have answered, so a request queued behind the warm-up would never answer and the warm-up never end.
 */
describe("the filters' warm-up", () => {
  let server: TestServer;
  let key: string;
  const viewerKeys: string[] = [];

  beforeAll(async () => {
    server = await createTestServer();
    key = await completeFirstRun(server);
    for (const name of ['first viewer', 'second viewer']) {
      await createUser(server, key, name, `${name} pass`);
      viewerKeys.push(await login(server, name, `${name} pass`));
    }
    await insertSeries(server.services.db.kysely, [
      {
        animeId: 501,
        title: 'Lantern Road',
        airDate: '2019-04-01',
        tags: [{ id: 7, name: 'travel' }],
        episodes: [{ id: 5001, file: true }],
      },
      {
        animeId: 502,
        title: 'Paper Comets',
        airDate: '2021-10-01',
        tags: [{ id: 8, name: 'space' }],
        episodes: [{ id: 5101, file: true }],
      },
    ]);
    // Written behind the services' backs: announced as an import's end would be.
    server.services.bus.emit('job:finished', { type: 'AniDBGetAnime' });
  });

  afterAll(async () => {
    await server?.close();
  });

  const get = async <T>(url: string, apiKey = key): Promise<T> => {
    const res = await server.request({ method: 'GET', url, key: apiKey });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<T>();
  };

  it('pauses before every figure, and requests made during it answer while it waits', async () => {
    const filters = server.services.collection.filters;
    const topLevel = await get<FilterList>('/api/v3/Filter?pageSize=0&includeEmpty=true');
    const directories = topLevel.List.filter((f) => f.IsDirectory && ['Years', 'Seasons', 'Tags'].includes(f.Name));
    expect(directories).toHaveLength(3);
    const accounts = 3;
    // Nothing kept: the requests below and the warm-up compute every figure again.
    server.services.bus.emit('job:finished', { type: 'AniDBGetAnime' });

    let pauses = 0;
    let warmed = false;
    const answeredDuring: string[] = [];
    const during: Array<Promise<unknown>> = [];
    const warmUp = filters
      .warmKeptFigures(async () => {
        pauses++;
        if (pauses === 3) {
          const asked = [
            get<{ State: string }>('/api/v3/Init/Status').then((status) => {
              if (!warmed) answeredDuring.push(`Init/Status ${status.State}`);
            }),
            get<FilterList>('/api/v3/Filter?pageSize=0&includeEmpty=true', viewerKeys[1]).then((list) => {
              if (!warmed) answeredDuring.push(`Filter ${list.Total}`);
            }),
            get<FilterList>(`/api/v3/Filter/${directories[0]!.IDs.ID}/Filter?pageSize=0`, viewerKeys[1]).then((list) => {
              if (!warmed) answeredDuring.push(`children ${list.Total}`);
            }),
          ];
          during.push(...asked);
          // The warm-up goes on only once they have answered.
          await Promise.all(asked);
        }
        await nextTurn();
      })
      .then(() => (warmed = true));
    await warmUp;
    await Promise.all(during);

    expect(answeredDuring.sort()).toEqual([`Filter ${topLevel.Total}`, 'Init/Status Started', expect.stringMatching(/^children [1-9]/)]);
    // One pause per account, then one before each visible top-level filter and each computed directory.
    const visible = topLevel.List.length;
    expect(pauses).toBe(accounts * (1 + visible + directories.length));
    // What it kept is what a list counts.
    const after = await get<FilterList>('/api/v3/Filter?pageSize=0&includeEmpty=true');
    expect(after.List.map((f) => [f.Name, f.Size])).toEqual(topLevel.List.map((f) => [f.Name, f.Size]));
  });
});
