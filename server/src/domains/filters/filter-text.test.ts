import { describe, expect, it } from 'vitest';
import { compilePattern, PatternError, runTextMatches, textMatchWorkersStarted } from './filter-text.js';

describe('filter text matching', () => {
  it('accepts ordinary patterns and rejects invalid or risky ones', () => {
    expect(compilePattern('^(Alpha|Beta)\\s+\\d{1,3}$', true).test('alpha 12')).toBe(true);
    expect(compilePattern('(?:season|s)\\s*\\d+', false).test('s2')).toBe(true);
    for (const pattern of ['(', '(a+)+', '(a|aa)*', '(\\w+\\s?)*$', '(x)\\1', '(.*a){20}', 'a'.repeat(201)]) {
      expect(() => compilePattern(pattern, false), pattern).toThrow(PatternError);
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
