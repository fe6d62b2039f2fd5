import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../test/harness.js';
import { insertSeries } from '../groups/synthetic.store.js';
import { MetadataSchedulerStore } from './metadata-scheduler.store.js';

describe('the scheduled AniDB check: linked anime without a series', () => {
  let server: TestServer;
  let store: MetadataSchedulerStore;

  beforeAll(async () => {
    server = await createTestServer();
    store = new MetadataSchedulerStore(server.services.db.kysely);
  });
  afterAll(() => server.close());

  const link = (animeId: number, episodeId: number, ed2k: string) =>
    server.services.db.kysely
      .insertInto('file_episode_links')
      .values({ ed2k, size: 1000 + episodeId, anime_id: animeId, episode_id: episodeId, percentage: 100, ordering: 0, source: 'AniDB' })
      .execute();
  const missing = async () => (await store.linkedAnimeWithoutSeries()).sort((a, b) => a - b);

  it('lists each linked anime that has no series once, from an empty table to several links per anime', async () => {
    expect(await missing()).toEqual([]);
    // Anime 10 has a series (and its file's link); 5, 20 and 30 are only linked, 30 and 5 by several files.
    await insertSeries(server.services.db.kysely, [{ animeId: 10, title: 'Has a series', episodes: [{ id: 101, file: true }] }]);
    expect(await missing()).toEqual([]);
    await link(30, 301, 'a'.repeat(32));
    await link(30, 302, 'b'.repeat(32));
    await link(20, 201, 'c'.repeat(32));
    await link(5, 51, 'd'.repeat(32));
    await link(5, 52, 'e'.repeat(32));
    await link(5, 53, 'f'.repeat(32));
    expect(await missing()).toEqual([5, 20, 30]);
    // Once a series exists for an anime it is no longer listed; the smallest and largest ids are walked too.
    await insertSeries(server.services.db.kysely, [{ animeId: 20, title: 'Now with a series' }]);
    expect(await missing()).toEqual([5, 30]);
    await insertSeries(server.services.db.kysely, [
      { animeId: 5, title: 'First' },
      { animeId: 30, title: 'Last' },
    ]);
    expect(await missing()).toEqual([]);
  });
});
