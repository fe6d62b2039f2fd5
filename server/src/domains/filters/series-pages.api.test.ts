import type { FilterCondition } from '@shoko-ts/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverWithCollection } from '../../test/generated-collection.js';
import type { TestServer } from '../../test/harness.js';
import { FiltersService, type LiveFilter } from './filters.service.js';
import { FiltersStore } from './filters.store.js';

/**
 * Filter/Preview/Series reads only its page (FiltersStore.pageOfSeriesByName), by one of two plans: walking the
 * name-order index, or sorting the gathered matches. Whichever runs, each page is the slice of the whole ordered list
 * and Total counts the matches: dense and sparse filters, first, middle, last and past-the-end pages, nested groups.
 */
describe('series pages by name', () => {
  let server: TestServer;
  let walking: FiltersService;
  let sorting: FiltersService;

  beforeAll(async () => {
    ({ server } = await serverWithCollection({ series: 30, files: 100, seed: 3 }));
    const { browse } = server.services.collection;
    const db = server.services.db.kysely;
    walking = new FiltersService(browse, new FiltersStore(db, browse, { seriesWalkLimit: Infinity }));
    sorting = new FiltersService(browse, new FiltersStore(db, browse, { seriesWalkLimit: 0 }));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const viewer = { userId: 1, restrictedTags: [] };
  const live = (expression: FilterCondition | null): LiveFilter => ({
    applyAtSeriesLevel: true,
    isDirectory: false,
    expression,
    sorting: null,
  });
  const page = async (service: FiltersService, expression: FilterCondition | null, page: number, pageSize: number) => {
    const result = await service.previewSeries(live(expression), viewer, { page, pageSize }, { includeMissing: true });
    return { total: result.Total, ids: result.List.map((s) => s.IDs.ID) };
  };

  const compare = async (expression: FilterCondition | null) => {
    const whole = await page(server.services.collection.filters, expression, 1, 0);
    expect(whole.ids).toEqual(
      await server.services.collection.filters.previewSeriesIds(live(expression), viewer, { includeMissing: true }),
    );
    for (const service of [walking, sorting, server.services.collection.filters])
      for (const [number, size] of [
        [1, 7],
        [2, 7],
        [5, 7],
        [9, 7],
        [1, 100],
        [2, 4],
      ] as const)
        expect(await page(service, expression, number, size), `page ${number} of ${size}`).toEqual({
          total: whole.total,
          ids: whole.ids.slice(size * (number - 1), size * number),
        });
    return whole;
  };

  it('gives every page of a dense or a sparse filter as a slice of the whole list, either plan', async () => {
    expect((await compare(null)).total).toBe(30);
    const dense = await compare({ Type: 'HasVideoFiles' });
    expect(dense.total).toBeGreaterThan(10);
    const sparse = await compare({ Type: 'AnyContains', Left: { Type: 'AnidbTags' }, Parameter: 'a' });
    expect(sparse.total).toBeGreaterThan(0);
    expect(sparse.total).toBeLessThan(30);
    expect((await compare({ Type: 'HasTag', Parameter: 'no such tag' })).total).toBe(0);
  });

  it('pages the same with nested groups', async () => {
    const db = server.services.db.kysely;
    const groups = await db.selectFrom('groups').select('id').orderBy('id').limit(3).execute();
    await db.updateTable('groups').set({ parent_id: groups[0]!.id }).where('id', 'in', [groups[1]!.id, groups[2]!.id]).execute();
    // The Names selector reads the group tree: the top-level group's name counts for the series below it.
    const names = await compare({ Type: 'AnyContains', Left: { Type: 'Names' }, Parameter: 'a' });
    expect(names.total).toBeGreaterThan(0);
  });
});
