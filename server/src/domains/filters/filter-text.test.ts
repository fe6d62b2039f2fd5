import { describe, expect, it } from 'vitest';
import { compilePattern, PatternError, requiredLiteral, runTextMatches, textMatchWorkersStarted } from './filter-text.js';

describe('filter text matching', () => {
  it('accepts ordinary patterns and rejects invalid or risky ones', () => {
    expect(compilePattern('^(Alpha|Beta)\\s+\\d{1,3}$', true).test('alpha 12')).toBe(true);
    expect(compilePattern('(?:season|s)\\s*\\d+', false).test('s2')).toBe(true);
    for (const pattern of ['(', '(a+)+', '(a|aa)*', '(\\w+\\s?)*$', '(x)\\1', '(.*a){20}', 'a'.repeat(201)]) {
      expect(() => compilePattern(pattern, false), pattern).toThrow(PatternError);
    }
  });

  it('finds the text every match of a pattern holds, and none where one is not certain', () => {
    const cases: Array<[string, string | null]> = [
      ['^ka', 'ka'],
      ['Chronicle$', 'chronicle'],
      ['ENGLISH\\s+title$', 'english'],
      ['Sword Art-Online_2', 'sword art-online_2'],
      ['abc?d', 'ab'],
      ['abc*', 'ab'],
      ['abc{0,2}', 'ab'],
      ['abc+', 'abc'],
      ['ab?', null],
      ['^k', null],
      ['a|b', null],
      ['^(Alpha|Beta) ', null],
      ['(ka)', null],
      ['[kK]a', null],
      ['.ka', null],
      ['\\bka', null],
    ];
    for (const [pattern, literal] of cases) expect(requiredLiteral(pattern), pattern).toBe(literal);
    // Whatever a pattern with a literal matches holds the literal, in any case.
    const values = ['KAZE no Tani', 'Bakabon', 'kA', 'k a', 'ſka', 'Kelvin \u212Aa', 'Chronicles', 'chronicle', 'abd', 'abcd', 'ab'];
    for (const pattern of ['^ka', 'ka', 'chronicle$', 'abc?d', 'abc+', 'ab']) {
      const literal = requiredLiteral(pattern)!;
      const regex = compilePattern(pattern, true);
      for (const value of values) if (regex.test(value)) expect(value.toLowerCase(), `${pattern} ${value}`).toContain(literal);
    }
  });

  it('matches regexes and fuzzy needles per value', async () => {
    const [regex, fuzzy, perValue] = await runTextMatches([
      { kind: 'regex', pattern: 'chronicle$', ignoreCase: true, values: ['Beta CHRONICLE', 'Chronicles'], needles: null },
      {
        kind: 'fuzzy',
        pattern: 'Frieren Beyond',
        ignoreCase: true,
        values: ['Sousou no Frieren: Beyond Journey’s End', 'Frieren', 'Freiren Beyond'],
        needles: null,
      },
      { kind: 'fuzzy', pattern: '', ignoreCase: true, values: ['Alpha Academy', 'Beta'], needles: ['acadamy', 'x'] },
    ]);
    expect([...regex]).toEqual([1, 0]);
    expect([...fuzzy]).toEqual([1, 0, 1]);
    expect([...perValue]).toEqual([1, 0]);
  });

  it('queues concurrent evaluations and answers each', async () => {
    const runs = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        runTextMatches([{ kind: 'regex', pattern: `^${i}$`, ignoreCase: false, values: ['0', '1', '2', '3', '4'], needles: null }]),
      ),
    );
    expect(runs.map(([flags]) => [...flags].indexOf(1))).toEqual([0, 1, 2, 3, 4]);
  });

  it('gives up on a pattern that backtracks for too long, and answers the next evaluation all the same', async () => {
    await expect(
      runTextMatches([{ kind: 'regex', pattern: '^(a|aa)*$', ignoreCase: false, values: [`${'a'.repeat(64)}b`], needles: null }]),
    ).rejects.toThrow(PatternError);
    const [after] = await runTextMatches([{ kind: 'regex', pattern: 'b$', ignoreCase: false, values: ['ab', 'ba'], needles: null }]);
    expect([...after]).toEqual([1, 0]);
  });

  it('keeps its workers for the next evaluations instead of starting one each time', async () => {
    const job = { kind: 'regex' as const, pattern: 'a', ignoreCase: false, values: ['a', 'b'], needles: null };
    await runTextMatches([job]);
    const before = textMatchWorkersStarted();
    for (let i = 0; i < 5; i++) expect([...(await runTextMatches([job]))[0]]).toEqual([1, 0]);
    expect(textMatchWorkersStarted()).toBe(before);
  });
});
