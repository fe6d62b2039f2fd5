import { describe, expect, it } from 'vitest';
import { andAll, previewBody, searchCondition } from '@/api/filters';
import { mergeCollectionSettings } from './collectionSettings';
import { conditionNode, conditionsExpression, describeCondition, parameterKind } from './filterConditions';
import { unwatchedCount } from './PosterImage';

const counts = (Episodes: number, Specials = 0, Others = 0) => ({
  Unknown: 0,
  Episodes,
  Specials,
  Credits: 0,
  Trailers: 0,
  Parodies: 0,
  Others,
});

describe('live filter bodies (contract §7.9)', () => {
  it('turns search text into a Names condition, numeric text also matching AniDB ids', () => {
    expect(searchCondition('  ')).toBeNull();
    expect(searchCondition(' frieren ')).toEqual({ Type: 'AnyContains', Left: { Type: 'NamesSelector' }, Parameter: 'frieren' });
    expect(searchCondition('123')).toEqual({
      Type: 'Or',
      Left: { Type: 'AnyContains', Left: { Type: 'NamesSelector' }, Parameter: '123' },
      Right: { Type: 'AnyEquals', Left: { Type: 'AniDBIDsSelector' }, Parameter: '123' },
    });
  });

  it('folds conditions right-nested and sends {} when there is nothing to filter', () => {
    const [a, b, c] = ['A', 'B', 'C'].map((Type) => ({ Type }));
    expect(andAll([a, null, b, c])).toEqual({ Type: 'And', Left: a, Right: { Type: 'And', Left: b, Right: c } });
    expect(previewBody([null, undefined])).toEqual({});
    expect(previewBody([a])).toEqual({ ApplyAtSeriesLevel: true, Expression: a, Sorting: { Type: 'Name', IsInverted: false } });
    expect(previewBody([], { Type: 'AirDate', IsInverted: true })).toEqual({
      ApplyAtSeriesLevel: true,
      Sorting: { Type: 'AirDate', IsInverted: true },
    });
  });

  it('builds sidebar conditions: excluded tags And-chained under Not, other values by match mode, seasons as pairs', () => {
    expect(conditionNode({ expression: 'HasTag', name: 'Has Tag', values: ['a', 'b'], exclude: true, matchMode: 'Or' })).toEqual({
      Type: 'And',
      Left: { Type: 'Not', Left: { Type: 'HasTag', Parameter: 'a' } },
      Right: { Type: 'Not', Left: { Type: 'HasTag', Parameter: 'b' } },
    });
    expect(
      conditionNode({ expression: 'HasAnimeType', name: 'Has Anime Type', values: ['Movie', 'OVA'], exclude: false, matchMode: 'Or' }),
    ).toEqual({
      Type: 'Or',
      Left: { Type: 'HasAnimeType', Parameter: 'Movie' },
      Right: { Type: 'HasAnimeType', Parameter: 'OVA' },
    });
    expect(conditionNode({ expression: 'InSeason', name: 'In Season', values: ['2024|Winter'], exclude: false, matchMode: 'Or' })).toEqual({
      Type: 'InSeason',
      Parameter: '2024',
      SecondParameter: 'Winter',
    });
    expect(conditionNode({ expression: 'IsFinished', name: 'Is Finished', values: [], exclude: true, matchMode: 'Or' })).toEqual({
      Type: 'Not',
      Left: { Type: 'IsFinished' },
    });
    expect(conditionsExpression([])).toBeNull();
    expect(
      describeCondition({
        expression: 'InSeason',
        name: 'In Season',
        values: ['2024|Winter', '2024|Fall'],
        exclude: false,
        matchMode: 'Or',
      }),
    ).toBe('In Season: 2024 Winter or 2024 Fall');
  });

  it('knows which input a criterion needs', () => {
    expect(parameterKind({})).toBe('none');
    expect(parameterKind({ Parameter: 'String' })).toBe('text');
    expect(parameterKind({ Parameter: 'String', PossibleParameters: ['x'] })).toBe('choices');
    expect(parameterKind({ Parameter: 'Number', PossibleParameterPairs: [['2024', 'Winter']] })).toBe('pairs');
  });
});

describe('collection display', () => {
  it('counts unwatched local episodes of every type, never below zero', () => {
    expect(unwatchedCount({ Sizes: { Local: counts(10, 2, 1), Watched: counts(4, 1) } })).toBe(8);
    expect(unwatchedCount({ Sizes: { Local: counts(1), Watched: counts(3) } })).toBe(0);
  });

  it('fills missing collection settings with defaults', () => {
    const settings = mergeCollectionSettings({ view: 'list', poster: { showEpisodeCount: false } });
    expect(settings.view).toBe('list');
    expect(settings.poster).toEqual({ showEpisodeCount: false, showGroupIndicator: true, showUnwatchedCount: true });
    expect(mergeCollectionSettings('junk').view).toBe('poster');
  });
});
