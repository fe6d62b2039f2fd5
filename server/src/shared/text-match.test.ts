import { describe, expect, it } from 'vitest';
import { foldText } from '../db/name-folds.js';
import { compilePattern, fuzzyPieces, PatternError, requiredLiteral, runTextMatches, textMatchWorkersStarted } from './text-match.js';

describe('filter text matching', () => {
  it('accepts ordinary patterns and rejects invalid or risky ones', () => {
    expect(compilePattern('^(Alpha|Beta)\\s+\\d{1,3}$', true).test('alpha 12')).toBe(true);
    expect(compilePattern('(?:season|s)\\s*\\d+', false).test('s2')).toBe(true);
    for (const pattern of ['(', '(a+)+', '(a|aa)*', '(\\w+\\s?)*$', '(x)\\1', '(.*a){20}', 'a'.repeat(201)]) {
      expect(() => compilePattern(pattern, false), pattern).toThrow(PatternError);
    }
  });

  it('finds the text every match of a pattern holds, and none where one is not certain', () => {
    const cases: Array<[string, string | null, boolean?, boolean?]> = [
      ['^ka', 'ka', true, true],
      ['Kaze no', 'kaze no', false, true],
      ['Chronicle$', 'chronicle'],
      ['ENGLISH\\s+title$', 'english'],
      ['Sword Art-Online_2', 'sword art-online_2', false, true],
      ['abc?d', 'ab'],
      ['^abc?d', 'ab', true],
      ['abc*', 'ab'],
      ['abc{0,2}', 'ab'],
      ['abc+', 'abc'],
      ['abc?', 'ab'],
      ['ab?', null],
      ['^k', null],
      ['a|b', null],
      ['^(Alpha|Beta) ', null],
      ['(ka)', null],
      ['[kK]a', null],
      ['.ka', null],
      ['\\bka', null],
    ];
    for (const [pattern, text, prefix = false, whole = false] of cases)
      expect(requiredLiteral(pattern), pattern).toEqual(
        text === null ? null : { text, written: pattern.replace(/^\^/, '').slice(0, text.length), prefix, whole },
      );
    // Whatever a pattern with a literal matches holds the literal, in any case, at the start when it is a prefix.
    const values = [
      'KAZE no Tani',
      'Bakabon',
      'kA',
      'k a',
      'ſka',
      'Kelvin \u212Aa',
      'Chronicles',
      'chronicle',
      'abd',
      'abcd',
      'ab',
      'xabd',
    ];
    for (const pattern of ['^ka', 'ka', 'chronicle$', 'abc?d', '^abc?d', 'abc+', 'ab', '^kaze no', 'bon']) {
      const literal = requiredLiteral(pattern)!;
      const regex = compilePattern(pattern, true);
      for (const value of values) {
        if (!regex.test(value)) continue;
        expect(value.toLowerCase(), `${pattern} ${value}`).toContain(literal.text);
        if (literal.prefix) expect(value.toLowerCase().startsWith(literal.text), `${pattern} ${value}`).toBe(true);
      }
      // A whole literal matches exactly the values holding it, compared with ASCII case folded only.
      if (literal.whole)
        for (const value of values) {
          const folded = value.replace(/[A-Z]/g, (c) => c.toLowerCase());
          expect(regex.test(value), `${pattern} ${value}`).toBe(
            literal.prefix ? folded.startsWith(literal.text) : folded.includes(literal.text),
          );
        }
    }
  });

  it('cuts a fuzzy needle into pieces, one of which every match within its edits holds', async () => {
    expect(foldText('  Pokémon: Ｌｅｔ’s GO!  ')).toBe('pokemon let s go');
    expect(fuzzyPieces('ka')).toEqual(['ka']);
    expect(fuzzyPieces('Kimi')).toEqual(['ki', 'mi']);
    expect(fuzzyPieces('Frieren: Beyond')).toEqual(['fri', 'eren', ' be', 'yond']);
    expect(fuzzyPieces(' !? ')).toEqual([]);
    // Cut at code points: no piece holds half of a surrogate pair (encodeURIComponent throws on one).
    const astral = fuzzyPieces('\u{20000}\u{20001}\u{20002}\u{20003}\u{20004}\u{20005}\u{20006}\u{20007}');
    expect(astral).toHaveLength(5);
    for (const piece of astral) expect(() => encodeURIComponent(piece)).not.toThrow();
    // Every value the worker accepts holds a piece of the needle, checked over edited copies of needles in longer texts.
    const needles = ['Frieren Beyond', 'Attack on Titan', 'kimi no na wa', 'Shingeki', 'Léon'];
    const values: string[] = [];
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 48271) % 2147483647), seed % n);
    for (const needle of needles)
      for (let copy = 0; copy < 40; copy++) {
        const chars = [...needle];
        for (let edit = 0; edit < 1 + random(3); edit++) {
          const at = random(chars.length);
          const kind = random(3);
          if (kind === 0) chars.splice(at, 1);
          else if (kind === 1) chars.splice(at, 0, 'xyzé-'[random(5)]!);
          else chars[at] = 'qwé'[random(3)]!;
        }
        values.push(`The ${chars.join('')} Season ${copy}`);
      }
    const flags = await runTextMatches(
      needles.map((needle) => ({ kind: 'fuzzy', pattern: needle, ignoreCase: true, values, needles: null })),
    );
    let accepted = 0;
    needles.forEach((needle, n) =>
      values.forEach((value, i) => {
        if (!flags[n]![i]) return;
        accepted++;
        expect(
          fuzzyPieces(needle).some((piece) => foldText(value).includes(piece)),
          `${needle} / ${value}`,
        ).toBe(true);
      }),
    );
    expect(accepted).toBeGreaterThan(needles.length * 10);
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
