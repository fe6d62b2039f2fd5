import type { FilterCondition } from '@shoko-ts/contract';
import { describe, expect, it } from 'vitest';
import { compileSql, testScope } from '../../../test/compile-sql.js';
import { Candidates } from './candidates.js';
import { condition } from './conditions.js';
import { FilterError } from './fragments.js';
import type { FilterScope } from './scope.js';

const compile = (node: FilterCondition, over: Partial<FilterScope> = {}) => {
  const c = new Candidates(testScope(over));
  return { ...compileSql(condition(c, node), c.scope.dialect), joins: compileSql(c.joins()).text };
};
const files: FilterCondition = { Type: 'HasVideoFiles' };
const tag: FilterCondition = { Type: 'HasTagByID', Parameter: '7' };

describe('logic', () => {
  it('joins conditions with AND, OR and NOT, and compares their truth for Xor and Equals', () => {
    const and = compile({ Type: 'And', Left: files, Right: tag });
    expect(and.text).toBe(
      '(EXISTS (SELECT 1 FROM series_aggregates sa WHERE sa.series_id = it.id AND sa.file_count > 0) AND it.id IN (SELECT xs.id FROM series xs JOIN anidb_anime_tags at ON at.anime_id = xs.anime_id WHERE at.tag_id = ?))',
    );
    expect(and.parameters).toEqual([7]);
    expect(compile({ Type: 'Or', Left: tag, Right: tag }).text).toMatch(/^\(it\.id IN .* OR it\.id IN .*\)$/);
    expect(compile({ Type: 'Not', Left: tag }).text).toMatch(/^\(NOT it\.id IN /);
    expect(compile({ Type: 'Xor', Left: tag, Right: files }).text).toMatch(
      /^\(\(CASE WHEN it\.id IN .* THEN 1 ELSE 0 END\) <> \(CASE WHEN EXISTS .* THEN 1 ELSE 0 END\)\)$/,
    );
    expect(compile({ Type: 'Equals', Left: tag, Right: files }).text).toMatch(/ END\) = \(CASE WHEN /);
  });

  it('refuses unknown types, selectors and missing children, naming the node', () => {
    expect(() => compile({ Type: 'Bogus' })).toThrow(new FilterError("Unknown expression type 'Bogus'."));
    expect(() => compile({ Type: 'AirDate' })).toThrow("'AirDate' is a selector, not a condition.");
    expect(() => compile({ Type: 'And', Left: files })).toThrow('And needs Right.');
  });
});

describe('facts about a candidate', () => {
  it('read favourites of the viewer for groups; a series is never one', () => {
    expect(compile({ Type: 'IsFavorite' }, { level: 'group', userId: 5 })).toMatchObject({
      text: 'it.id IN (SELECT fav.group_id FROM user_group_favourites fav WHERE fav.user_id = ?)',
      parameters: [5],
    });
    expect(compile({ Type: 'IsFavorite' }).text).toBe('(1 = 0)');
    expect(compile({ Type: 'HasTvDBLink' }).text).toBe('(1 = 0)');
  });

  it("match an anime type by the v3 name and AniDB's text", () => {
    expect(compile({ Type: 'HasAnimeType', Parameter: 'TVSeries' })).toMatchObject({
      text: '(ia.type IN (?, ?))',
      parameters: ['TV', 'TV Series'],
    });
    expect(compile({ Type: 'HasAnimeType', Parameter: 'Whatever' }).parameters).toEqual(['Unknown', 'unknown']);
  });

  it('find the air dates within a year or a season, and refuse an unknown season', () => {
    expect(compile({ Type: 'InSeason', Parameter: '2020', SecondParameter: 'Summer' })).toMatchObject({
      text: '(ia.air_date IS NOT NULL AND ia.air_date <= ? AND COALESCE(ia.end_date, ia.air_date) >= ?)',
      parameters: ['2020-09-30', '2020-07-01'],
    });
    expect(compile({ Type: 'InYear', Parameter: '1999' }).parameters).toEqual(['1999-12-31', '1999-01-01']);
    expect(() => compile({ Type: 'InSeason', Parameter: '2020', SecondParameter: 'Monsoon' })).toThrow(
      "InSeason: 'Monsoon' is not one of Winter, Spring, Summer, Fall.",
    );
  });

  it('check creator roles and character appearances against their lists', () => {
    expect(compile({ Type: 'HasCreatorWithRole', Parameter: '3', SecondParameter: 'Director' }, { level: 'group' }).parameters).toEqual([
      3,
      'Director',
    ]);
    expect(() => compile({ Type: 'HasCreatorWithRole', Parameter: '3', SecondParameter: 'Chef' })).toThrow(
      "HasCreatorWithRole: 'Chef' is not one of",
    );
    expect(compile({ Type: 'HasCharacterWithAppearance', Parameter: '3', SecondParameter: 'Unknown' }).parameters).toEqual([
      3,
      '',
      'unknown',
    ]);
  });

  it('read watch state from the maintained rows of the viewer when the scope has them', () => {
    expect(compile({ Type: 'HasUnwatchedEpisodes' }, { level: 'group', maintainedFigures: true, userId: 2 })).toEqual({
      text: 'COALESCE(gf.local_episode_count > COALESCE(guf.watched_local_count, 0), 1 = 0)',
      parameters: [],
      joins:
        'LEFT JOIN group_figures gf ON gf.group_id = it.id LEFT JOIN group_user_figures guf ON guf.group_id = it.id AND guf.user_id = 2',
    });
    expect(compile({ Type: 'HasWatchedEpisodes' }, { level: 'group', userId: 2 }).text).toBe(
      'it.id IN (SELECT xs.group_id FROM series xs JOIN series_user_aggregates ua ON ua.series_id = xs.id AND ua.user_id = 2 WHERE ua.watched_count > 0)',
    );
  });

  it('ask for a shared language that some series has files and none lacks it in one', () => {
    const { text, parameters } = compile({ Type: 'HasSharedAudioLanguage', Parameter: 'JPN' }, { level: 'group' });
    expect(text).toMatch(
      /^\(it\.id IN \(SELECT xs\.group_id .* WHERE sa\.anidb_file_count > 0\) AND NOT it\.id IN \(.*AND NOT EXISTS \(SELECT 1 FROM series_aggregate_values v/,
    );
    expect(parameters).toEqual(['audio', 'jpn']);
  });

  it('hand comparisons and text matches to their compilers', () => {
    expect(compile({ Type: 'NumberGreaterThan', Left: { Type: 'EpisodeCount' }, Parameter: '1' }).text).toBe(
      '((COALESCE(ia.episode_count, 0)) > CAST(? AS DOUBLE PRECISION))',
    );
    expect(compile({ Type: 'AnyRegexMatches', Left: { Type: 'AnidbTags' }, Parameter: 'a|b' }).text).toBe('(1 = 0)');
  });
});
