import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFile, userLinkRow } from '../../test/seed-files.js';
import type { Series } from '@shoko-ts/contract';
import type { TestServer } from '../../test/harness.js';
import { seriesTestServer } from '../series/test-support.js';
import { insertSeries } from '../groups/synthetic.store.js';

type Page = { Total: number; List: Series[] };

/**
 * Invented series: Alpha Academy (A, files from AniDB), Beta Chronicle (B, no files), Delta Tale (D, no files, tag 99
 * hidden from the viewer, English title "Dragon Road"), Gamma Journey (G, one file linked by hand), Epsilon (E, its only
 * link points at a file that no longer exists, so it has no files).
 */
describe('series utility lists API', () => {
  let server: TestServer;
  let key: string;
  let viewerKey: string;
  let manualFileId: number;
  const ids: Record<string, number> = {};
  const get = async (url: string, apiKey = key) => {
    const res = await server.request({ method: 'GET', url, key: apiKey });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Page;
  };
  const names = (page: Page) => page.List.map((s) => s.Name);

  beforeAll(async () => {
    ({
      server,
      key,
      viewer: { key: viewerKey },
    } = await seriesTestServer([99]));
    const db = server.services.db.kysely;
    const written = await insertSeries(db, [
      { animeId: 1, title: 'Alpha Academy', episodes: [{ id: 11, file: true }] },
      { animeId: 2, title: 'Beta Chronicle', episodes: [{ id: 21 }] },
      {
        animeId: 3,
        title: 'Delta Tale',
        titles: [
          { type: 'main', language: 'x-jat', value: 'Delta Tale' },
          { type: 'official', language: 'en', value: 'Dragon Road' },
        ],
        tags: [{ id: 99, name: 'ecchi' }],
        episodes: [{ id: 31 }],
      },
      { animeId: 4, title: 'Gamma Journey', episodes: [{ id: 41 }, { id: 42 }] },
      { animeId: 5, title: 'Epsilon', episodes: [{ id: 51 }] },
    ]);
    for (const [letter, animeId] of [
      ['A', 1],
      ['B', 2],
      ['D', 3],
      ['G', 4],
      ['E', 5],
    ] as const)
      ids[letter] = written.get(animeId)!.seriesId;
    manualFileId = await seedFile(server, { size: 7000, ed2k: 'A'.repeat(32) });
    await db
      .insertInto('file_episode_links')
      .values([userLinkRow({ ed2k: 'A'.repeat(32), size: 7000 }, 4, 41), userLinkRow({ ed2k: 'B'.repeat(32), size: 8000 }, 5, 51)])
      .execute();
  });

  afterAll(() => server?.close());

  it('needs an API key', async () => {
    for (const url of ['/api/v3/Series/WithoutFiles', '/api/v3/Series/WithManuallyLinkedFiles']) {
      expect((await server.request({ method: 'GET', url })).statusCode).toBe(401);
    }
  });

  it('lists the series without files by name, with totals and pages', async () => {
    const all = await get('/api/v3/Series/WithoutFiles');
    expect(all.Total).toBe(3);
    expect(names(all)).toEqual(['Beta Chronicle', 'Delta Tale', 'Epsilon']);
    expect(all.List[0]).toMatchObject({ IDs: { ID: ids.B, AniDB: 2 }, Size: 0 });
    expect(typeof all.List[0].Created).toBe('string');
    const second = await get('/api/v3/Series/WithoutFiles?pageSize=2&page=2');
    expect(second.Total).toBe(3);
    expect(names(second)).toEqual(['Epsilon']);
    expect((await get('/api/v3/Series/WithoutFiles?pageSize=0')).List).toHaveLength(3);
  });

  it('hides series with restricted tags from the viewer', async () => {
    const page = await get('/api/v3/Series/WithoutFiles', viewerKey);
    expect(page.Total).toBe(2);
    expect(names(page)).toEqual(['Beta Chronicle', 'Epsilon']);
  });

  it('searches any AniDB title of the series', async () => {
    expect(names(await get('/api/v3/Series/WithoutFiles?search=dragon'))).toEqual(['Delta Tale']);
    expect(names(await get('/api/v3/Series/WithoutFiles?search=chronicle'))).toEqual(['Beta Chronicle']);
    expect(names(await get('/api/v3/Series/WithoutFiles?search=%20%20'))).toHaveLength(3);
    expect((await get('/api/v3/Series/WithoutFiles?search=alpha')).Total).toBe(0);
    // Fuzzy matching finds a misspelt title; exact matching does not.
    expect(names(await get('/api/v3/Series/WithoutFiles?search=chronicel'))).toEqual(['Beta Chronicle']);
    expect((await get('/api/v3/Series/WithoutFiles?search=chronicel&fuzzy=false')).Total).toBe(0);
  });

  it('lists the series with manually linked files, and drops one once its file is unlinked', async () => {
    const linked = await get('/api/v3/Series/WithManuallyLinkedFiles');
    expect(names(linked)).toEqual(['Gamma Journey']);
    expect(linked.List[0].IDs.ID).toBe(ids.G);
    const unlink = await server.request({
      method: 'DELETE',
      url: `/api/v3/File/${manualFileId}/Link`,
      key,
      body: null,
      headers: { 'content-type': 'application/json' },
    });
    expect(unlink.statusCode, unlink.body).toBe(200);
    expect((await get('/api/v3/Series/WithManuallyLinkedFiles')).Total).toBe(0);
    expect(names(await get('/api/v3/Series/WithoutFiles'))).toContain('Gamma Journey');
  });

  it('rejects bad paging with a problem naming the field', async () => {
    for (const [query, field] of [
      ['pageSize=101', 'pageSize'],
      ['page=0', 'page'],
      ['pageSize=abc', 'pageSize'],
    ] as const) {
      const res = await server.request({ method: 'GET', url: `/api/v3/Series/WithoutFiles?${query}`, key });
      expect(res.statusCode, query).toBe(400);
      expect(res.body).toContain(field);
    }
  });
});
