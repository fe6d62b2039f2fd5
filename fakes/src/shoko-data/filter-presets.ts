/*
 * FilterPreset rows as Shoko Server 5.x writes them. Expression and SortingExpression are Newtonsoft JSON of Shoko's
 * filter classes: TypeNameHandling.Objects with a binder that writes the bare class name as the first key `$type`,
 * then every public property in declaration order (a sorting selector's own DefaultValue before the inherited
 * Descending and Next), nulls included, no indentation; doubles always carry a fraction (`8.0`), DateTimes are
 * `yyyy-MM-ddTHH:mm:ss`, TimeSpans .NET's constant format `d.hh:mm:ss`, enums their number unless the enum is
 * marked for names (CharacterAppearanceType, CreatorRoleType).
 */

export interface ShokoFilterPresetRow {
  name: string;
  parentName: string | null;
  /** GroupFilterType flags: None 0, UserDefined 1, ContinueWatching 2, All 4, Directory 8. */
  filterType: number;
  locked: boolean;
  hidden: boolean;
  applyAtSeriesLevel: boolean;
  expression: string | null;
  sortingExpression: string | null;
}

export const FILTER_TYPE = { None: 0, UserDefined: 1, All: 4, Directory: 8 } as const;

/** A number Newtonsoft writes as a double. */
class ShokoDouble {
  constructor(readonly value: number) {}
}
type ShokoJson = string | number | boolean | null | ShokoDouble | ShokoJson[] | { [key: string]: ShokoJson };
type ShokoNode = { $type: string } & { [key: string]: ShokoJson };

/** default(DateTime), which Shoko leaves in unused date parameters and sorting defaults. */
const MIN_DATE = '0001-01-01T00:00:00';

/** Serialises like Newtonsoft with Formatting.None: key order kept, doubles with a fraction. */
export function newtonsoftJson(value: ShokoJson): string {
  if (value instanceof ShokoDouble) {
    const text = String(value.value);
    return /[.eE]/.test(text) ? text : `${text}.0`;
  }
  if (Array.isArray(value)) return `[${value.map(newtonsoftJson).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}:${newtonsoftJson(item)}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

const node = (type: string, properties: { [key: string]: ShokoJson } = {}): ShokoNode => ({ $type: type, ...properties });

export const shokoExpressions = {
  and: (left: ShokoNode, right: ShokoNode) => node('AndExpression', { Left: left, Right: right }),
  or: (left: ShokoNode, right: ShokoNode) => node('OrExpression', { Left: left, Right: right }),
  not: (left: ShokoNode) => node('NotExpression', { Left: left }),
  hasTag: (tag: string) => node('HasTagExpression', { Parameter: tag }),
  inYear: (year: number) => node('InYearExpression', { Parameter: year }),
  /** AnimeSeason: Winter 0, Spring 1, Summer 2, Fall 3. */
  inSeason: (year: number, season: number) => node('InSeasonExpression', { Year: year, Season: season }),
  /** HasAnimeType also writes its read-only AnimeType (TVSeries 2, Movie 0, OVA 1, ...). */
  hasAnimeType: (name: string, value: number) => node('HasAnimeTypeExpression', { Parameter: name, AnimeType: value }),
  anyContains: (set: ShokoNode, text: string) => node('AnyContainsExpression', { Left: set, Right: null, Parameter: text }),
  setOverlaps: (set: ShokoNode, values: string[]) => node('SetOverlapsExpression', { Left: set, Parameter: values }),
  numberAtLeast: (number: ShokoNode, value: number) =>
    node('NumberGreaterThanEqualsExpression', { Left: number, Right: null, Parameter: new ShokoDouble(value) }),
  numberAbove: (number: ShokoNode, value: number) =>
    node('NumberGreaterThanExpression', { Left: number, Right: null, Parameter: new ShokoDouble(value) }),
  dateAtLeast: (left: ShokoNode, right: ShokoNode) =>
    node('DateGreaterThanEqualsExpression', { Left: left, Right: right, Parameter: MIN_DATE }),
  /** `days` as a TimeSpan in .NET's constant format. */
  dateAdd: (date: ShokoNode, days: number) => node('DateAddFunction', { Left: date, Parameter: `${days}.00:00:00` }),
  today: () => node('TodayFunction'),
  /** Any class without properties: info expressions (`HasWatchedEpisodesExpression`) and selectors (`NamesSelector`). */
  plain: (type: string) => node(type),
};

/** The sorting selectors that carry a DefaultValue for items without the date. */
const DATED_SORTING = new Set(['AirDate', 'LastAirDate', 'LastWatchedDate', 'WatchedDate']);

/** `<type>SortingSelector`, descending or not, then `next`. */
export function shokoSorting(type: string, descending = false, next: ShokoNode | null = null): ShokoNode {
  const own: { [key: string]: ShokoJson } = DATED_SORTING.has(type) ? { DefaultValue: MIN_DATE } : {};
  return node(`${type}SortingSelector`, { ...own, Descending: descending, Next: next });
}

const x = shokoExpressions;

function preset(
  name: string,
  expression: ShokoNode | null,
  sorting: ShokoNode | null,
  options: Partial<Omit<ShokoFilterPresetRow, 'name' | 'expression' | 'sortingExpression'>> = {},
): ShokoFilterPresetRow {
  return {
    name,
    parentName: null,
    filterType: FILTER_TYPE.UserDefined,
    locked: false,
    hidden: false,
    applyAtSeriesLevel: false,
    expression: expression ? newtonsoftJson(expression) : null,
    sortingExpression: sorting ? newtonsoftJson(sorting) : null,
    ...options,
  };
}

/** A user's own filters, as saved through Shoko's web UI (parents before their children). */
export const SAMPLE_FILTER_PRESETS: ShokoFilterPresetRow[] = [
  preset('Comedy', x.hasTag('comedy'), shokoSorting('Name')),
  preset(
    'Recent comedies not started',
    x.and(x.and(x.hasTag('comedy'), x.or(x.inYear(2023), x.inYear(2024))), x.not(x.plain('HasWatchedEpisodesExpression'))),
    shokoSorting('Name'),
  ),
  preset('Seasonal picks', null, null, { filterType: FILTER_TYPE.UserDefined | FILTER_TYPE.Directory }),
  preset('Winter 2024', x.inSeason(2024, 0), shokoSorting('Name'), { parentName: 'Seasonal picks', applyAtSeriesLevel: true }),
  preset('Highly rated', x.numberAtLeast(x.plain('AverageAniDBRatingSelector'), 8), shokoSorting('AverageAniDBRating', true), {
    parentName: 'Seasonal picks',
  }),
  preset('Long runners', x.numberAbove(x.plain('EpisodeCountSelector'), 50), shokoSorting('Name'), { hidden: true }),
  preset(
    'Frieren series',
    x.and(x.anyContains(x.plain('NamesSelector'), 'Frieren'), x.hasAnimeType('TVSeries', 2)),
    shokoSorting('AirDate'),
    { applyAtSeriesLevel: true },
  ),
  preset('Best first', x.plain('HasVideoFilesExpression'), shokoSorting('AverageAniDBRating', true, shokoSorting('SortingName'))),
  // A string-set parameter: Shoko evaluates it, but API v3 cannot carry it (only plugins or the database make these).
  preset('Mecha or space', x.setOverlaps(x.plain('AnidbTagsSelector'), ['mecha', 'space']), shokoSorting('Name')),
];

/** The name of the one sample an importer must skip. */
export const UNSUPPORTED_SAMPLE_PRESET = 'Mecha or space';

/** The date of `selector` plus `days` is today or later. */
const withinDays = (selector: string, days: number) => x.dateAtLeast(x.dateAdd(x.plain(selector), days), x.today());

/**
 * The presets Shoko 5.3 creates on a new database, in creation order: the locked Continue Watching and All
 * (FilterPresetRepository.CreateOrVerifyLockedFilters), then the starter filters (CreateInitialFilters).
 */
export const SHOKO_DEFAULT_PRESETS: ShokoFilterPresetRow[] = [
  preset(
    'Continue Watching',
    x.and(x.plain('HasWatchedEpisodesExpression'), x.plain('HasUnwatchedEpisodesExpression')),
    shokoSorting('LastWatchedDate', true),
    { filterType: FILTER_TYPE.None, locked: true },
  ),
  preset('All', null, shokoSorting('Name'), { filterType: FILTER_TYPE.All, locked: true }),
  preset('Favorites', x.plain('IsFavoriteExpression'), shokoSorting('Name')),
  preset('Missing Episodes', x.plain('HasMissingEpisodesCollectingExpression'), shokoSorting('MissingEpisodeCollectingCount', true)),
  preset('Newly Added Series', withinDays('LastAddedDateSelector', 10), shokoSorting('LastAddedDate', true)),
  preset('Newly Airing Series', withinDays('LastAirDateSelector', 30), shokoSorting('LastAirDate', true)),
  preset(
    'Missing Votes',
    x.and(
      x.and(x.not(x.plain('HasUnwatchedEpisodesExpression')), x.not(x.plain('HasMissingEpisodesExpression'))),
      x.not(x.plain('HasUserVotesExpression')),
    ),
    shokoSorting('Name'),
    { applyAtSeriesLevel: true },
  ),
  preset(
    'Recently Watched',
    x.and(x.plain('HasWatchedEpisodesExpression'), withinDays('LastWatchedDateSelector', 10)),
    shokoSorting('LastWatchedDate', true),
  ),
  preset('Missing Links', x.plain('MissingTmdbLinkExpression'), shokoSorting('Name'), { applyAtSeriesLevel: true }),
];
