import { describe, expect, it } from 'vitest';
import { findRelatedGroup, normalizeRelation } from './grouping.js';

// 1 —sequel→ 2 —side story→ 3 —same setting→ 4 ; 3 —sequel→ 5
const relations: Record<number, Array<{ animeId: number; type: string }>> = {
  1: [{ animeId: 2, type: 'Sequel' }],
  2: [
    { animeId: 1, type: 'Prequel' },
    { animeId: 3, type: 'Side Story' },
  ],
  3: [
    { animeId: 2, type: 'Parent Story' },
    { animeId: 4, type: 'Same Setting' },
    { animeId: 5, type: 'Sequel' },
  ],
  4: [{ animeId: 3, type: 'Same Setting' }],
  5: [{ animeId: 3, type: 'Prequel' }],
};

const find = (animeId: number, groups: Record<number, number>, maxDepth = 5, excludedRelations = ['same setting', 'character', 'other']) =>
  findRelatedGroup(animeId, {
    maxDepth,
    excludedRelations,
    relationsOf: async (id) => relations[id] ?? [],
    groupOfAnime: async (ids) => new Map(ids.filter((id) => groups[id] !== undefined).map((id) => [id, groups[id]])),
  });

describe('auto grouping by AniDB relations', () => {
  it('joins the group of the nearest related series', async () => {
    expect(await find(1, { 2: 20, 5: 50 })).toBe(20);
    expect(await find(5, { 1: 10 })).toBe(10);
  });

  it('stops at the maximum relation depth', async () => {
    expect(await find(5, { 1: 10 }, 2)).toBeNull();
    expect(await find(5, { 1: 10 }, 3)).toBe(10);
    expect(await find(1, { 2: 20 }, 0)).toBeNull();
  });

  it('ignores excluded relation kinds however they are spelled', async () => {
    expect(await find(4, { 3: 30 })).toBeNull();
    expect(await find(4, { 3: 30 }, 5, [])).toBe(30);
    expect(normalizeRelation('Same Setting')).toBe(normalizeRelation('same_setting'));
  });

  it('creates a new group when nothing related has a series', async () => {
    expect(await find(1, {})).toBeNull();
  });
});
