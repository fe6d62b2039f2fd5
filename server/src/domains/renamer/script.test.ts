import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SCRIPT,
  evaluateScript,
  MAX_NAME_LENGTH,
  parseScript,
  ScriptError,
  substituteInvalidCharacters,
  type RenameSubject,
} from './script.js';

const subject = (overrides: Partial<RenameSubject> = {}): RenameSubject => ({
  animeId: 42,
  animeType: 'TV Series',
  year: 2015,
  mainTitle: 'Kino no Tabi',
  englishTitle: "Kino's Journey",
  kanjiTitle: 'キノの旅',
  normalEpisodeCount: 12,
  specialEpisodeCount: 2,
  episodes: [{ id: 900, type: '', number: 3, englishTitle: 'Colosseum', romajiTitle: 'Toushijou' }],
  anidbFile: {
    fileId: 77,
    groupId: 5,
    groupShortName: 'Grp',
    groupLongName: 'The Group',
    version: 2,
    source: 'Blu-ray',
    audioLanguages: ['japanese'],
    subtitleLanguages: ['english'],
    censored: false,
    deprecated: false,
    originalName: 'orig.mkv',
  },
  ed2k: 'ABCDEF0123',
  crc32: 'DEADBEEF',
  video: { width: 1920, height: 1080, codec: 'H264', bitDepth: 10 },
  audioCodec: 'AAC',
  extension: '.mkv',
  manuallyLinked: false,
  ...overrides,
});

const run = (script: string, s = subject(), maxEpisodeLength = 33) => evaluateScript(parseScript(script), s, { maxEpisodeLength });

describe('renamer script language', () => {
  it('builds names from tags and appends the extension', () => {
    expect(run("DO ADD '%ann - %enr [%CRC]'")).toBe('Kino no Tabi - 03 [DEADBEEF].mkv');
    expect(run("DO ADD '%aid %eid %fid %gid %ver %src %res %vdh %yea %typ %vid %aud %bit %dub %sub %crc %ed2 %eps'")).toBe(
      '42 900 77 5 2 Blu-ray 1920x1080 1080 2015 tv series H264 AAC 10 japanese english deadbeef abcdef0123 12.mkv',
    );
  });

  it('removes quotes from the whole name at each ADD (apostrophes in titles included)', () => {
    expect(run("DO ADD '%eng'\nDO ADD '!'")).toBe('Kinos Journey!.mkv');
  });

  it('pads episode numbers, prefixes types and spans multi-episode files', () => {
    const episodes = [
      { id: 1, type: 'S' as const, number: 1, englishTitle: null, romajiTitle: null },
      { id: 2, type: 'S' as const, number: 2, englishTitle: null, romajiTitle: null },
    ];
    expect(run("DO ADD '%enr'", subject({ episodes }))).toBe('S01-02.mkv');
    expect(run("DO ADD '%enr'", subject({ normalEpisodeCount: 150 }))).toBe('003.mkv');
  });

  it('truncates episode titles to Max Episode Length', () => {
    expect(run("DO ADD '%epn'", subject(), 5)).toBe('Colo\u2026.mkv');
  });

  it('evaluates IF with AND (;), OR (,), negation and numeric comparisons', () => {
    expect(run("IF T(Movie) DO ADD 'movie'\nIF T(!Movie) DO ADD 'series'")).toBe('series.mkv');
    expect(run("IF F(>=2);Y(<2020) DO ADD 'yes'\nDO ADD '!'")).toBe('yes!.mkv');
    expect(run("IF F(!1) DO ADD 'v'\nDO ADD 'x'", subject({ anidbFile: null }))).toBe('x.mkv');
    expect(run("IF F(>2);Y(<2020) DO ADD 'no'\nDO ADD 'x'")).toBe('x.mkv');
    expect(run("IF E(99),H(E) DO ADD 'or'")).toBe('or.mkv');
    expect(run("IF I(!crc) DO ADD 'nocrc'\nIF I(crc) DO ADD 'crc'")).toBe('crc.mkv');
    expect(run("IF D(japanese);S(!none) DO ADD 'dubsub'")).toBe('dubsub.mkv');
    expect(run("IF M() DO ADD 'manual'\nDO ADD 'auto'")).toBe('auto.mkv');
  });

  it('REPLACE replaces in the name built so far; comments and blank lines are skipped', () => {
    // The text up to the comment is added as written, the space before `//` included.
    expect(run("DO ADD 'a b c' // comment\n\n// whole comment\nDO REPLACE ' ' '_'")).toBe('a_b_c_.mkv');
  });

  it('FAIL on a passing condition refuses the file; unconditional DO FAIL does nothing', () => {
    expect(() => run("IF T(!Movie) DO FAIL\nDO ADD 'x'")).toThrow(ScriptError);
    expect(run("DO FAIL\nDO ADD 'x'")).toBe('x.mkv');
  });

  it('reports missing data, syntax errors with their line and an empty name as script errors', () => {
    expect(() => run("DO ADD '%eng'", subject({ englishTitle: null }))).toThrow(/English anime title/);
    expect(() => run("DO ADD 'x'\nrm -rf /")).toThrow(/Line 2/);
    expect(() => run("IF Q(1) DO ADD 'x'")).toThrow(/Unknown test/);
    expect(() => run("DO REPLACE 'a'")).toThrow(/Line 1/);
    expect(() => run("DO ADD ''")).toThrow(/empty file name/);
  });

  it('substitutes characters that cannot be in a file name and never yields a path', () => {
    expect(run("DO ADD 'a/b\\\\c:d*e?f|g<h>i\"j'")).toBe('a\u2044b\u29f9\u29f9c\u0589d\u2605e\uff1ff\u00a6g\u2039h\u203ai\u2033j.mkv');
    expect(run("DO ADD '../../etc/passwd'")).not.toContain('/');
    expect(substituteInvalidCharacters('.hidden.')).toBe('\u2024hidden\u2024');
  });

  it('cannot escape the sandbox: script text is data, never code', () => {
    const globalBefore = Object.keys(globalThis).length;
    const attempts = [
      "DO ADD '${process.exit(1)}'",
      'DO ADD \'`${require("fs").readFileSync("/etc/passwd")}`\'',
      "DO ADD '%__proto__ %constructor %process'",
      "DO ADD 'x'\nDO REPLACE 'x' 'constructor.constructor(\"return process\")()'",
      "IF I(constructor) DO ADD 'bad'\nDO ADD 'ok'",
    ];
    const results = attempts.map((script) => run(script));
    expect(results[0]).toBe('${process.exit(1)}.mkv');
    expect(results[1]).not.toContain('root:');
    expect(results[2]).toBe('%__proto__ %constructor %process.mkv');
    expect(results[3]).toBe('constructor.constructor(\u2033return process\u2033)().mkv');
    expect(results[4]).toBe('ok.mkv');
    expect(Object.keys(globalThis).length).toBe(globalBefore);
  });

  it('bounds execution: long scripts, many lines and runaway names are refused', () => {
    expect(() => parseScript('x'.repeat(70_000))).toThrow(/longer than/);
    expect(() => parseScript('\n'.repeat(3000))).toThrow(/more than/);
    const doubling = [
      "DO ADD 'ab'",
      ...Array.from({ length: 20 }, () => "DO REPLACE 'a' 'aa'"),
      ...Array.from({ length: 12 }, () => "DO REPLACE 'b' 'bbbbbbbbbb'"),
    ].join('\n');
    expect(() => run(doubling)).toThrow(new RegExp(`longer than ${MAX_NAME_LENGTH}`));
  });

  it('runs the default script', () => {
    expect(run(DEFAULT_SCRIPT)).toBe("[Grp]_Kino's_Journey_-_03v2_(1920x1080_Blu-ray_H264_10bit)_[DEADBEEF].mkv".replace("'", ''));
    const plain = subject({ englishTitle: null, anidbFile: null, video: null, crc32: 'ABCD1234', animeType: 'Movie' });
    expect(run(DEFAULT_SCRIPT, plain)).toBe('[Unknown]_Kino_no_Tabi_()_[ABCD1234].mkv');
  });
});
