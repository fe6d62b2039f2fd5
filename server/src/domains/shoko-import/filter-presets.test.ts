import type { FilterCondition, SortingCriteria } from '@shoko-ts/contract';
import { describe, expect, it } from 'vitest';
import {
  SAMPLE_FILTER_PRESETS,
  SHOKO_DEFAULT_PRESETS,
  UNSUPPORTED_SAMPLE_PRESET,
} from '../../../../fakes/src/shoko-data/filter-presets.js';
import { shokoPresetRow } from '../../test/shoko-preset-row.js';
import { mapShokoFilterPreset, type ShokoFilterPresetRow } from './filter-presets.js';

const row = (
  expression: string | null,
  sorting: string | null = null,
  extra: Partial<ShokoFilterPresetRow> = {},
): ShokoFilterPresetRow => ({
  FilterPresetID: 7,
  ParentFilterPresetID: null,
  Name: 'Test',
  FilterType: 1,
  Locked: 0,
  Hidden: 0,
  ApplyAtSeriesLevel: 0,
  Expression: expression,
  SortingExpression: sorting,
  ...extra,
});

function mapped(input: ShokoFilterPresetRow) {
  const result = mapShokoFilterPreset(input);
  if (!result.ok) throw new Error(`expected a mapped filter, got: ${result.reason}`);
  return {
    ...result.filter,
    expression: result.filter.expression === null ? null : (JSON.parse(result.filter.expression) as FilterCondition),
    sorting: result.filter.sorting === null ? null : (JSON.parse(result.filter.sorting) as SortingCriteria),
  };
}

const condition = (expression: object) => mapped(row(JSON.stringify(expression))).expression;
const reason = (input: ShokoFilterPresetRow) => {
  const result = mapShokoFilterPreset(input);
  if (result.ok) throw new Error('expected the row to be refused');
  return result.reason;
};
const sample = (name: string) => shokoPresetRow(SAMPLE_FILTER_PRESETS.find((p) => p.name === name)!);
const byName = { Type: 'Name', IsInverted: false };

describe('mapShokoFilterPreset: the sample presets', () => {
  it('maps a plain tag filter', () => {
    expect(mapped(sample('Comedy'))).toEqual({
      name: 'Comedy',
      isDirectory: false,
      isHidden: false,
      isLocked: false,
      applyAtSeriesLevel: false,
      expression: { Type: 'HasTag', Parameter: 'comedy' },
      sorting: byName,
    });
  });

  it('maps nested And/Or/Not with a tag, years and watched state', () => {
    expect(mapped(sample('Recent comedies not started')).expression).toEqual({
      Type: 'And',
      Left: {
        Type: 'And',
        Left: { Type: 'HasTag', Parameter: 'comedy' },
        Right: { Type: 'Or', Left: { Type: 'InYear', Parameter: '2023' }, Right: { Type: 'InYear', Parameter: '2024' } },
      },
      Right: { Type: 'Not', Left: { Type: 'HasWatchedEpisodes' } },
    });
  });

  it('maps a directory and its two children', () => {
    expect(mapped(sample('Seasonal picks'))).toMatchObject({ isDirectory: true, expression: null, sorting: null });
    expect(mapped(sample('Winter 2024'))).toMatchObject({
      isDirectory: false,
      applyAtSeriesLevel: true,
      expression: { Type: 'InSeason', Parameter: '2024', SecondParameter: 'Winter' },
      sorting: byName,
    });
    expect(mapped(sample('Highly rated'))).toMatchObject({
      expression: { Type: 'NumberGreaterThanEquals', Left: { Type: 'AverageAniDBRating' }, Parameter: '8' },
      sorting: { Type: 'AverageAniDBRating', IsInverted: true },
    });
  });

  it('keeps the hidden flag', () => {
    expect(mapped(sample('Long runners'))).toMatchObject({
      isHidden: true,
      expression: { Type: 'NumberGreaterThan', Left: { Type: 'EpisodeCount' }, Parameter: '50' },
    });
  });

  it('keeps series-level evaluation', () => {
    expect(mapped(sample('Frieren series'))).toMatchObject({
      applyAtSeriesLevel: true,
      expression: {
        Type: 'And',
        Left: { Type: 'AnyContains', Left: { Type: 'Names' }, Parameter: 'Frieren' },
        Right: { Type: 'HasAnimeType', Parameter: 'TVSeries' },
      },
      sorting: { Type: 'AirDate', IsInverted: false },
    });
  });

  it('follows a sorting chain', () => {
    expect(mapped(sample('Best first')).sorting).toEqual({
      Type: 'AverageAniDBRating',
      IsInverted: true,
      Next: { Type: 'SortingName', IsInverted: false },
    });
  });

  it('refuses the string-set sample, naming its type', () => {
    expect(reason(sample(UNSUPPORTED_SAMPLE_PRESET))).toMatch(/SetOverlapsExpression/);
    const skipped = SAMPLE_FILTER_PRESETS.filter((p) => !mapShokoFilterPreset(shokoPresetRow(p)).ok).map((p) => p.name);
    expect(skipped).toEqual([UNSUPPORTED_SAMPLE_PRESET]);
  });
});

describe('mapShokoFilterPreset: the presets Shoko creates', () => {
  it('maps every one', () => {
    for (const [i, preset] of SHOKO_DEFAULT_PRESETS.entries())
      expect(mapShokoFilterPreset(shokoPresetRow(preset, i + 1)).ok, preset.name).toBe(true);
  });

  it('maps the locked ones and the dated ones exactly', () => {
    const [continueWatching, all] = SHOKO_DEFAULT_PRESETS.map((p) => mapped(shokoPresetRow(p)));
    expect(continueWatching).toMatchObject({
      isLocked: true,
      expression: { Type: 'And', Left: { Type: 'HasWatchedEpisodes' }, Right: { Type: 'HasUnwatchedEpisodes' } },
      sorting: { Type: 'LastWatchedDate', IsInverted: true },
    });
    expect(all).toMatchObject({ isLocked: true, isDirectory: false, expression: null, sorting: byName });
    const newlyAdded = SHOKO_DEFAULT_PRESETS.find((p) => p.name === 'Newly Added Series')!;
    // The stored text itself: ids stripped and keys ordered as a filter saved through the API.
    expect(mapShokoFilterPreset(shokoPresetRow(newlyAdded))).toMatchObject({
      ok: true,
      filter: {
        expression:
          '{"Type":"DateGreaterThanEquals","Left":{"Type":"DateAdd","Left":{"Type":"LastAddedDate"},"Parameter":"10:00:00:00.0000000"},"Right":{"Type":"Today"}}',
        sorting: '{"Type":"LastAddedDate","IsInverted":true}',
      },
    });
  });
});

describe('mapShokoFilterPreset: parameters', () => {
  it('names enums stored as numbers or names', () => {
    expect(condition({ $type: 'HasAvailableImageExpression', Parameter: 6 })).toEqual({ Type: 'HasAvailableImage', Parameter: 'Poster' });
    expect(condition({ $type: 'HasPreferredImageExpression', Parameter: 1 })).toEqual({ Type: 'HasPreferredImage', Parameter: 'Backdrop' });
    expect(condition({ $type: 'HasCharacterWithAppearanceExpression', CharacterID: '88', Appearance: 'Main_Character' })).toEqual({
      Type: 'HasCharacterWithAppearance',
      Parameter: '88',
      SecondParameter: 'Main_Character',
    });
    expect(condition({ $type: 'HasCharacterWithAppearanceExpression', CharacterID: '88', Appearance: 4 })).toMatchObject({
      SecondParameter: 'Cameo',
    });
    expect(condition({ $type: 'HasCreatorWithRoleExpression', CreatorID: '5', Role: 'Director' })).toEqual({
      Type: 'HasCreatorWithRole',
      Parameter: '5',
      SecondParameter: 'Director',
    });
    expect(condition({ $type: 'HasCreatorExpression', CreatorID: '5' })).toEqual({ Type: 'HasCreator', Parameter: '5' });
    expect(condition({ $type: 'InSeasonExpression', Year: 2019, Season: 3 })).toEqual({
      Type: 'InSeason',
      Parameter: '2019',
      SecondParameter: 'Fall',
    });
  });

  it('turns bool parameters into structure', () => {
    const watched = { $type: 'HasWatchedEpisodesExpression' };
    expect(condition({ $type: 'ConstantExpression', Parameter: true })).toEqual({ Type: 'Not', Left: { Type: 'Constant' } });
    expect(condition({ $type: 'ConstantExpression', Parameter: false })).toEqual({ Type: 'Constant' });
    expect(condition({ $type: 'EqualsExpression', Left: watched, Right: null, Parameter: true })).toEqual({ Type: 'HasWatchedEpisodes' });
    expect(condition({ $type: 'EqualsExpression', Left: watched, Right: null, Parameter: false })).toEqual({
      Type: 'Not',
      Left: { Type: 'HasWatchedEpisodes' },
    });
    expect(condition({ $type: 'EqualsExpression', Left: watched, Right: { $type: 'IsFinishedExpression' }, Parameter: false })).toEqual({
      Type: 'Equals',
      Left: { Type: 'HasWatchedEpisodes' },
      Right: { Type: 'IsFinished' },
    });
  });

  it('drops number and date parameters that a Right selector overrides, and keeps a zero', () => {
    const count = { $type: 'EpisodeCountSelector' };
    expect(condition({ $type: 'NumberLessThanExpression', Left: count, Right: { $type: 'VideoFilesSelector' }, Parameter: 0.0 })).toEqual({
      Type: 'NumberLessThan',
      Left: { Type: 'EpisodeCount' },
      Right: { Type: 'VideoFiles' },
    });
    expect(condition({ $type: 'NumberEqualsExpression', Left: count, Right: null, Parameter: 0.0 })).toEqual({
      Type: 'NumberEquals',
      Left: { Type: 'EpisodeCount' },
      Parameter: '0',
    });
    expect(
      condition({ $type: 'DateLessThanExpression', Left: { $type: 'AirDateSelector' }, Right: null, Parameter: '2024-05-01T00:00:00' }),
    ).toEqual({
      Type: 'DateLessThan',
      Left: { Type: 'AirDate' },
      Parameter: '2024-05-01',
    });
    expect(
      condition({
        $type: 'DateGreaterThanExpression',
        Left: { $type: 'WatchedDateSelector' },
        Right: { $type: 'DateDiffFunction', Left: { $type: 'TodayFunction' }, Parameter: '1.12:30:00.5' },
        Parameter: '0001-01-01T00:00:00',
      }),
    ).toEqual({
      Type: 'DateGreaterThan',
      Left: { Type: 'WatchedDate' },
      Right: { Type: 'DateDiff', Left: { Type: 'Today' }, Parameter: '1:12:30:00.5000000' },
    });
  });

  it('keeps string Parameter and Right together, as both engines prefer Parameter', () => {
    expect(
      condition({
        $type: 'StringStartsWithExpression',
        Left: { $type: 'NameSelector' },
        Right: { $type: 'NameSelector' },
        Parameter: 'The',
      }),
    ).toEqual({ Type: 'StringStartsWith', Left: { Type: 'Name' }, Right: { Type: 'Name' }, Parameter: 'The' });
  });

  it('reads qualified and renamed class names', () => {
    expect(
      condition({
        $type: 'Shoko.Server.Filters.Info.HasTagExpression, Shoko.Server',
        Parameter: 'action',
      }),
    ).toEqual({ Type: 'HasTag', Parameter: 'action' });
    expect(
      condition({
        $type: 'NumberGreaterThanExpression',
        Left: { $type: 'UserVerifiedTmdbEpisodeLinkSelector' },
        Right: null,
        Parameter: 1.5,
      }),
    ).toEqual({ Type: 'NumberGreaterThan', Left: { Type: 'UserVerifiedTmdbEpisodeLinks' }, Parameter: '1.5' });
  });

  it('maps string-set expressions whose set is empty (neither engine matches anything)', () => {
    expect(condition({ $type: 'StringInExpression', Left: { $type: 'NameSelector' }, Parameter: [] })).toEqual({
      Type: 'StringIn',
      Left: { Type: 'Name' },
    });
  });
});

describe('mapShokoFilterPreset: rows it refuses or repairs', () => {
  it('names an unknown expression or sorting type', () => {
    expect(reason(row('{"$type":"HasPluginThingExpression","Parameter":"x"}'))).toBe(
      "unsupported filter expression type 'HasPluginThingExpression'",
    );
    expect(reason(row(null, '{"$type":"RandomSortingSelector","Descending":false,"Next":null}'))).toBe(
      "unsupported sorting type 'RandomSortingSelector'",
    );
    expect(reason(row('{"Left":null}'))).toMatch(/\$type/);
    expect(reason(row('{"$type":'))).toBe('Expression is not valid JSON');
  });

  it('refuses what the API validation refuses', () => {
    expect(reason(row('{"$type":"StringRegexMatchesExpression","Left":{"$type":"NameSelector"},"Parameter":"(unclosed"}'))).toMatch(
      /Expression\.Parameter/,
    );
    expect(reason(row('{"$type":"NotExpression","Left":{"$type":"NameSelector"}}'))).toMatch(/selector, not a condition/);
    expect(reason(row('{"$type":"InSeasonExpression","Year":2020,"Season":9}'))).toMatch(/InSeasonExpression\.Season 9/);
  });

  it('keeps no conditions on a directory and names a nameless filter', () => {
    const directory = mapped(row('{"$type":"HasVideoFilesExpression"}', null, { FilterType: 9, Name: '  ' }));
    expect(directory).toMatchObject({ isDirectory: true, expression: null, sorting: null, name: 'Filter 7' });
  });
});

/** Every filter class of Shoko 5.3.3 besides the sorting selectors (Shoko.Server/Filters), with no or default properties. */
const SHOKO_CLASSES =
  `HasAudioLanguageExpression HasResolutionExpression HasSharedAudioLanguageExpression HasSharedSubtitleLanguageExpression
  HasSharedVideoSourceExpression HasSubtitleLanguageExpression HasVideoSourceExpression DateAddFunction DateDiffFunction TodayFunction
  HasAnimeTypeExpression HasAvailableImageExpression HasCharacterExpression HasCharacterWithAppearanceExpression HasCreatorExpression
  HasCreatorWithRoleExpression HasCustomTagByIDExpression HasCustomTagExpression HasMissingEpisodesCollectingExpression
  HasMissingEpisodesExpression HasNameExpression HasPreferredImageExpression HasReleaseGroupNameExpression HasTagByIDExpression
  HasTagExpression HasTmdbAutoLinkingDisabledExpression HasTmdbLinkExpression HasTraktAutoLinkingDisabledExpression HasTraktLinkExpression
  HasTvDBLinkExpression HasVideoFilesExpression InSeasonExpression InYearExpression IsFinishedExpression MissingPermanentVoteExpression
  MissingTmdbLinkExpression MissingTraktLinkExpression MissingTvDBLinkExpression MissingVoteExpression DateEqualsExpression
  DateGreaterThanEqualsExpression DateGreaterThanExpression DateLessThanEqualsExpression DateLessThanExpression DateNotEqualsExpression
  AndExpression ConstantExpression EqualsExpression NotExpression OrExpression XorExpression NumberEqualsExpression
  NumberGreaterThanEqualsExpression NumberGreaterThanExpression NumberLessThanEqualsExpression NumberLessThanExpression
  NumberNotEqualsExpression AllContainsExpression AllRegexMatchesExpression AnyContainsExpression AnyEqualsExpression
  AnyFuzzyMatchesExpression AnyRegexMatchesExpression SetOverlapsExpression StringContainsExpression StringEndsWithExpression
  StringEqualsExpression StringFuzzyMatchesExpression StringInExpression StringNotEqualsExpression StringRegexMatchesExpression
  StringStartsWithExpression AddedDateSelector AirDateSelector LastAddedDateSelector LastAirDateSelector LastWatchedDateSelector
  WatchedDateSelector AudioLanguageCountSelector AutomaticTmdbEpisodeLinksSelector AverageAniDBRatingSelector EpisodeCountSelector
  HighestAniDBRatingSelector HighestUserRatingSelector LowestAniDBRatingSelector LowestUserRatingSelector
  MissingEpisodeCollectingCountSelector MissingEpisodeCountSelector MissingTmdbEpisodeLinksSelector SeriesCountSelector
  SeriesPermanentVoteCountSelector SeriesTemporaryVoteCountSelector SeriesVoteCountSelector SubtitleLanguageCountSelector
  TotalEpisodeCountSelector UnwatchedEpisodeCountSelector UserVerifiedTmdbEpisodeLinksSelector VideoFilesSelector
  WatchedEpisodeCountSelector NameSelector AniDBIDsSelector AnidbTagIDsSelector AnidbTagsSelector AvailableImageTypesSelector
  CharacterIDsSelector CreatorIDsSelector CustomTagIDsSelector CustomTagsSelector FilePathsSelector ImportFolderIDsSelector
  ImportFolderNamesSelector NamesSelector PreferredImageTypesSelector ReleaseGroupNamesSelector HasPermanentUserVotesExpression
  HasUnwatchedEpisodesExpression HasUserVotesExpression HasWatchedEpisodesExpression IsFavoriteExpression
  MissingPermanentUserVotesExpression`.split(/\s+/);

const SHOKO_SORTING_SELECTORS = `AddedDate AirDate AudioLanguageCount AverageAniDBRating EpisodeCount HighestAniDBRating HighestUserRating
  LastAddedDate LastAirDate LastWatchedDate LowestAniDBRating LowestUserRating MissingEpisodeCollectingCount MissingEpisodeCount Name
  SeriesCount SeriesPermanentVoteCount SeriesTemporaryVoteCount SeriesVoteCount SortingName SubtitleLanguageCount TotalEpisodeCount
  UnwatchedEpisodeCount WatchedDate WatchedEpisodeCount`.split(/\s+/);

describe('mapShokoFilterPreset: every Shoko 5.3.3 filter class', () => {
  it('has a type of ours for each expression, function and selector', () => {
    const unknown = SHOKO_CLASSES.filter((name) => {
      const result = mapShokoFilterPreset(row(`{"$type":"NotExpression","Left":{"$type":"${name}"}}`));
      return !result.ok && result.reason.startsWith('unsupported');
    });
    expect(unknown).toEqual([]);
  });

  it('has a sorting criterion for each sorting selector', () => {
    for (const type of SHOKO_SORTING_SELECTORS)
      expect(mapped(row(null, `{"$type":"${type}SortingSelector","Descending":true,"Next":null}`)).sorting).toEqual({
        Type: type,
        IsInverted: true,
      });
  });
});
