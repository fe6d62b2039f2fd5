import { describe, expect, it } from 'vitest';
import { compileSql, testScope } from '../../../test/compile-sql.js';
import { Candidates } from './candidates.js';
import { comparison } from './comparisons.js';

const compare = (node: Parameters<typeof comparison>[2], over: Parameters<typeof testScope>[0] = {}) => {
  const c = new Candidates(testScope(over));
  const compiled = comparison(c, node.Type, node);
  return compiled && compileSql(compiled, c.scope.dialect);
};

describe('comparisons', () => {
  it('compare numbers within a thousandth for equality, with the operator otherwise', () => {
    expect(compare({ Type: 'NumberEquals', Left: { Type: 'EpisodeCount' }, Parameter: '12' })).toEqual({
      text: '(abs((COALESCE(ia.episode_count, 0)) - CAST(? AS DOUBLE PRECISION)) < 0.001)',
      parameters: [12],
    });
    expect(compare({ Type: 'NumberLessThanEquals', Left: { Type: 'EpisodeCount' }, Right: { Type: 'TotalEpisodeCount' } })?.text).toBe(
      '((COALESCE(ia.episode_count, 0)) <= (COALESCE(ia.episode_count + ia.special_count, 0)))',
    );
  });

  it('compare a shifted date with the constant shifted back, not each candidate date moved', () => {
    const node = {
      Type: 'DateGreaterThan',
      Left: { Type: 'DateAdd', Left: { Type: 'AirDate' }, Parameter: '10.00:00:00' },
      Parameter: '2024-01-11',
    };
    expect(compare(node)).toEqual({
      text: '((ia.air_date) IS NOT NULL AND CAST(? AS TEXT) IS NOT NULL AND (ia.air_date) > CAST(? AS TEXT))',
      parameters: ['2024-01-01', '2024-01-01'],
    });
  });

  it('compare strings lower-cased, escaping the needle of a LIKE', () => {
    expect(compare({ Type: 'StringEquals', Left: { Type: 'Name' }, Parameter: 'Kanon' }, { level: 'group' })).toEqual({
      text: '(lower(it.name) = lower(?))',
      parameters: ['Kanon'],
    });
    expect(compare({ Type: 'StringStartsWith', Left: { Type: 'Name' }, Parameter: 'Ka' }, { level: 'group' })?.text).toBe(
      "(lower(it.name) <> '' AND lower(it.name) LIKE (replace(replace(replace(lower(?), '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%') ESCAPE '\\')",
    );
  });

  it('match a value of a set, or every value, against a constant', () => {
    expect(compare({ Type: 'AnyEquals', Left: { Type: 'AnidbTags' }, Parameter: 'Action' }, { level: 'group' })).toEqual({
      text: 'it.id IN (SELECT q.k FROM (SELECT xs.group_id AS k, t.name AS v FROM series xs JOIN anidb_anime_tags at ON at.anime_id = xs.anime_id JOIN anidb_tags t ON t.id = at.tag_id) q WHERE lower(q.v) = ?)',
      parameters: ['action'],
    });
    const all = compare({ Type: 'AllContains', Left: { Type: 'CustomTags' }, Parameter: '5%' });
    expect(all?.text).toMatch(
      /^\(it\.id NOT IN \(SELECT q\.k FROM \(.*\) q WHERE q\.k IS NOT NULL AND NOT \(lower\(q\.v\) LIKE \? ESCAPE '\\'\)\)\)$/,
    );
    expect(all?.parameters).toEqual(['%5\\%%']);
  });

  it("match a set against the candidate's name per candidate", () => {
    expect(compare({ Type: 'AllContains', Left: { Type: 'CustomTags' }, Right: { Type: 'Name' } }, { level: 'group' })?.text).toMatch(
      /^\(NOT EXISTS \(SELECT 1 FROM \(.*\) q WHERE q\.k = it\.id AND NOT \(lower\(q\.v\) LIKE \('%' \|\| replace\(replace\(replace\(lower\(it\.name\)/,
    );
  });

  it('are null for any other node', () => {
    expect(compare({ Type: 'HasTag', Parameter: 'x' })).toBeNull();
    expect(compare({ Type: 'DateAdd', Left: { Type: 'Today' }, Parameter: '1.00:00:00' })).toBeNull();
  });
});
