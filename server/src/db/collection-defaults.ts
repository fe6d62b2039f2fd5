import type { FilterCondition, SortingCriteria } from '@shoko-ts/contract';

/** Directories whose sub-filters are computed from the collection as it is (domains/filters/dynamic-directories.ts). */
export const DYNAMIC_DIRECTORIES = ['Years', 'Seasons', 'Tags'] as const;
export type DynamicDirectory = (typeof DYNAMIC_DIRECTORIES)[number];

export interface PresetSeed {
  name: string;
  isLocked: boolean;
  isDirectory: boolean;
  applyAtSeriesLevel: boolean;
  expression: FilterCondition | null;
  sorting: SortingCriteria | null;
  dynamic?: DynamicDirectory;
}

const byName: SortingCriteria = { Type: 'Name', IsInverted: false };
const newest = (type: string): SortingCriteria => ({ Type: type, IsInverted: true });
const not = (condition: FilterCondition): FilterCondition => ({ Type: 'Not', Left: condition });
const and = (left: FilterCondition, right: FilterCondition): FilterCondition => ({ Type: 'And', Left: left, Right: right });
/** `date + days >= today`: the date lies within the last `days` days (or later). */
const withinDays = (selector: string, days: number): FilterCondition => ({
  Type: 'DateGreaterThanEquals',
  Left: { Type: 'DateAdd', Left: { Type: selector }, Parameter: `${days}:00:00:00.0000000` },
  Right: { Type: 'Today' },
});

/**
 * What a new collection starts with (migration 0055 writes them once, into an empty database): the presets Shoko Server
 * creates at its first start (v5.3.3 FilterPresetRepository: the locked All and Continue Watching, and seven a user may
 * change or delete), in its expressions and sortings, plus the Years, Seasons and Tags directories Shoko's older API
 * lists, whose sub-filters follow the collection.
 */
export const PRESET_SEEDS: PresetSeed[] = [
  { name: 'All', isLocked: true, isDirectory: false, applyAtSeriesLevel: false, expression: null, sorting: byName },
  {
    name: 'Continue Watching',
    isLocked: true,
    isDirectory: false,
    applyAtSeriesLevel: false,
    expression: and({ Type: 'HasWatchedEpisodes' }, { Type: 'HasUnwatchedEpisodes' }),
    sorting: newest('LastWatchedDate'),
  },
  {
    name: 'Favorites',
    isLocked: false,
    isDirectory: false,
    applyAtSeriesLevel: false,
    expression: { Type: 'IsFavorite' },
    sorting: byName,
  },
  {
    name: 'Missing Episodes',
    isLocked: false,
    isDirectory: false,
    applyAtSeriesLevel: false,
    expression: { Type: 'HasMissingEpisodesCollecting' },
    sorting: newest('MissingEpisodeCollectingCount'),
  },
  {
    name: 'Newly Added Series',
    isLocked: false,
    isDirectory: false,
    applyAtSeriesLevel: false,
    expression: withinDays('LastAddedDate', 10),
    sorting: newest('LastAddedDate'),
  },
  {
    name: 'Newly Airing Series',
    isLocked: false,
    isDirectory: false,
    applyAtSeriesLevel: false,
    expression: withinDays('LastAirDate', 30),
    sorting: newest('LastAirDate'),
  },
  {
    // Every episode watched, none missing, no vote yet.
    name: 'Missing Votes',
    isLocked: false,
    isDirectory: false,
    applyAtSeriesLevel: true,
    expression: and(and(not({ Type: 'HasUnwatchedEpisodes' }), not({ Type: 'HasMissingEpisodes' })), not({ Type: 'HasUserVotes' })),
    sorting: byName,
  },
  {
    name: 'Recently Watched',
    isLocked: false,
    isDirectory: false,
    applyAtSeriesLevel: false,
    expression: and({ Type: 'HasWatchedEpisodes' }, withinDays('LastWatchedDate', 10)),
    sorting: newest('LastWatchedDate'),
  },
  {
    name: 'Missing Links',
    isLocked: false,
    isDirectory: false,
    applyAtSeriesLevel: true,
    expression: { Type: 'MissingTmdbLink' },
    sorting: byName,
  },
  ...DYNAMIC_DIRECTORIES.map((dynamic): PresetSeed => ({
    name: dynamic,
    isLocked: true,
    isDirectory: true,
    applyAtSeriesLevel: false,
    expression: null,
    sorting: null,
    dynamic,
  })),
];

/**
 * The custom tags a new collection starts with (migration 0055 writes them once, into an empty database): the ones
 * Shoko Server creates at its first start (v5.3.3 BaseDatabase), with their descriptions.
 */
export const STARTER_CUSTOM_TAGS: Array<{ name: string; description: string }> = [
  { name: 'Dropped', description: 'Started watching this series, but have since dropped it' },
  { name: 'Pinned', description: 'Pinned this series for whatever reason you like' },
  { name: 'Ongoing', description: 'This series does not have an end date' },
  { name: 'Waiting for Series Completion', description: 'Will start watching this once this series is finished' },
  { name: 'Waiting for Blu-ray Completion', description: 'Will start watching this once all episodes are available in Blu-Ray' },
];
