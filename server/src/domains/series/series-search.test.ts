import { describe, expect, it } from 'vitest';
import { bestMatch, diceDistance, matchTitle, PreparedTitles, searchText } from './series-search.js';

describe('title matching', () => {
  it('ranks substring matches by position and fuzzy ones by bigram distance', () => {
    expect(matchTitle('Harbor Lights', 'lights', false)).toMatchObject({ ExactMatch: true, Index: 7, LengthDifference: 7 });
    expect(matchTitle('Harbor_Lights', 'harbor lights', true)).toMatchObject({ ExactMatch: true, Index: 0, LengthDifference: 0 });
    expect(matchTitle('Harbor Lights', 'harbr lihgts', false)).toBeNull();
    const fuzzy = matchTitle('Harbor Lights', 'harbr lihgts', true);
    expect(fuzzy).toMatchObject({ ExactMatch: false, LengthDifference: 1 });
    expect(fuzzy!.Distance).toBeCloseTo(diceDistance('harbor lights', 'harbr lihgts'));
    expect(matchTitle('Pokémon', 'pokemon', true)).toMatchObject({ ExactMatch: false, Distance: 0 });
    // Short texts need a closer match.
    expect(matchTitle('Kanon', 'kano', true)).toMatchObject({ ExactMatch: true });
    expect(matchTitle('Abc', 'xbz', true)).toBeNull();
  });

  it('gives the same distances as the set definition of Sørensen–Dice', () => {
    const setDice = (a: string, b: string) => {
      const grams = (t: string) => new Set(Array.from({ length: Math.max(0, t.length - 1) }, (_, i) => t.slice(i, i + 2)));
      const [l, r] = [grams(a), grams(b)];
      if (a === b) return 0;
      if (!l.size || !r.size) return 1;
      return 1 - (2 * [...l].filter((g) => r.has(g)).length) / (l.size + r.size);
    };
    for (const [a, b] of [
      ['night', 'nacht'],
      ['aaaa', 'aa'],
      ['a', 'ab'],
      ['shingeki no kyojin', 'shingeki kyojin'],
    ])
      expect(diceDistance(a!, b!)).toBeCloseTo(setDice(a!, b!));
  });

  it('matches prepared titles as it matches their texts', () => {
    const titles = ['Minato no Akari', 'Harbor Lights', 'Hafenlichter'];
    expect(bestMatch(titles.map(searchText), searchText('harbor'), true)).toEqual(bestMatch(titles, 'harbor', true));
  });
});

describe('PreparedTitles', () => {
  it('loads each anime once, again after clear, and keeps nothing read before a clear', async () => {
    const loads: number[][] = [];
    let title = 'First';
    let release: (() => void) | null = null;
    const titles = new PreparedTitles(async (ids) => {
      loads.push(ids);
      if (release === null && ids.includes(3)) await new Promise<void>((r) => (release = r));
      return ids.map((id) => ({ anime_id: id, type: 'main', language: 'X-JAT', value: `${title} ${id}` }));
    });
    const of1 = await titles.of([1, 2]);
    expect(of1(1).map((t) => [t.text.text, t.language])).toEqual([['First 1', 'x-jat']]);
    await titles.of([2, 1]);
    expect(loads).toEqual([[1, 2]]);
    title = 'Second';
    titles.clear();
    expect((await titles.of([1]))(1)[0]!.text.text).toBe('Second 1');
    // A load that a clear overtakes answers its own search but is not kept.
    const pending = titles.of([3]);
    await new Promise((r) => setTimeout(r, 0));
    titles.clear();
    release!();
    expect((await pending)(3)[0]!.text.text).toBe('Second 3');
    await titles.of([3]);
    expect(loads).toEqual([[1, 2], [1], [3], [3]]);
  });
});
