import { describe, expect, it } from 'vitest';
import { SHOKO_IMPORT_PROGRESS_EVENT } from '@shoko-ts/contract';
import {
  SeriesSearchIndex,
  eventOutdatesSearch,
  jobOutdatesSearch,
  type SearchIndexSource,
  type SearchSeriesRow,
} from './series-search.js';
import { bestMatch, diceDistance, matchTitle, searchText } from '../../shared/title-match.js';

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

describe('SeriesSearchIndex', () => {
  const source = () => {
    const state = {
      title: 'First',
      series: [
        { id: 10, anime_id: 1, title_override: null, main_title: 'One' },
        { id: 20, anime_id: 2, title_override: 'Renamed', main_title: 'Two' },
        { id: 30, anime_id: 3, title_override: null, main_title: null },
      ] as SearchSeriesRow[],
      reads: 0,
      titleLoads: [] as number[][],
      hold: null as Promise<void> | null,
      onRead: null as (() => void) | null,
    };
    const src: SearchIndexSource = {
      series: async () => {
        state.reads++;
        state.onRead?.();
        if (state.hold) await state.hold;
        return state.series;
      },
      titles: async (ids) => {
        state.titleLoads.push(ids);
        return ids.map((id) => ({ anime_id: id, type: 'main', language: 'X-JAT', value: `${state.title} ${id}` }));
      },
    };
    return { state, src };
  };

  it('reads the collection once, prepares names and titles, and reads it again after a clear', async () => {
    const { state, src } = source();
    const index = new SeriesSearchIndex(src, 60_000);
    const entries = await index.entries();
    expect(entries.map((e) => [e.id, e.hasAnime, e.name.text, e.titles.map((t) => [t.text.text, t.language])])).toEqual([
      [10, true, 'One', [['First 1', 'x-jat']]],
      [20, true, 'Renamed', [['First 2', 'x-jat']]],
      [30, false, '', []],
    ]);
    await index.entries();
    expect(state.reads).toBe(1);
    // Titles are only loaded for series whose anime is stored.
    expect(state.titleLoads).toEqual([[1, 2]]);
    state.title = 'Second';
    index.clear();
    expect((await index.entries())[0]!.titles[0]!.text.text).toBe('Second 1');
    expect(state.reads).toBe(2);
  });

  it('answers a build that a clear overtakes to its callers but does not keep it', async () => {
    const { state, src } = source();
    const index = new SeriesSearchIndex(src, 60_000);
    let release!: () => void;
    state.hold = new Promise<void>((r) => (release = r));
    const pending = index.entries();
    index.clear();
    state.hold = null;
    release();
    expect((await pending).length).toBe(3);
    await index.entries();
    expect(state.reads).toBe(2);
  });

  it('loads the titles of a large collection in slices', async () => {
    const { state, src } = source();
    state.series = Array.from({ length: 1200 }, (_, i) => ({ id: i + 1, anime_id: i + 1, title_override: null, main_title: `T${i}` }));
    const entries = await new SeriesSearchIndex(src, 60_000).entries();
    expect(entries.length).toBe(1200);
    expect(state.titleLoads.map((ids) => ids.length)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(entries[1199]!.titles[0]!.text.text).toBe('First 1200');
  });

  it('is prepared once built for the collection as it is, and builds again when a change overtakes the build', async () => {
    const { state, src } = source();
    // A quiet time no test waits for: only prepare builds the index here.
    const index = new SeriesSearchIndex(src, 600_000);
    expect(index.prepared).toBe(false);
    await index.prepare();
    expect(index.prepared).toBe(true);
    expect(state.reads).toBe(1);
    await index.entries();
    expect(state.reads).toBe(1);
    index.clear();
    expect(index.prepared).toBe(false);
    // A change while it reads: the build answers nobody's search with stale titles kept; prepare reads again.
    let release!: () => void;
    state.hold = new Promise<void>((r) => (release = r));
    const read = new Promise<void>((r) => (state.onRead = r));
    const preparing = index.prepare();
    await read;
    state.onRead = null;
    state.title = 'Second';
    index.clear();
    state.hold = null;
    release();
    await preparing;
    expect(index.prepared).toBe(true);
    expect(state.reads).toBe(3);
    expect((await index.entries())[0]!.titles[0]!.text.text).toBe('Second 1');
    expect(state.reads).toBe(3);
  });

  it('builds itself once warmed, and again after each clear', async () => {
    const { state, src } = source();
    const index = new SeriesSearchIndex(src, 1);
    const read = () => new Promise<void>((r) => (state.onRead = r));
    const first = read();
    index.clear();
    index.warmSoon();
    await first;
    const second = read();
    index.clear();
    await second;
    expect(state.reads).toBe(2);
    // The warmed index serves the next search without reading again.
    await new Promise((r) => setImmediate(r));
    await index.entries();
    expect(state.reads).toBe(2);
  });

  it('is outdated by changes of series or titles, not by file, folder or episode events nor jobs that wrote elsewhere', () => {
    for (const event of ['SeriesUpdated', 'FileMatched', 'FileDeleted', 'SomethingNew'])
      expect(eventOutdatesSearch(event), event).toBe(true);
    for (const event of ['ImportFolderAvailabilityChanged', 'FileDetected', 'FileHashed', 'EpisodeUpdated', SHOKO_IMPORT_PROGRESS_EVENT])
      expect(eventOutdatesSearch(event), event).toBe(false);
    expect(jobOutdatesSearch({})).toBe(true);
    expect(jobOutdatesSearch({ changed: true, tables: null })).toBe(true);
    expect(jobOutdatesSearch({ changed: true, tables: new Set(['files', 'anidb_anime_titles']) })).toBe(true);
    expect(jobOutdatesSearch({ changed: true, tables: new Set(['series']) })).toBe(true);
    expect(jobOutdatesSearch({ changed: false, tables: new Set() })).toBe(false);
    expect(jobOutdatesSearch({ changed: true, tables: new Set() })).toBe(false);
    expect(jobOutdatesSearch({ changed: true, tables: new Set(['import_folders', 'files', 'aggregate_dirty_series']) })).toBe(false);
  });
});
