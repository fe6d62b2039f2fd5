import type { FilterCondition } from '@shoko-ts/contract';
import { describe, expect, it } from 'vitest';
import { compileSql, testScope } from '../../../test/compile-sql.js';
import { Candidates } from './candidates.js';
import { FilterError } from './fragments.js';
import type { FilterScope } from './scope.js';
import { textMatch, textMatchPlan } from './text-matches.js';

const plan = (node: FilterCondition, over: Partial<FilterScope> = {}) => {
  const c = new Candidates(testScope(over));
  const p = textMatchPlan(c, node);
  const text = (f: Parameters<typeof compileSql>[0] | null) => (f ? compileSql(f, c.scope.dialect).text : null);
  return { ...p, values: text(p.values), settled: text(p.settled), needles: text(p.needles) };
};

describe('the plan of a regex node', () => {
  it('sends every value to the worker when the pattern requires no text', () => {
    const p = plan({ Type: 'AnyRegexMatches', Left: { Type: 'AnidbTags' }, Parameter: 'a|b' });
    expect(p).toMatchObject({ kind: 'regex', pattern: 'a|b', ignoreCase: true, all: false, settled: null, folded: false });
    expect(p.values).toMatch(/^SELECT xs\.id AS k, t\.name AS v FROM series xs/);
  });

  it('sends only the values holding the required text, and settles a pattern that is only a prefix', () => {
    const some = plan({ Type: 'StringRegexMatches', Left: { Type: 'Name' }, Parameter: '^Kan.n' });
    expect(some.ignoreCase).toBe(false);
    expect(some.values).toMatch(/^SELECT q\.k AS k, q\.v AS v FROM \(SELECT it\.id AS k, .*\) q WHERE substr\(q\.v, 1, 3\) = \?$/);
    expect(some.settled).toBeNull();
    const exact = plan({ Type: 'AnyRegexMatches', Left: { Type: 'Names' }, Parameter: '^kanon' });
    expect(exact.values).toBeNull();
    expect(exact.settled).toMatch(/WHERE substr\(q\.v, 1, 5\) LIKE \? ESCAPE '\\'$/);
  });

  it('under AllRegexMatches settles the candidates with a value lacking the text', () => {
    const p = plan({ Type: 'AllRegexMatches', Left: { Type: 'Names' }, Parameter: 'kan' });
    expect(p.all).toBe(true);
    expect(p.settled).toMatch(/^SELECT q\.k AS k FROM \(.*\) q WHERE q\.v IS NOT NULL AND NOT q\.v LIKE \? ESCAPE '\\'$/);
  });

  it('refuses a pattern that does not compile, or a node that is no text match', () => {
    expect(() => plan({ Type: 'AnyRegexMatches', Left: { Type: 'Names' }, Parameter: '(' })).toThrow(FilterError);
    expect(() => plan({ Type: 'HasTag', Parameter: 'x' })).toThrow("'HasTag' is not a text-matching expression.");
  });
});

describe('the plan of a fuzzy node', () => {
  it('compares names by their folds: one piece is settled by the database, a name not folded yet goes to the worker', () => {
    const p = plan({ Type: 'AnyFuzzyMatches', Left: { Type: 'Names' }, Parameter: 'ka' }, { dialect: 'postgres' });
    expect(p).toMatchObject({ kind: 'fuzzy', folded: true, needles: null });
    expect(p.values).toMatch(/q\.f AS f FROM \(.*\) q WHERE q\.f IS NULL$/);
    expect(p.settled).toMatch(/WHERE strpos\(q\.f, \$\d+\) > 0$/);
  });

  it('sends a set other than names whole, and reads per-candidate needles for a Right selector', () => {
    expect(plan({ Type: 'AnyFuzzyMatches', Left: { Type: 'AnidbTags' }, Parameter: 'kanon' })).toMatchObject({
      folded: false,
      settled: null,
    });
    const right = plan({ Type: 'StringFuzzyMatches', Left: { Type: 'Name' }, Right: { Type: 'Name' } });
    expect(right.pattern).toBe('');
    expect(right.needles).toMatch(/^SELECT it\.id AS k, COALESCE\(it\.title_override, ia\.main_title, ''\) AS v FROM series it/);
  });
});

describe('a text-match condition', () => {
  const node: FilterCondition = { Type: 'AnyRegexMatches', Left: { Type: 'AnidbTags' }, Parameter: 'a|b' };

  it('is a placeholder when only validating, and an error when the worker did not resolve it', () => {
    expect(compileSql(textMatch(new Candidates(testScope()), node)).text).toBe('(1 = 0)');
    expect(() => textMatch(new Candidates(testScope({ textMatches: new Map() })), node)).toThrow('was not resolved before compiling');
  });

  it("inlines the worker's ids, and adds or removes the candidates the database settled", () => {
    const resolved = new Candidates(testScope({ textMatches: new Map([[node, { ids: [4, 9], negate: false }]]) }));
    expect(compileSql(textMatch(resolved, node)).text).toBe('(it.id IN (4, 9))');
    const prefix: FilterCondition = { Type: 'AnyRegexMatches', Left: { Type: 'AnidbTags' }, Parameter: '^ka' };
    const none = new Candidates(testScope({ textMatches: new Map([[prefix, { ids: [], negate: false }]]) }));
    expect(compileSql(textMatch(none, prefix)).text).toMatch(/^\(1 = 0 OR it\.id IN \(SELECT s\.k FROM \(SELECT q\.k AS k, q\.v AS v FROM/);
    const all: FilterCondition = { Type: 'AllRegexMatches', Left: { Type: 'AnidbTags' }, Parameter: 'ka' };
    const negated = new Candidates(testScope({ textMatches: new Map([[all, { ids: [3], negate: true }]]) }));
    expect(compileSql(textMatch(negated, all)).text).toMatch(/^\(it\.id NOT IN \(3\) AND NOT it\.id IN \(SELECT s\.k FROM/);
  });

  it('under AllRegexMatches over names looks up the names lacking the text per kind of name', () => {
    const all: FilterCondition = { Type: 'AllRegexMatches', Left: { Type: 'Names' }, Parameter: 'ka' };
    const c = new Candidates(testScope({ textMatches: new Map([[all, { ids: [], negate: true }]]) }));
    expect(compileSql(textMatch(c, all)).text).toMatch(
      /^\(1 = 1 AND \(NOT EXISTS \(SELECT 1 FROM anidb_anime_titles t WHERE t\.anime_id = it\.anime_id AND NOT \(t\.value LIKE \?/,
    );
  });
});
