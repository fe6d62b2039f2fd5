import type { FilterCondition } from '@shoko-ts/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverWithCollection } from '../../test/generated-collection.js';
import type { TestServer } from '../../test/harness.js';
import type { LiveFilter } from './filters.service.js';

/**
 * Filter/Preview/Series reads only its page (FiltersStore.pageOfSeriesByName). Each page is the slice of the whole list
 * as Preview/Series/OnlyIDs orders it (read by another query), and Total counts the matches: dense, sparse and empty
 * filters, first, middle, last and past-the-end pages, nested groups.
 */
describe('series pages by name', () => {
  let server: TestServer;

  beforeAll(async () => {
    ({ server } = await serverWithCollection({ series: 30, files: 100, seed: 3 }));
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
  const page = async (expression: FilterCondition | null, page: number, pageSize: number) => {
    const result = await server.services.collection.filters.previewSeries(
      live(expression),
      viewer,
      { page, pageSize },
      { includeMissing: true },
    );
    return { total: result.Total, ids: result.List.map((s) => s.IDs.ID) };
  };

  const compare = async (expression: FilterCondition | null) => {
    const whole = await page(expression, 1, 0);
    expect(whole.ids).toEqual(
      await server.services.collection.filters.previewSeriesIds(live(expression), viewer, { includeMissing: true }),
    );
    for (const [number, size] of [
      [1, 7],
      [2, 7],
      [5, 7],
      [9, 7],
      [1, 100],
      [2, 4],
    ] as const)
      expect(await page(expression, number, size), `page ${number} of ${size}`).toEqual({
        total: whole.total,
        ids: whole.ids.slice(size * (number - 1), size * number),
      });
    return whole;
  };

  it('gives every page of a dense or a sparse filter as a slice of the whole list, ', async () => {
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
