import { describe, expect, it } from 'vitest';
import { compileSql, testScope } from '../../../test/compile-sql.js';
import { Candidates } from './candidates.js';
import { FilterError } from './fragments.js';
import { numberExpr, numberSelector } from './number-selectors.js';

const compile = (scope: Parameters<typeof testScope>[0], id: string) => {
  const c = new Candidates(testScope(scope));
  return { ...compileSql(numberSelector(c, id), c.scope.dialect), joins: compileSql(c.joins()).text };
};

describe('number selectors', () => {
  it("read a series' anime numbers from its own joined anime row", () => {
    expect(compile({}, 'EpisodeCount').text).toBe('(COALESCE(ia.episode_count, 0))');
    // Not a bare constant, which ORDER BY would read as a column number.
    expect(compile({}, 'SeriesCount').text).toBe('(it.id * 0 + 1)');
  });

  it("sum a group's series, 0 where it has none", () => {
    expect(compile({ level: 'group' }, 'EpisodeCount').text).toBe(
      '(SELECT COALESCE(SUM(a.episode_count), 0) FROM series xs JOIN anidb_anime a ON a.id = xs.anime_id WHERE xs.group_id = it.id)',
    );
  });

  it("count the viewer's votes of a type", () => {
    expect(compile({ level: 'group', userId: 4 }, 'SeriesPermanentVoteCount').text).toBe(
      "(SELECT COALESCE(COUNT(*), 0) FROM series xs JOIN user_series_votes v ON v.series_id = xs.id AND v.user_id = 4 AND v.vote_type = 'Permanent' WHERE xs.group_id = it.id)",
    );
  });

  it('count languages over the value rows of each series, bound by kind', () => {
    const { text, parameters } = compile({ level: 'group' }, 'AudioLanguageCount');
    expect(text).toBe(
      '(SELECT COALESCE(COUNT(DISTINCT v.value), 0) FROM series xs CROSS JOIN series_aggregate_values v WHERE xs.group_id = it.id AND v.series_id = xs.id AND v.kind = ?)',
    );
    expect(parameters).toEqual(['audio']);
  });

  it('sum the collecting gaps only of the candidates with one, unless figures are joined', () => {
    expect(compile({}, 'MissingEpisodeCollectingCount').text).toBe(
      '(CASE WHEN it.id IN (SELECT xs.id FROM series xs JOIN series_filter_figures ff ON ff.series_id = xs.id WHERE ff.collecting_missing_count > 0) ' +
        'THEN (SELECT COALESCE(SUM(ff.collecting_missing_count), 0) FROM series xs JOIN series_filter_figures ff ON ff.series_id = xs.id WHERE xs.id = it.id) ELSE 0 END)',
    );
    const joined = compile({ joinFigures: true }, 'MissingEpisodeCollectingCount');
    expect(joined.text).toBe('COALESCE(fig1.v, 0)');
    expect(joined.joins).toContain('SUM(ff.collecting_missing_count) AS v');
  });

  it('read maintained figures when the scope has them', () => {
    expect(compile({ level: 'group', maintainedFigures: true }, 'VideoFiles')).toEqual({
      text: 'COALESCE(gf.file_count, 0)',
      parameters: [],
      joins: 'LEFT JOIN group_figures gf ON gf.group_id = it.id',
    });
  });

  it('refuse what is not a number selector', () => {
    const c = new Candidates(testScope());
    expect(() => numberSelector(c, 'AirDate')).toThrow(new FilterError("'AirDate' is not a number selector."));
    expect(() => numberExpr(c, { Type: 'Names' })).toThrow("'Names' is not a number selector.");
    expect(compileSql(numberExpr(c, { Type: 'VideoFilesSelector' })).text).toBe(
      '(SELECT COALESCE(SUM(sa.file_count), 0) FROM series xs JOIN series_aggregates sa ON sa.series_id = xs.id WHERE xs.id = it.id)',
    );
  });
});
