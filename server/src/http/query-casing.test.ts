import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { normalizeQueryCasing } from './query-casing.js';

const schema = Type.Object({
  recursive: Type.Optional(Type.Boolean()),
  includeDataFrom: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
  flags: Type.Optional(Type.Array(Type.Boolean())),
  channel: Type.Optional(Type.Union([Type.Literal('Auto'), Type.Literal('Stable')])),
  kinds: Type.Optional(Type.Array(Type.Union([Type.Literal('Episode'), Type.Literal('Special')]))),
  name: Type.Optional(Type.String()),
});

describe('normalizeQueryCasing', () => {
  it('lower-cases C# booleans, also inside arrays', () => {
    expect(normalizeQueryCasing({ recursive: 'True', flags: ['FALSE', 'true'] }, schema)).toEqual({
      recursive: 'true',
      flags: ['false', 'true'],
    });
  });

  it('renames keys to the declared casing', () => {
    expect(normalizeQueryCasing({ IncludeDataFrom: ['AniDB', 'TMDB'], RECURSIVE: 'False' }, schema)).toEqual({
      includeDataFrom: ['AniDB', 'TMDB'],
      recursive: 'false',
    });
  });

  it('maps enum words to their declared spelling, singly and in lists', () => {
    expect(normalizeQueryCasing({ channel: 'stable', kinds: ['episode', 'SPECIAL'] }, schema)).toEqual({
      channel: 'Stable',
      kinds: ['Episode', 'Special'],
    });
  });

  it('leaves words the schema does not know for validation to refuse', () => {
    expect(normalizeQueryCasing({ recursive: 'yes', channel: 'nightly', name: 'True', other: 'True' }, schema)).toEqual({
      recursive: 'yes',
      channel: 'nightly',
      name: 'True',
      other: 'True',
    });
  });
});
