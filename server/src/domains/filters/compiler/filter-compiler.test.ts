import { describe, expect, it } from 'vitest';
import { compileSql, testScope } from '../../../test/compile-sql.js';
import { FilterCompiler } from './filter-compiler.js';

describe('the filter compiler', () => {
  it('collects the figures its condition and order read, to be joined once to the candidates', () => {
    const compiler = new FilterCompiler(testScope({ level: 'group', joinFigures: true, maintainedFigures: true }));
    const where = compiler.bool({ Type: 'NumberGreaterThan', Left: { Type: 'HighestUserRating' }, Parameter: '7' });
    const order = compiler.orderBy({ Type: 'AirDate', IsInverted: false, Next: { Type: 'HighestUserRating', IsInverted: true } });
    expect(compileSql(where).text).toBe('(COALESCE(fig1.v, 0) > CAST(? AS DOUBLE PRECISION))');
    expect(compileSql(order).text).toBe('(gf.air_date) ASC NULLS LAST, COALESCE(fig1.v, 0) DESC NULLS LAST, it.id ASC');
    expect(compileSql(compiler.joins()).text).toBe(
      'LEFT JOIN (SELECT xs.group_id AS k, MAX(v.value) AS v FROM series xs JOIN user_series_votes v ON v.series_id = xs.id AND v.user_id = 1 GROUP BY xs.group_id) fig1 ON fig1.k = it.id ' +
        'LEFT JOIN group_figures gf ON gf.group_id = it.id',
    );
  });

  it('answers single selectors and the plan of a text match', () => {
    const compiler = new FilterCompiler(testScope());
    expect(compileSql(compiler.numberSelector('LowestAniDBRating')).text).toBe('(COALESCE(ia.rating, 0) / 100.0)');
    expect(compileSql(compiler.dateSelector('AirDate')).text).toBe('(ia.air_date)');
    expect(compiler.textMatchPlan({ Type: 'StringFuzzyMatches', Left: { Type: 'Name' }, Parameter: 'kanon' })).toMatchObject({
      kind: 'fuzzy',
      folded: true,
    });
  });
});
