import type { FilterCondition } from '@shoko-ts/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { refreshSeriesAggregates } from '../../db/aggregates.js';
import { completeFirstRun, createTestServer, type TestServer } from '../../test/harness.js';
import { insertSeries } from '../groups/synthetic.store.js';

/**
 * In a nested collection the group lists lift each match to its top-level group. The letters, a page of the console's
 * search and the groups a filter counts are lifted in the database (the tree's tops in the same statement), not by
 * reading every match and walking the tree in code (Filter/Preview/Group/Letters: 40–55 ms on PostgreSQL after a
 * 100,000-file Shoko import, 10 once lifted there). Each answer is checked against the tree walked here.
 */
describe('lifting the matches of a nested collection to their top-level groups', () => {
  let server: TestServer;
  let key: string;
  /** Group id by series title; parent by group id. */
  const groupOf: Record<string, number> = {};
  const parentOf = new Map<number, number | null>();
  // Amber Tide ⊃ Birch Hollow ⊃ Cinder Vale; 4 Seasons ⊃ Elm Road; Dune Walker, Ash Vale and Ember Vale alone.
  const tree: Array<[string, string | null]> = [
    ['Amber Tide', null],
    ['Birch Hollow', 'Amber Tide'],
    ['Cinder Vale', 'Birch Hollow'],
    ['4 Seasons', null],
    ['Elm Road', '4 Seasons'],
    ['Dune Walker', null],
    ['Ash Vale', null],
    ['Ember Vale', null],
  ];

  beforeAll(async () => {
    server = await createTestServer();
    key = await completeFirstRun(server);
    const db = server.services.db.kysely;
    for (const [i, [title, parent]] of tree.entries()) {
      const animeId = 801 + i;
      const parentGroupId = parent === null ? null : groupOf[parent]!;
      const written = await insertSeries(db, [{ animeId, title, episodes: [{ id: animeId * 10, file: true }], parentGroupId }]);
      groupOf[title] = written.get(animeId)!.groupId;
      parentOf.set(groupOf[title]!, parentGroupId);
    }
    await refreshSeriesAggregates(db, server.services.db.dialect);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const top = (id: number): number => {
    let current = id;
    while (parentOf.get(current) != null) current = parentOf.get(current)!;
    return current;
  };
  const name = (id: number) => tree.find(([title]) => groupOf[title] === id)![0];
  const contains = (text: string): FilterCondition => ({ Type: 'AnyContains', Left: { Type: 'NamesSelector' }, Parameter: text });
  const post = async (url: string, body: unknown) => {
    const res = await server.request({ method: 'POST', url, key, body });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  /** The tree is not walked in code for the matches (the groups' models ask it for the top-level groups of a page). */
  const watchCodeLifts = () => {
    const spy = vi.spyOn(server.services.collection.browse, 'topGroups');
    return { expectNone: () => expect(spy.mock.calls.flatMap(([ids]) => ids.filter((id) => parentOf.get(id) != null))).toEqual([]) };
  };

  it('counts the letters of the top-level groups of the matches', async () => {
    const lifts = watchCodeLifts();
    const every = await post('/api/v3/Filter/Preview/Group/Letters', {});
    // Every group has a file: the tops are Amber Tide, 4 Seasons, Dune Walker, Ash Vale, Ember Vale.
    expect(every).toEqual({ '#': 1, A: 2, D: 1, E: 1 });
    const vale = await post('/api/v3/Filter/Preview/Group/Letters', { ApplyAtSeriesLevel: true, Expression: contains('vale') });
    // Cinder Vale lifts to Amber Tide.
    expect(vale).toEqual({ A: 2, E: 1 });
    const road = await post('/api/v3/Filter/Preview/Group/Letters', { Expression: contains('road') });
    expect(road).toEqual({ '#': 1 });
    lifts.expectNone();
  });

  it('pages the top-level groups of the matches in the filter order, each where its first match is', async () => {
    const lifts = watchCodeLifts();
    const body = { ApplyAtSeriesLevel: true, Expression: contains('e'), Sorting: { Type: 'Name', IsInverted: true } };
    // Series with an "e" by name, descending: Ember Vale, Elm Road, Dune Walker, Cinder Vale, Ash Vale, Amber Tide,
    // 4 Seasons; lifted, each top-level group where its first series is (Cinder Vale's Amber Tide before Ash Vale).
    const matches = tree
      .map(([title]) => title)
      .filter((title) => title.toLowerCase().includes('e'))
      .sort((a, b) => (a.toUpperCase() < b.toUpperCase() ? 1 : -1));
    const expected = [...new Set(matches.map((title) => top(groupOf[title]!)))];
    expect(expected.map(name)).toEqual(['Ember Vale', '4 Seasons', 'Dune Walker', 'Amber Tide', 'Ash Vale']);
    const pages: number[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await post(`/api/v3/Filter/Preview/Group?pageSize=2&page=${page}`, body);
      expect(res.Total).toBe(expected.length);
      pages.push(...res.List.map((g: { IDs: { ID: number } }) => g.IDs.ID));
    }
    expect(pages.map(name)).toEqual(expected.map(name));
    const past = await post('/api/v3/Filter/Preview/Group?pageSize=2&page=9', body);
    expect(past).toEqual({ Total: expected.length, List: [] });
    lifts.expectNone();
  });

  it('pages a group-level filter matching sub-groups by their top-level groups', async () => {
    const lifts = watchCodeLifts();
    const res = await post('/api/v3/Filter/Preview/Group?pageSize=10&page=1', { Expression: contains('vale') });
    // Cinder Vale (under Birch Hollow, under Amber Tide), Ash Vale and Ember Vale, in the default order (by name).
    expect(res.List.map((g: { IDs: { ID: number } }) => name(g.IDs.ID))).toEqual(['Amber Tide', 'Ash Vale', 'Ember Vale']);
    expect(res.Total).toBe(3);
    lifts.expectNone();
  });
});
