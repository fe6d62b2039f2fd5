import type { FilterExpressionGroup, FilterExpressionHelp, FilterParameterType, SortingCriteriaHelp } from '@shoko-ts/contract';

/** One expression the engine understands: its catalogue entry (contract §7.10) without the dynamic options. */
export interface ExpressionSpec {
  id: string;
  group: FilterExpressionGroup;
  type: FilterParameterType;
  left?: FilterParameterType;
  right?: FilterParameterType;
  parameter?: FilterParameterType;
  secondParameter?: FilterParameterType;
  description: string;
  /** Fixed option lists. */
  options?: string[];
  secondOptions?: string[];
}

/** `AverageAniDBRating` → `Average Ani DB Rating`, `AniDBIDs` → `Ani DBI Ds`: the catalogue's word splitting. */
export const displayName = (id: string) => id.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/([A-Z])([A-Z][a-z])/g, '$1 $2');

const info = (
  id: string,
  description: string,
  parameter?: FilterParameterType,
  secondParameter?: FilterParameterType,
  options?: string[],
  secondOptions?: string[],
): ExpressionSpec => ({
  id,
  group: 'Info',
  type: 'Expression',
  description,
  parameter,
  secondParameter,
  options,
  secondOptions,
});
const selector = (id: string, type: FilterParameterType, description: string): ExpressionSpec => ({
  id,
  group: 'Selector',
  type,
  description,
});
const logic = (
  id: string,
  left: FilterParameterType | undefined,
  right: FilterParameterType | undefined,
  parameter: FilterParameterType | undefined,
  description: string,
): ExpressionSpec => ({
  id,
  group: 'Logic',
  type: 'Expression',
  left,
  right,
  parameter,
  description,
});

export const VIDEO_SOURCES = [
  'BluRay',
  'DVD',
  'Web',
  'TV',
  'HDTV',
  'Unknown',
  'Camcorder',
  'DTV',
  'VCD',
  'VHS',
  'SVCD',
  'HDDVD',
  'HKDVD',
  'LaserDisc',
];
export const ANIME_TYPE_OPTIONS = ['Movie', 'OVA', 'TVSeries', 'TVSpecial', 'Web', 'Other', 'MusicVideo', 'Unknown'];
export const SEASONS = ['Winter', 'Spring', 'Summer', 'Fall'] as const;
export const RESOLUTIONS = ['2160p', '1080p', '720p', '480p', 'UWHD', 'UWQHD', '1440p', '576p', '360p', '240p'];
export const APPEARANCE_TYPES = ['Main_Character', 'Minor_Character', 'Background_Character', 'Cameo', 'Unknown'];
/** The contract's CreatorRoleType names. */
export const CREATOR_ROLES = [
  'Actor',
  'Staff',
  'Studio',
  'Producer',
  'Director',
  'SeriesComposer',
  'CharacterDesign',
  'Music',
  'SourceWork',
];

export const EXPRESSIONS: ExpressionSpec[] = [
  info('HasAudioLanguage', 'Any file of the item has an audio stream in the given language.', 'String'),
  info('HasResolution', 'Any file has a video stream of the given standard resolution.', 'String', undefined, RESOLUTIONS),
  info('HasSharedAudioLanguage', 'Every file of the item has an audio stream in the given language.', 'String'),
  info('HasSharedSubtitleLanguage', 'Every file of the item has a subtitle stream in the given language.', 'String'),
  info('HasSharedVideoSource', 'Every file of the item comes from the given source.', 'String', undefined, VIDEO_SOURCES),
  info('HasSubtitleLanguage', 'Any file of the item has a subtitle stream in the given language.', 'String'),
  info('HasVideoSource', 'Any file of the item comes from the given source.', 'String', undefined, VIDEO_SOURCES),
  {
    id: 'DateAdd',
    group: 'Function',
    type: 'DateSelector',
    left: 'DateSelector',
    parameter: 'TimeSpan',
    description: 'The Left date moved forward by Parameter.',
  },
  {
    id: 'DateDiff',
    group: 'Function',
    type: 'DateSelector',
    left: 'DateSelector',
    parameter: 'TimeSpan',
    description: 'The Left date moved backward by Parameter.',
  },
  { id: 'Today', group: 'Function', type: 'DateSelector', description: 'Today at midnight.' },
  info('HasAnimeType', 'Any series of the item is of the given AniDB type.', 'String', undefined, ANIME_TYPE_OPTIONS),
  info('HasAvailableImage', 'Any series has an image of the given type (AniDB poster, TMDB images of its links).', 'String'),
  info('HasCharacter', 'The item features the AniDB character with the given ID.', 'String'),
  info(
    'HasCharacterWithAppearance',
    'The item features the AniDB character (Parameter) with the appearance type (SecondParameter).',
    'String',
    'String',
    undefined,
    APPEARANCE_TYPES,
  ),
  info('HasCreator', 'The item credits the AniDB creator with the given ID.', 'String'),
  info(
    'HasCreatorWithRole',
    'The item credits the AniDB creator (Parameter) in the role (SecondParameter).',
    'String',
    'String',
    undefined,
    CREATOR_ROLES,
  ),
  info('HasCustomTagByID', 'Any series has the custom tag with the given ID.', 'String'),
  info('HasCustomTag', 'Any series has the custom tag with the given name.', 'String'),
  info('HasMissingEpisodesCollecting', 'Any series is missing an episode that a release group it has files from has released.'),
  info('HasMissingEpisodes', 'Any series is missing aired episodes.'),
  info('HasName', 'The item name equals Parameter (case-insensitive).', 'String'),
  info('HasPreferredImage', 'Any series has a preferred image of the given type.', 'String'),
  info('HasReleaseGroupName', 'Any file was released by the named release group (case-insensitive).', 'String'),
  info('HasTagByID', 'Any series has the AniDB tag with the given ID.', 'String'),
  info('HasTag', 'Any series has the AniDB tag with the given name.', 'String'),
  info('HasTmdbAutoLinkingDisabled', 'Any series has TMDB auto-linking turned off (auto-linking is always on here, so never).'),
  info('HasTmdbLink', 'Any series is linked to a TMDB show or movie.'),
  info('HasTraktAutoLinkingDisabled', 'Any series has Trakt auto-linking turned off (one server-wide setting here, so never).'),
  info('HasTraktLink', 'Any series has a TMDB show or movie that is linked on Trakt.'),
  info('HasTvDBLink', 'Deprecated: any series has a TvDB link (never).'),
  info('HasVideoFiles', 'Any series has at least one local file.'),
  info('InSeason', 'Any series aired in the given yearly season.', 'Number', 'String'),
  info('InYear', 'Any series aired during the given year.', 'Number'),
  info('IsFinished', 'Any series has finished airing.'),
  info('MissingPermanentVote', 'All series finished airing but at least one has no permanent vote.'),
  info('MissingTmdbLink', 'A series that should have a TMDB link (not Unknown, Music Video or Other) has none.'),
  info('MissingTraktLink', 'A series with a TMDB link has no Trakt link (Trakt does not know it, or it was never linked).'),
  info('MissingTvDBLink', 'Deprecated; TvDB links are not kept, so no item is expected to have one: never.'),
  info('MissingVote', 'Not every series of the item has a vote.'),
  logic('DateEquals', 'DateSelector', 'DateSelector', 'Date', 'Left date equals Right date or Parameter.'),
  logic('DateGreaterThanEquals', 'DateSelector', 'DateSelector', 'Date', 'Left date is on or after Right date or Parameter.'),
  logic('DateGreaterThan', 'DateSelector', 'DateSelector', 'Date', 'Left date is after Right date or Parameter.'),
  logic('DateLessThanEquals', 'DateSelector', 'DateSelector', 'Date', 'Left date is on or before Right date or Parameter.'),
  logic('DateLessThan', 'DateSelector', 'DateSelector', 'Date', 'Left date is before Right date or Parameter.'),
  logic('DateNotEquals', 'DateSelector', 'DateSelector', 'Date', 'Left date differs from Right date or Parameter.'),
  logic('And', 'Expression', 'Expression', undefined, 'Both Left and Right pass.'),
  logic('Constant', undefined, undefined, 'Bool', 'A fixed value; Bool parameters are not mapped, so it is false.'),
  logic('Equals', 'Expression', 'Expression', 'Bool', 'Left and Right give the same result.'),
  logic('Not', 'Expression', undefined, undefined, 'Inverts Left.'),
  logic('Or', 'Expression', 'Expression', undefined, 'Left or Right passes.'),
  logic('Xor', 'Expression', 'Expression', undefined, 'Exactly one of Left and Right passes.'),
  logic('NumberEquals', 'NumberSelector', 'NumberSelector', 'Number', 'Left number equals Right or Parameter.'),
  logic('NumberGreaterThanEquals', 'NumberSelector', 'NumberSelector', 'Number', 'Left >= Right or Parameter.'),
  logic('NumberGreaterThan', 'NumberSelector', 'NumberSelector', 'Number', 'Left > Right or Parameter.'),
  logic('NumberLessThanEquals', 'NumberSelector', 'NumberSelector', 'Number', 'Left <= Right or Parameter.'),
  logic('NumberLessThan', 'NumberSelector', 'NumberSelector', 'Number', 'Left < Right or Parameter.'),
  logic('NumberNotEquals', 'NumberSelector', 'NumberSelector', 'Number', 'Left differs from Right or Parameter.'),
  logic(
    'AllContains',
    'StringSetSelector',
    'StringSelector',
    'String',
    'Every value of the Left set contains Parameter (case-insensitive).',
  ),
  logic(
    'AllRegexMatches',
    'StringSetSelector',
    undefined,
    'String',
    'Every value of the Left set matches the regular expression (case-insensitive).',
  ),
  logic('AnyContains', 'StringSetSelector', 'StringSelector', 'String', 'A value of the Left set contains Parameter (case-insensitive).'),
  logic('AnyEquals', 'StringSetSelector', 'StringSelector', 'String', 'A value of the Left set equals Parameter (case-insensitive).'),
  logic('AnyFuzzyMatches', 'StringSetSelector', 'StringSelector', 'String', 'A value of the Left set fuzzy-matches Parameter (or Right).'),
  logic(
    'AnyRegexMatches',
    'StringSetSelector',
    undefined,
    'String',
    'A value of the Left set matches the regular expression (case-insensitive).',
  ),
  logic(
    'SetOverlaps',
    'StringSetSelector',
    undefined,
    'StringSet',
    'Left overlaps a string set; string sets are not mapped by the API, so it never matches.',
  ),
  logic(
    'StringIn',
    'StringSelector',
    undefined,
    'StringSet',
    'Left is in a string set; string sets are not mapped by the API, so it never matches.',
  ),
  logic('StringContains', 'StringSelector', 'StringSelector', 'String', 'Left contains Parameter; false if either is empty.'),
  logic('StringEndsWith', 'StringSelector', 'StringSelector', 'String', 'Left ends with Parameter.'),
  logic('StringEquals', 'StringSelector', 'StringSelector', 'String', 'Left equals Parameter (case-insensitive).'),
  logic('StringFuzzyMatches', 'StringSelector', 'StringSelector', 'String', 'Left fuzzy-matches Parameter (or Right).'),
  logic('StringNotEquals', 'StringSelector', 'StringSelector', 'String', 'Left differs from Parameter (case-insensitive).'),
  logic('StringRegexMatches', 'StringSelector', undefined, 'String', 'Left matches the regular expression (case-sensitive).'),
  logic('StringStartsWith', 'StringSelector', 'StringSelector', 'String', 'Left starts with Parameter.'),
  selector('AddedDate', 'DateSelector', 'When the item was created.'),
  selector('AirDate', 'DateSelector', 'First air date.'),
  selector('LastAddedDate', 'DateSelector', 'When an episode was last added.'),
  selector('LastAirDate', 'DateSelector', 'Last air date.'),
  selector('LastWatchedDate', 'DateSelector', 'When the current user last watched an episode of it.'),
  selector('WatchedDate', 'DateSelector', 'When the current user first watched an episode of it.'),
  selector('AudioLanguageCount', 'NumberSelector', 'Distinct audio languages across the files.'),
  selector('AutomaticTmdbEpisodeLinks', 'NumberSelector', 'Automatic TMDB episode links.'),
  selector('AverageAniDBRating', 'NumberSelector', 'Average AniDB rating.'),
  selector('EpisodeCount', 'NumberSelector', 'Number of normal episodes.'),
  selector('HighestAniDBRating', 'NumberSelector', 'Highest AniDB rating.'),
  selector('HighestUserRating', 'NumberSelector', 'Highest user vote.'),
  selector('LowestAniDBRating', 'NumberSelector', 'Lowest AniDB rating.'),
  selector('LowestUserRating', 'NumberSelector', 'Lowest user vote.'),
  selector(
    'MissingEpisodeCollectingCount',
    'NumberSelector',
    'Missing episodes that a release group the series has files from has released.',
  ),
  selector('MissingEpisodeCount', 'NumberSelector', 'Aired episodes without a local file.'),
  selector('MissingTmdbEpisodeLinks', 'NumberSelector', 'Episodes of TMDB-linked series without a TMDB episode link.'),
  selector('SeriesCount', 'NumberSelector', 'Number of series.'),
  selector('SeriesPermanentVoteCount', 'NumberSelector', 'Series with a permanent vote.'),
  selector('SeriesTemporaryVoteCount', 'NumberSelector', 'Series with a temporary vote.'),
  selector('SeriesVoteCount', 'NumberSelector', 'Series with any vote.'),
  selector('SubtitleLanguageCount', 'NumberSelector', 'Distinct subtitle languages across the files.'),
  selector('TotalEpisodeCount', 'NumberSelector', 'Number of episodes of every type.'),
  selector('UnwatchedEpisodeCount', 'NumberSelector', 'Local episodes the current user has not watched.'),
  selector('UserVerifiedTmdbEpisodeLinks', 'NumberSelector', 'User-verified TMDB episode links.'),
  selector('VideoFiles', 'NumberSelector', 'Number of local files.'),
  selector('WatchedEpisodeCount', 'NumberSelector', 'Episodes the current user has watched.'),
  selector('Name', 'StringSelector', 'The item name.'),
  selector('AniDBIDs', 'StringSetSelector', 'AniDB anime IDs.'),
  selector('AnidbTagIDs', 'StringSetSelector', 'AniDB tag IDs.'),
  selector('AnidbTags', 'StringSetSelector', 'AniDB tag names.'),
  selector('AvailableImageTypes', 'StringSetSelector', 'Image types the item has.'),
  selector('CharacterIDs', 'StringSetSelector', 'AniDB character IDs.'),
  selector('CreatorIDs', 'StringSetSelector', 'AniDB creator IDs.'),
  selector('CustomTagIDs', 'StringSetSelector', 'Custom tag IDs.'),
  selector('CustomTags', 'StringSetSelector', 'Custom tag names.'),
  selector('FilePaths', 'StringSetSelector', 'Relative paths of the local files.'),
  selector('ImportFolderIDs', 'StringSetSelector', 'IDs of the import folders holding the files.'),
  selector('ImportFolderNames', 'StringSetSelector', 'Names of the import folders holding the files.'),
  selector('Names', 'StringSetSelector', 'Every title of the series plus the names of the groups above it.'),
  selector('PreferredImageTypes', 'StringSetSelector', 'Image types with a preferred image.'),
  selector('ReleaseGroupNames', 'StringSetSelector', 'Release-group names of the local files.'),
  info('HasPermanentUserVotes', 'The item has a permanent user vote.'),
  info('HasUnwatchedEpisodes', 'The current user has unwatched local episodes in it.'),
  info('HasUserVotes', 'The item has a user vote.'),
  info('HasWatchedEpisodes', 'The current user has watched episodes in it.'),
  info('IsFavorite', 'Legacy: the group is a favourite of the current user (favourites come from a Shoko import; a series never is one).'),
  info('MissingPermanentUserVotes', 'A permanent vote is expected (finished airing) but missing.'),
];

export const EXPRESSION_BY_ID = new Map(EXPRESSIONS.map((e) => [e.id, e]));

/** Input ids may carry `Expression`, `Function` or `Selector` suffixes; they are stripped (repeatedly) before lookup. */
export function stripExpressionId(type: string): string {
  let id = type;
  for (;;) {
    const next = id.replace(/(Expression|Function|Selector)$/i, '');
    if (next === id || next === '') return id;
    id = next;
  }
}

/** Sorting criteria in catalogue order; each sorts by the selector of the same name (SortingName by the bare name). */
export const SORTING_CRITERIA: Array<{ type: string; description: string }> = [
  { type: 'AddedDate', description: 'Creation date in Shoko.' },
  { type: 'AirDate', description: 'First air date.' },
  { type: 'AudioLanguageCount', description: 'Distinct audio languages.' },
  { type: 'AverageAniDBRating', description: 'Average AniDB rating.' },
  { type: 'EpisodeCount', description: 'Episode count.' },
  { type: 'HighestAniDBRating', description: 'Highest AniDB rating.' },
  { type: 'HighestUserRating', description: 'Highest user vote.' },
  { type: 'LastAddedDate', description: 'Last time an episode was added.' },
  { type: 'LastAirDate', description: 'Last air date.' },
  { type: 'LastWatchedDate', description: 'Last watch by the current user.' },
  { type: 'LowestAniDBRating', description: 'Lowest AniDB rating.' },
  { type: 'LowestUserRating', description: 'Lowest user vote.' },
  { type: 'MissingEpisodeCollectingCount', description: 'Missing episodes from release groups already collected.' },
  { type: 'MissingEpisodeCount', description: 'Missing episodes.' },
  { type: 'Name', description: 'Name (the default).' },
  { type: 'SeriesCount', description: 'Number of series.' },
  { type: 'SeriesPermanentVoteCount', description: 'Series with permanent votes.' },
  { type: 'SeriesTemporaryVoteCount', description: 'Series with temporary votes.' },
  { type: 'SeriesVoteCount', description: 'Series with any vote.' },
  { type: 'SortingName', description: 'Name without leading articles.' },
  { type: 'SubtitleLanguageCount', description: 'Distinct subtitle languages.' },
  { type: 'TotalEpisodeCount', description: 'Total episodes.' },
  { type: 'UnwatchedEpisodeCount', description: 'Unwatched episodes of the current user.' },
  { type: 'WatchedDate', description: 'First watch by the current user.' },
  { type: 'WatchedEpisodeCount', description: 'Watched episodes of the current user.' },
];

export const sortingHelp = (): SortingCriteriaHelp[] =>
  SORTING_CRITERIA.map((c) => ({ Type: c.type, Name: displayName(c.type), Description: c.description }));

/** The catalogue entry of one spec plus the options the collection offers right now. */
export function helpEntry(spec: ExpressionSpec, dynamic: { parameters?: string[]; pairs?: string[][] } = {}): FilterExpressionHelp {
  const help: FilterExpressionHelp = {
    Expression: spec.id,
    Name: displayName(spec.id),
    Group: spec.group,
    Description: spec.description,
    Type: spec.type,
  };
  if (spec.left) help.Left = spec.left;
  if (spec.right) help.Right = spec.right;
  if (spec.parameter) help.Parameter = spec.parameter;
  if (spec.secondParameter) help.SecondParameter = spec.secondParameter;
  const parameters = dynamic.parameters ?? spec.options;
  if (parameters?.length) help.PossibleParameters = parameters;
  if (spec.id === 'InSeason') help.PossibleSecondParameters = [...SEASONS];
  else if (spec.secondOptions?.length) help.PossibleSecondParameters = spec.secondOptions;
  if (dynamic.pairs?.length) help.PossibleParameterPairs = dynamic.pairs;
  return help;
}
