import { describe, expect, it } from 'vitest';
import {
  bestScored,
  findRelatedGroup,
  normalizeRelation,
  relationGraph,
  relationScores,
  similarTitles,
  type AnimeFacts,
  type RelationRow,
} from './grouping.js';

/** Stored relation rows, as AniDB lists them on each side: `to` is the `type` of `from`. */
function source(rows: Array<[number, number, string]>, facts: Record<number, AnimeFacts> = {}) {
  const relationRows: RelationRow[] = rows.map(([from, to, type]) => ({ from, to, type, toTitle: facts[to]?.title ?? null }));
  return {
    rowsTouching: async (ids: number[]) => relationRows.filter((r) => ids.includes(r.from) || ids.includes(r.to)),
    facts: async (ids: number[]) => new Map(ids.filter((id) => facts[id]).map((id) => [id, facts[id]])),
  };
}

// 1 —sequel→ 2 —side story→ 3 —same setting→ 4 ; 3 —sequel→ 5 (each row only on one side: the other was never stored)
const chain = source([
  [1, 2, 'Sequel'],
  [2, 3, 'Side Story'],
  [3, 4, 'Same Setting'],
  [3, 5, 'Sequel'],
]);
const DEFAULT_EXCLUSIONS = ['same setting', 'character', 'other'];

const find = async (animeId: number, groups: Record<number, number>, maxDepth = 5, exclusions = DEFAULT_EXCLUSIONS) =>
  findRelatedGroup(await relationGraph([animeId], { maxDepth, exclusions }, chain), async (ids) => {
    return new Map(ids.filter((id) => groups[id] !== undefined).map((id) => [id, groups[id]]));
  });

describe('auto grouping by AniDB relations', () => {
  it('joins the group of the nearest related series', async () => {
    expect(await find(1, { 2: 20, 5: 50 })).toBe(20);
    expect(await find(5, { 1: 10 })).toBe(10);
    expect(await find(4, { 1: 10 }, 5, [])).toBe(10);
  });

  it('stops at the maximum relation depth', async () => {
    expect(await find(5, { 1: 10 }, 2)).toBeNull();
    expect(await find(5, { 1: 10 }, 3)).toBe(10);
    expect(await find(1, { 2: 20 }, 0)).toBeNull();
  });

  it('ignores excluded relation kinds however they are spelled', async () => {
    expect(await find(4, { 3: 30 })).toBeNull();
    expect(await find(4, { 3: 30 }, 5, [])).toBe(30);
    expect(await find(1, { 2: 20 }, 5, ['SEQUEL'])).toBeNull();
    expect(await find(3, { 2: 20 }, 5, ['side_story'])).toBeNull();
    expect(normalizeRelation('Same Setting')).toBe(normalizeRelation('same_setting'));
  });

  it('creates a new group when nothing related has a series', async () => {
    expect(await find(1, {})).toBeNull();
  });

  it('drops relations to movies or OVAs when those are excluded', async () => {
    const typed = source(
      [
        [10, 11, 'Sequel'],
        [11, 12, 'Side Story'],
      ],
      { 10: { type: 'TV', title: 'Umi' }, 11: { type: 'Movie', title: 'Umi Movie' }, 12: { type: 'OVA', title: 'Umi OVA' } },
    );
    const reach = async (exclusions: string[]) => (await relationGraph([10], { maxDepth: 5, exclusions }, typed)).order;
    expect(await reach([])).toEqual([10, 11, 12]);
    expect(await reach(['movie'])).toEqual([10]);
    expect(await reach(['ova'])).toEqual([10, 11]);
  });

  it('with AllowDissimilarTitleExclusion keeps secondary relations only between similar titles', async () => {
    const titled = source(
      [
        [20, 21, 'Alternative Setting'],
        [20, 22, 'Alternative Setting'],
        [20, 23, 'Sequel'],
      ],
      {
        20: { type: 'TV', title: 'Kaze no Tani no Yuubinya' },
        21: { type: 'TV', title: 'Kaze no Tani no Yuubinya (2031)' },
        22: { type: 'TV', title: 'Hoshi Matsuri' },
        23: { type: 'TV', title: 'Something Else Entirely' },
      },
    );
    const reach = async (exclusions: string[]) => (await relationGraph([20], { maxDepth: 5, exclusions }, titled)).order;
    expect(await reach([])).toEqual([20, 21, 22, 23]);
    // Prequel/sequel and story relations never need similar titles.
    expect(await reach(['AllowDissimilarTitleExclusion'])).toEqual([20, 21, 23]);
    expect(similarTitles('Gekijouban Kaze no Tani: The Movie', 'Kaze no Tani 2')).toBe(true);
    expect(similarTitles('Umi', 'Sora')).toBe(false);
  });
});

describe('choosing the main anime by score', () => {
  const scoresOf = async (rows: Array<[number, number, string]>, facts: Record<number, AnimeFacts>, start: number[]) =>
    relationScores(await relationGraph(start, { maxDepth: 5, exclusions: DEFAULT_EXCLUSIONS }, source(rows, facts)));
  const tv = (title: string): AnimeFacts => ({ type: 'TV', title });

  it('scores the type, each sequel step, summaries, side stories and alternative settings', async () => {
    // 30 (movie) → 31 (TV) → 32 (TV) → 33 (OVA); 34 summarises 31; 35 is a side story of 31; 36 an alternative setting of 32
    const scores = await scoresOf(
      [
        [30, 31, 'Sequel'],
        [31, 30, 'Prequel'],
        [32, 31, 'Prequel'],
        [32, 33, 'Sequel'],
        [31, 34, 'Summary'],
        [35, 31, 'Parent Story'],
        [32, 36, 'Alternative Setting'],
        [36, 32, 'Alternative Setting'],
      ],
      {
        30: { type: 'Movie', title: 'A' },
        31: tv('B'),
        32: tv('C'),
        33: { type: 'OVA', title: 'D' },
        34: { type: 'Web', title: 'E' },
        35: { type: 'TV Special', title: 'F' },
        36: tv('G'),
      },
      [30],
    );
    // 30: movie 0 + sequel chain 30,31,32 each with a sequel (3×2) = 6
    // 31: TV 3 + chain 31,32 (2×2) + one summary 1 + one side story 2 = 10
    // 32: TV 3 + chain 32 (1×2) + alternative setting 1 = 6; 33: OVA 1; 34: Web 2; 35: 0; 36: TV 3 + alternative 1 = 4
    expect(Object.fromEntries(scores)).toEqual({ 30: 6, 31: 10, 32: 6, 33: 1, 34: 2, 35: 0, 36: 4 });
    expect(bestScored([30, 31, 32, 33], scores)).toBe(31);
    expect(bestScored([30, 32, 33], scores)).toBe(30);
  });

  it('breaks a tie with the lower AniDB id', async () => {
    const scores = await scoresOf([[41, 40, 'Alternative Setting']], { 40: tv('X'), 41: tv('Y') }, [41]);
    expect(scores.get(40)).toBe(scores.get(41));
    expect(bestScored([41, 40], scores)).toBe(40);
  });

  it('counts a relation stored on both sides once', async () => {
    const one = await scoresOf([[50, 51, 'Side Story']], { 50: tv('P'), 51: tv('Q') }, [50]);
    const both = await scoresOf(
      [
        [50, 51, 'Side Story'],
        [51, 50, 'Parent Story'],
      ],
      { 50: tv('P'), 51: tv('Q') },
      [50],
    );
    expect(both).toEqual(one);
    expect(one.get(50)).toBe(5);
  });
});
