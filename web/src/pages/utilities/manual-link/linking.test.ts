import { describe, expect, it } from 'vitest';
import type { AnidbEpisode } from '@shoko-ts/contract';
import { autoMatch, episodeLabel, guessEpisode, planLinks, rangeFill, type LinkEntry } from './linking';

const episode = (ID: number, Type: string, EpisodeNumber: number): AnidbEpisode =>
  ({
    ID,
    AnimeID: 1,
    Type,
    EpisodeNumber,
    Title: `T${ID}`,
    AirDate: null,
    Titles: [],
    Description: '',
    Rating: { Value: 0, MaxValue: 10, Source: 'AniDB', Votes: 0, Type: null },
  }) as unknown as AnidbEpisode;
const EPISODES = [
  episode(101, 'Episode', 1),
  episode(102, 'Episode', 2),
  episode(103, 'Episode', 3),
  episode(201, 'Special', 1),
  episode(202, 'Special', 2),
];
const entry = (key: number, fileId: number, episodeId: number | null = null, path = `f${fileId}.mkv`): LinkEntry => ({
  key,
  fileId,
  path,
  episodeId,
});

describe('guessEpisode', () => {
  it('reads episode and special numbers, skipping tags, resolutions and years', () => {
    expect(guessEpisode('Show/[Group] Show - 03 [1080p].mkv')).toEqual({ type: 'Episode', number: 3 });
    expect(guessEpisode('Show E12v2.mkv')).toEqual({ type: 'Episode', number: 12 });
    expect(guessEpisode('Show - S2.mkv')).toEqual({ type: 'Special', number: 2 });
    expect(guessEpisode('Movie (2019).mkv')).toBeNull();
  });
});

describe('autoMatch', () => {
  it('fills only entries without an episode and counts the matches', () => {
    const result = autoMatch([entry(1, 1, null, 'X - 02.mkv'), entry(2, 2, null, 'X - 09.mkv'), entry(3, 3, 103, 'X - 01.mkv')], EPISODES);
    expect(result.matched).toBe(1);
    expect(result.entries.map((e) => e.episodeId)).toEqual([102, null, 103]);
  });
});

describe('rangeFill', () => {
  const entries = [entry(1, 1), entry(2, 2), entry(3, 3)];
  it('assigns consecutive episodes of the chosen type and leaves the rest empty', () => {
    expect(rangeFill(entries, '2', 'Episode', EPISODES)).toEqual({ entries: [entry(1, 1, 102), entry(2, 2, 103), entry(3, 3, null)] });
    expect(rangeFill(entries.slice(0, 1), '2', 'Special', EPISODES)).toEqual({ entries: [entry(1, 1, 202)] });
  });
  it('rejects a value that is not a positive integer, and a start that does not exist', () => {
    for (const value of ['0', '-1', '1.5', 'abc', ''])
      expect(rangeFill(entries, value, 'Episode', EPISODES)).toEqual({ error: 'Value is not a positive integer.' });
    expect(rangeFill(entries, '4', 'Episode', EPISODES)).toEqual({ error: 'Unable to find starting episode.' });
    expect(rangeFill(entries, '1', 'Other', EPISODES)).toEqual({ error: 'Unable to find starting episode.' });
  });
});

describe('planLinks', () => {
  it('sorts pairs into one-to-one, one-to-many and many-to-one, and lists files without an episode', () => {
    const plan = planLinks([
      entry(1, 1, 101),
      entry(2, 2, 102),
      entry(3, 2, 103),
      entry(4, 3, 201),
      entry(5, 4, 201),
      entry(6, 5),
      entry(7, 5),
    ]);
    expect(plan.manyToMany).toBe(false);
    expect(plan.oneToOne).toEqual([{ fileId: 1, episodeId: 101 }]);
    expect(plan.oneToMany).toEqual([{ fileId: 2, episodeIds: [102, 103] }]);
    expect(plan.manyToOne).toEqual([{ episodeId: 201, fileIds: [3, 4] }]);
    expect(plan.skipped.map((e) => e.key)).toEqual([6]);
  });
  it('ignores a duplicate pair and an empty extra row of a linked file', () => {
    const plan = planLinks([entry(1, 1, 101), entry(2, 1, 101), entry(3, 1)]);
    expect(plan).toMatchObject({ oneToOne: [{ fileId: 1, episodeId: 101 }], skipped: [], manyToMany: false });
  });
  it('flags many-to-many', () => {
    expect(planLinks([entry(1, 1, 101), entry(2, 1, 102), entry(3, 2, 101)]).manyToMany).toBe(true);
  });
});

describe('episodeLabel', () => {
  it('prefixes the type', () => {
    expect(episodeLabel(EPISODES[3])).toBe('S1 - T201');
    expect(episodeLabel(EPISODES[0])).toBe('1 - T101');
  });
});
