import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** Nullable helper for the TMDB models. */
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const DateOnly = Nullable(Type.String());

/** The contract's Rating as TMDB fills it (`Source:"TMDB"`, `MaxValue:10`). */
export const TmdbUserRating = Type.Object({
  Value: Type.Number(),
  MaxValue: Type.Integer(),
  Source: Type.String(),
  Votes: Type.Integer(),
  Type: Nullable(Type.String()),
});
export type TmdbUserRating = Static<typeof TmdbUserRating>;

/** A translated title or overview (the contract's Title, `Source:"TMDB"`). */
export const TmdbTitle = Type.Object({
  Name: Type.String(),
  Language: Type.String(),
  Type: Type.String(),
  Default: Type.Boolean(),
  Preferred: Type.Boolean(),
  Source: Type.String(),
});
export type TmdbTitle = Static<typeof TmdbTitle>;

export const TmdbOverview = Type.Object({
  Value: Type.String(),
  Language: Type.String(),
  Default: Type.Boolean(),
  Preferred: Type.Boolean(),
  Source: Type.String(),
});
export type TmdbOverview = Static<typeof TmdbOverview>;

export const TmdbContentRating = Type.Object({
  Rating: Type.String(),
  Country: Type.String(),
  Language: Type.String(),
  Source: Type.String(),
});
export const TmdbStudio = Type.Object({ ID: Type.Integer(), Name: Type.String(), CountryOfOrigin: Type.String(), Size: Type.Integer() });

const TmdbRolePerson = Type.Object({
  ID: Type.Optional(Type.Integer()),
  Name: Type.String(),
  AlternateName: Type.String(),
  Description: Type.String(),
  Image: Type.Null(),
});
/** Cast or crew entry in the contract's Role shape. */
export const TmdbRole = Type.Object({
  Character: Type.Optional(TmdbRolePerson),
  Staff: TmdbRolePerson,
  RoleName: Type.String(),
  RoleDetails: Type.String(),
});
export type TmdbRole = Static<typeof TmdbRole>;

/** The MatchRating strings of episode cross-references (SPEC §4 badges DT, ~DT, D, T, ~T, UO, BG, None). */
export const TMDB_MATCH_RATINGS = [
  'UserVerified',
  'DateAndTitleMatches',
  'DateAndTitleKindaMatches',
  'DateMatches',
  'TitleMatches',
  'TitleKindaMatches',
  'FirstAvailable',
  'None',
] as const;
export type TmdbMatchRating = (typeof TMDB_MATCH_RATINGS)[number];

/** The short badge the console shows for each rating. */
export const TMDB_MATCH_RATING_BADGES: Readonly<Record<TmdbMatchRating, string>> = {
  DateAndTitleMatches: 'DT',
  DateAndTitleKindaMatches: '~DT',
  DateMatches: 'D',
  TitleMatches: 'T',
  TitleKindaMatches: '~T',
  UserVerified: 'UO',
  FirstAvailable: 'BG',
  None: 'None',
};

export const AlternateOrderingType = Type.Union(
  ['Unknown', 'OriginalAirDate', 'Absolute', 'DVD', 'Digital', 'StoryArc', 'Production', 'TV'].map((name) => Type.Literal(name)),
);

export const TmdbShowCrossReference = Type.Object({ AnidbAnimeID: Type.Integer(), TmdbShowID: Type.Integer(), Rating: Type.String() });
export type TmdbShowCrossReference = Static<typeof TmdbShowCrossReference>;

export const TmdbMovieCrossReference = Type.Object({
  AnidbAnimeID: Type.Integer(),
  AnidbEpisodeID: Type.Integer(),
  TmdbMovieID: Type.Integer(),
  Rating: Type.String(),
});
export type TmdbMovieCrossReference = Static<typeof TmdbMovieCrossReference>;

export const TmdbEpisodeCrossReference = Type.Object({
  AnidbAnimeID: Type.Integer(),
  AnidbEpisodeID: Type.Integer(),
  TmdbShowID: Type.Integer(),
  TmdbEpisodeID: Type.Integer(),
  Index: Type.Integer(),
  Rating: Type.String(),
});
export type TmdbEpisodeCrossReference = Static<typeof TmdbEpisodeCrossReference>;

export const TmdbOrderingInformation = Type.Object({
  OrderingID: Type.String(),
  OrderingType: Type.Optional(AlternateOrderingType),
  OrderingName: Type.String(),
  EpisodeCount: Type.Integer(),
  HiddenEpisodeCount: Type.Integer(),
  SeasonCount: Type.Integer(),
  IsDefault: Type.Boolean(),
  IsPreferred: Type.Boolean(),
  InUse: Type.Boolean(),
});
export type TmdbOrderingInformation = Static<typeof TmdbOrderingInformation>;

export const TMDB_SHOW_INCLUDE_DETAILS = [
  'Titles',
  'Overviews',
  'Images',
  'Ordering',
  'CrossReferences',
  'Cast',
  'Crew',
  'Studios',
  'Networks',
  'ContentRatings',
  'Keywords',
  'ProductionCountries',
  'YearlySeasons',
  'DaysOfWeek',
] as const;
export const TMDB_MOVIE_INCLUDE_DETAILS = [
  'Titles',
  'Overviews',
  'Images',
  'CrossReferences',
  'Cast',
  'Crew',
  'Studios',
  'ContentRatings',
  'FileCrossReferences',
  'Keywords',
  'ProductionCountries',
  'YearlySeasons',
] as const;

/** Details shared by shows and movies that appear only when asked for with `include`. */
const OptionalDetails = {
  Titles: Type.Optional(Type.Array(TmdbTitle)),
  Overviews: Type.Optional(Type.Array(TmdbOverview)),
  Keywords: Type.Optional(Type.Array(Type.String())),
  ContentRatings: Type.Optional(Type.Array(TmdbContentRating)),
  Studios: Type.Optional(Type.Array(TmdbStudio)),
  ProductionCountries: Type.Optional(Type.Record(Type.String(), Type.String())),
  Cast: Type.Optional(Type.Array(TmdbRole)),
  Crew: Type.Optional(Type.Array(TmdbRole)),
};

export const TmdbShow = Type.Object({
  ID: Type.Integer(),
  AlternateOrderingID: Type.String(),
  TvdbID: Nullable(Type.Integer()),
  Title: Type.String(),
  Overview: Type.String(),
  OriginalLanguage: Type.String(),
  IsRestricted: Type.Boolean(),
  UserRating: TmdbUserRating,
  Genres: Type.Array(Type.String()),
  ...OptionalDetails,
  EpisodeCount: Type.Integer(),
  HiddenEpisodeCount: Type.Integer(),
  SeasonCount: Type.Integer(),
  AlternateOrderingCount: Type.Integer(),
  Ordering: Type.Optional(Type.Array(TmdbOrderingInformation)),
  CrossReferences: Type.Optional(Type.Array(TmdbShowCrossReference)),
  FirstAiredAt: DateOnly,
  LastAiredAt: DateOnly,
  CreatedAt: Type.String(),
  LastUpdatedAt: Type.String(),
});
export type TmdbShow = Static<typeof TmdbShow>;

export const TmdbMovie = Type.Object({
  ID: Type.Integer(),
  CollectionID: Nullable(Type.Integer()),
  ImdbMovieID: Nullable(Type.String()),
  Title: Type.String(),
  Overview: Type.String(),
  OriginalLanguage: Type.String(),
  IsRestricted: Type.Boolean(),
  IsVideo: Type.Boolean(),
  UserRating: TmdbUserRating,
  /** .NET TimeSpan text, e.g. `01:44:00`. */
  Runtime: Nullable(Type.String()),
  Genres: Type.Array(Type.String()),
  ...OptionalDetails,
  CrossReferences: Type.Optional(Type.Array(TmdbMovieCrossReference)),
  ReleasedAt: DateOnly,
  CreatedAt: Type.String(),
  LastUpdatedAt: Type.String(),
});
export type TmdbMovie = Static<typeof TmdbMovie>;

export const TmdbEpisode = Type.Object({
  ID: Type.Integer(),
  SeasonID: Type.String(),
  ShowID: Type.Integer(),
  AlternateOrderingID: Type.String(),
  TvdbEpisodeID: Nullable(Type.Integer()),
  Title: Type.String(),
  Titles: Type.Optional(Type.Array(TmdbTitle)),
  Overview: Type.String(),
  Overviews: Type.Optional(Type.Array(TmdbOverview)),
  IsHidden: Type.Boolean(),
  EpisodeNumber: Type.Integer(),
  SeasonNumber: Type.Integer(),
  UserRating: TmdbUserRating,
  Runtime: Nullable(Type.String()),
  CrossReferences: Type.Optional(Type.Array(TmdbEpisodeCrossReference)),
  AiredAt: DateOnly,
  CreatedAt: Type.String(),
  LastUpdatedAt: Type.String(),
});
export type TmdbEpisode = Static<typeof TmdbEpisode>;

export const TmdbRemoteSearchShow = Type.Object({
  ID: Type.Integer(),
  Title: Type.String(),
  OriginalTitle: Type.String(),
  OriginalLanguage: Type.String(),
  Overview: Type.String(),
  FirstAiredAt: DateOnly,
  Poster: Nullable(Type.String()),
  Backdrop: Nullable(Type.String()),
  UserRating: TmdbUserRating,
  Genres: Type.Array(Type.String()),
});
export type TmdbRemoteSearchShow = Static<typeof TmdbRemoteSearchShow>;

export const TmdbRemoteSearchMovie = Type.Object({
  ID: Type.Integer(),
  Title: Type.String(),
  OriginalTitle: Type.String(),
  OriginalLanguage: Type.String(),
  Overview: Type.String(),
  IsRestricted: Type.Boolean(),
  IsVideo: Type.Boolean(),
  ReleasedAt: DateOnly,
  Poster: Nullable(Type.String()),
  Backdrop: Nullable(Type.String()),
  UserRating: TmdbUserRating,
  Genres: Type.Array(Type.String()),
});
export type TmdbRemoteSearchMovie = Static<typeof TmdbRemoteSearchMovie>;

export const TmdbAutoMatchResult = Type.Object({
  AnimeID: Type.Integer(),
  EpisodeID: Type.Optional(Type.Integer()),
  IsLocal: Type.Boolean(),
  IsRemote: Type.Boolean(),
  IsMovie: Type.Boolean(),
  Movie: Type.Optional(TmdbRemoteSearchMovie),
  Show: Type.Optional(TmdbRemoteSearchShow),
});
export type TmdbAutoMatchResult = Static<typeof TmdbAutoMatchResult>;

const OptionalFlag = Type.Optional(Nullable(Type.Boolean()));

export const TmdbRefreshShowBody = Type.Object({
  Force: Type.Boolean({ default: false }),
  DownloadImages: Type.Boolean({ default: true }),
  /** null/absent = the server setting TMDB.AutoDownloadCrewAndCast. */
  DownloadCrewAndCast: OptionalFlag,
  /** null/absent = the server setting TMDB.AutoDownloadAlternateOrdering. */
  DownloadAlternateOrdering: OptionalFlag,
  Immediate: Type.Boolean({ default: false }),
  QuickRefresh: Type.Boolean({ default: false }),
});
export type TmdbRefreshShowBody = Static<typeof TmdbRefreshShowBody>;

export const TmdbRefreshMovieBody = Type.Object({
  Force: Type.Boolean({ default: false }),
  DownloadImages: Type.Boolean({ default: true }),
  DownloadCrewAndCast: OptionalFlag,
  DownloadCollections: OptionalFlag,
  Immediate: Type.Boolean({ default: false }),
  SkipIfExists: Type.Boolean({ default: false }),
});
export type TmdbRefreshMovieBody = Static<typeof TmdbRefreshMovieBody>;

export const TmdbLinkShowBody = Type.Object({
  ID: Type.Integer({ minimum: 1 }),
  Replace: Type.Boolean({ default: false }),
  Refresh: Type.Boolean({ default: false }),
});
export type TmdbLinkShowBody = Static<typeof TmdbLinkShowBody>;

export const TmdbLinkMovieBody = Type.Object({
  ID: Type.Integer({ minimum: 1 }),
  EpisodeID: Type.Integer({ minimum: 1 }),
  Replace: Type.Boolean({ default: false }),
  Refresh: Type.Boolean({ default: false }),
});
export type TmdbLinkMovieBody = Static<typeof TmdbLinkMovieBody>;

/** Defaults (ID 0 = every link, Purge false, EpisodeID 0 = every episode) are applied by the server: the body is optional. */
export const TmdbUnlinkBody = Type.Object({ ID: Type.Optional(Type.Integer({ minimum: 0 })), Purge: Type.Optional(Type.Boolean()) });
export type TmdbUnlinkBody = Static<typeof TmdbUnlinkBody>;

export const TmdbUnlinkMovieBody = Type.Object({
  ID: Type.Optional(Type.Integer({ minimum: 0 })),
  Purge: Type.Optional(Type.Boolean()),
  EpisodeID: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type TmdbUnlinkMovieBody = Static<typeof TmdbUnlinkMovieBody>;

/** Optional body: absent fields take the contract defaults (KeepExisting true) on the server. */
export const TmdbAutoMatchEpisodesBody = Type.Object({
  TmdbShowID: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
  TmdbSeasonID: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
  KeepExisting: Type.Optional(Type.Boolean()),
  ConsiderExistingOtherLinks: Type.Optional(Nullable(Type.Boolean())),
});
export type TmdbAutoMatchEpisodesBody = Static<typeof TmdbAutoMatchEpisodesBody>;

export const TmdbEpisodeMapping = Type.Object({
  AniDBID: Type.Integer({ minimum: 1 }),
  /** 0 = explicitly "no link". */
  TmdbID: Type.Integer({ minimum: 0 }),
  Replace: Type.Boolean({ default: false }),
  /** null = after the episode's other links. */
  Index: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
});
export type TmdbEpisodeMapping = Static<typeof TmdbEpisodeMapping>;

export const TmdbOverrideEpisodeMappingBody = Type.Object({
  UnsetAll: Type.Boolean({ default: false }),
  Mapping: Type.Array(TmdbEpisodeMapping),
});
export type TmdbOverrideEpisodeMappingBody = Static<typeof TmdbOverrideEpisodeMappingBody>;

// ---------------------------------------------------------------- request schemas of the TMDB routes

export const TmdbShowParams = Type.Object({ showID: Type.Integer({ minimum: 1 }) });
export type TmdbShowParams = Static<typeof TmdbShowParams>;
export const TmdbMovieParams = Type.Object({ movieID: Type.Integer({ minimum: 1 }) });
export type TmdbMovieParams = Static<typeof TmdbMovieParams>;

/** `include` (CrossReferences, Cast, Crew, Ordering, …) and `language` of the local TMDB reads. */
export const TmdbIncludeQuery = Type.Object({
  include: Type.Optional(Type.Array(Type.String())),
  language: Type.Optional(Type.Array(Type.String())),
});
export type TmdbIncludeQuery = Static<typeof TmdbIncludeQuery>;

const tmdbPageQuery = (pageSize: number) => ({
  pageSize: Type.Integer({ minimum: 0, maximum: 1000, default: pageSize }),
  page: Type.Integer({ minimum: 1, default: 1 }),
});

/** Tmdb/Show/Online/Search and Tmdb/Movie/Online/Search. */
export const TmdbSearchQuery = Type.Object({
  query: Type.String({ default: '' }),
  includeRestricted: Type.Boolean({ default: false }),
  year: Type.Integer({ minimum: 0, default: 0 }),
  pageSize: Type.Integer({ minimum: 0, maximum: 100, default: 6 }),
  page: Type.Integer({ minimum: 1, default: 1 }),
});
export type TmdbSearchQuery = Static<typeof TmdbSearchQuery>;

/** Tmdb/Show/Online/Bulk and Tmdb/Movie/Online/Bulk. */
export const TmdbOnlineBulkBody = Type.Object({ IDs: Type.Array(Type.Integer({ minimum: 1 })) });
export type TmdbOnlineBulkBody = Static<typeof TmdbOnlineBulkBody>;

/** Tmdb/Episode/Bulk. */
export const TmdbEpisodeBulkBody = Type.Object({
  IDs: Type.Array(Type.Integer()),
  Include: Type.Optional(Type.Array(Type.String())),
  Language: Type.Optional(Type.Array(Type.String())),
});
export type TmdbEpisodeBulkBody = Static<typeof TmdbEpisodeBulkBody>;

/**
 * Tmdb/Show/Bulk and Tmdb/Movie/Bulk: the locally stored shows or movies among `IDs`, in the order asked for (unknown
 * ids are skipped), with the `Include` details of Tmdb/Show/{id} and Tmdb/Movie/{id}.
 */
export const TmdbLocalBulkBody = Type.Object({
  IDs: Type.Array(Type.Integer()),
  Include: Type.Optional(Type.Array(Type.String())),
  Language: Type.Optional(Type.Array(Type.String())),
});
export type TmdbLocalBulkBody = Static<typeof TmdbLocalBulkBody>;

/** Tmdb/Show/{id}. */
export const TmdbShowQuery = Type.Object({ ...TmdbIncludeQuery.properties, alternateOrderingID: Type.Optional(Type.String()) });
export type TmdbShowQuery = Static<typeof TmdbShowQuery>;

/** Tmdb/Show/{id}/Ordering. */
export const TmdbOrderingQuery = Type.Object({ alternateOrderingID: Type.Optional(Type.String()) });
export type TmdbOrderingQuery = Static<typeof TmdbOrderingQuery>;

/** Tmdb/Show/{id}/Ordering/SetPreferred. */
export const TmdbSetPreferredOrderingBody = Type.Object({ AlternateOrderingID: Type.String() });
export type TmdbSetPreferredOrderingBody = Static<typeof TmdbSetPreferredOrderingBody>;

/** Tmdb/Show/{id}/Episode. */
export const TmdbShowEpisodesQuery = Type.Object({
  ...TmdbIncludeQuery.properties,
  alternateOrderingID: Type.Optional(Type.String()),
  search: Type.Optional(Type.String()),
  fuzzy: Type.Boolean({ default: false }),
  includeHidden: Type.Optional(Type.String()),
  ...tmdbPageQuery(100),
});
export type TmdbShowEpisodesQuery = Static<typeof TmdbShowEpisodesQuery>;

/** Series/{id}/TMDB/Action/AutoSearch (POST). */
export const TmdbAutoSearchQuery = Type.Object({ force: Type.Boolean({ default: false }) });
export type TmdbAutoSearchQuery = Static<typeof TmdbAutoSearchQuery>;

/** `TmdbDownloadImagesBody` of Series/{id}/TMDB/{Show,Movie}/Action/DownloadImages: only the routes read it, the console never sends it. */
export const TmdbDownloadImagesBody = Type.Object({ Force: Type.Boolean({ default: false }), Immediate: Type.Boolean({ default: false }) });
export type TmdbDownloadImagesBody = Static<typeof TmdbDownloadImagesBody>;

/** Series/{id}/TMDB/Show/CrossReferences/Episode and …/EpisodeGroups. */
export const TmdbEpisodeLinksQuery = Type.Object({ tmdbShowID: Type.Optional(Type.Integer({ minimum: 0 })), ...tmdbPageQuery(50) });
export type TmdbEpisodeLinksQuery = Static<typeof TmdbEpisodeLinksQuery>;

/** Series/{id}/TMDB/Show/CrossReferences/Episode/Auto (GET): the automatic matcher's preview. */
export const TmdbAutoEpisodeLinksQuery = Type.Object({
  tmdbShowID: Type.Optional(Type.Integer({ minimum: 1 })),
  tmdbSeasonID: Type.Optional(Type.Integer({ minimum: 1 })),
  keepExisting: Type.Boolean({ default: true }),
  considerExistingOtherLinks: Type.Optional(Type.Boolean()),
  ...tmdbPageQuery(50),
});
export type TmdbAutoEpisodeLinksQuery = Static<typeof TmdbAutoEpisodeLinksQuery>;

/** The unlink and auto-match bodies may be sent as JSON `null` (or left out) to mean "all defaults". */
export const NullableTmdbUnlinkBody = Type.Union([TmdbUnlinkBody, Type.Null()]);
export const NullableTmdbUnlinkMovieBody = Type.Union([TmdbUnlinkMovieBody, Type.Null()]);
export const NullableTmdbAutoMatchEpisodesBody = Type.Union([TmdbAutoMatchEpisodesBody, Type.Null()]);
