import { Type, type Static } from '@sinclair/typebox';
import { CollectionImage, CollectionPage, CollectionPageSize, Images, Rating, Series } from './collection.js';
import { ListParam, Nullable, StringEnum, Title } from './common.js';
import { EpisodeFilterQuery } from './episodes.js';
import { EpisodeCrossReference, File } from './files.js';
import { TmdbOverview, TmdbRole, TmdbTitle } from './tmdb.js';

/** §1 Title (episode titles always have Type "None"). */
export const EpisodeTitle = Title;
export type EpisodeTitle = Static<typeof EpisodeTitle>;

/** §2.5 AnidbEpisode. */
export const AnidbEpisode = Type.Object({
  ID: Type.Integer(),
  AnimeID: Type.Integer(),
  Type: Type.String(),
  EpisodeNumber: Type.Integer(),
  AirDate: Nullable(Type.String()),
  Title: Type.String(),
  Titles: Type.Array(EpisodeTitle),
  Description: Type.String(),
  Rating: Rating,
});
export type AnidbEpisode = Static<typeof AnidbEpisode>;

/** §2.4 Episode. */
export const Episode = Type.Object({
  IDs: Type.Object({
    ID: Type.Integer(),
    ParentSeries: Type.Integer(),
    AniDB: Type.Integer(),
    TvDB: Type.Array(Type.Integer()),
    IMDB: Type.Array(Type.String()),
    TMDB: Type.Object({ Episode: Type.Array(Type.Integer()), Movie: Type.Array(Type.Integer()), Show: Type.Array(Type.Integer()) }),
  }),
  Name: Type.String(),
  Size: Type.Integer(),
  HasCustomName: Type.Boolean(),
  Description: Type.String(),
  Images: Type.Object({ ...Images.properties, Thumbnails: Type.Array(CollectionImage) }),
  Duration: Type.String(),
  ResumePosition: Nullable(Type.String()),
  WatchCount: Type.Integer(),
  IsHidden: Type.Boolean(),
  UserRating: Nullable(Rating),
  Watched: Nullable(Type.String()),
  Created: Type.String(),
  Updated: Type.String(),
  AniDB: Type.Optional(AnidbEpisode),
  TMDB: Type.Optional(Type.Object({ Episodes: Type.Array(Type.Unknown()), Movies: Type.Array(Type.Unknown()) })),
  /** With `includeFiles=true`: the episode's files (File model of the files contract). */
  Files: Type.Optional(Type.Array(File)),
  /** With `includeXRefs=true`: the episode's file cross-references (one per linked file). */
  CrossReferences: Type.Optional(Type.Array(EpisodeCrossReference)),
});
export type Episode = Static<typeof Episode>;

/** Values of the IncludeOnlyFilter query parameters. */
export type IncludeOnlyFilter = 'true' | 'false' | 'only';

/** §1 Tag (AniDB or user tag); optional fields are omitted when not applicable. */
export const Tag = Type.Object({
  ID: Type.Integer(),
  ParentID: Nullable(Type.Integer()),
  Name: Type.String(),
  Description: Type.Optional(Type.String()),
  IsVerified: Type.Optional(Type.Boolean()),
  IsSpoiler: Type.Boolean(),
  IsLocalSpoiler: Type.Optional(Type.Boolean()),
  Weight: Type.Optional(Type.Integer()),
  Size: Type.Optional(Type.Integer()),
  LastUpdated: Type.Optional(Type.String()),
  Source: Type.String(),
});
export type Tag = Static<typeof Tag>;

/** Tag.Input.CreateOrUpdateCustomTagBody. */
export interface CustomTagBody {
  Name?: string | null;
  Description?: string | null;
}

// ---------------------------------------------------------------- request schemas of the series routes

export const SeriesParams = Type.Object({ seriesID: Type.Integer({ minimum: 1 }) });
export type SeriesParams = Static<typeof SeriesParams>;

/** Series/{id}. */
export const SeriesQuery = Type.Object({ randomImages: Type.Boolean({ default: false }), includeDataFrom: ListParam });
export type SeriesQuery = Static<typeof SeriesQuery>;

/** Series/{id}/Episode: a page of the series' episodes under the §5.5 filters. */
export const SeriesEpisodesQuery = Type.Object({
  pageSize: Type.Integer({ minimum: 0, maximum: 1000, default: 20 }),
  page: Type.Integer({ minimum: 1, default: 1 }),
  includeDataFrom: ListParam,
  includeManuallyLinked: Type.Optional(Type.String()),
  includeFiles: Type.Boolean({ default: false }),
  includeMediaInfo: Type.Boolean({ default: false }),
  includeAbsolutePaths: Type.Boolean({ default: false }),
  includeXRefs: Type.Boolean({ default: false }),
  ...EpisodeFilterQuery.properties,
});
export type SeriesEpisodesQuery = Static<typeof SeriesEpisodesQuery>;

/** Series/{id}/Episode/Watched: marks every episode matching the filters. */
export const SeriesEpisodesWatchedQuery = Type.Object({ value: Type.Boolean({ default: true }), ...EpisodeFilterQuery.properties });
export type SeriesEpisodesWatchedQuery = Static<typeof SeriesEpisodesWatchedQuery>;

/** Series/{id}/Cast: role types by name or number. */
export const SeriesCastQuery = Type.Object({ roleType: ListParam });
export type SeriesCastQuery = Static<typeof SeriesCastQuery>;

/** Series/{id}/NextUpEpisode. */
export const NextUpEpisodeQuery = Type.Object({
  onlyUnwatched: Type.Boolean({ default: true }),
  includeSpecials: Type.Boolean({ default: true }),
  includeOthers: Type.Boolean({ default: false }),
  includeMissing: Type.Boolean({ default: true }),
  includeUnaired: Type.Boolean({ default: false }),
  includeRewatching: Type.Boolean({ default: false }),
  includeFiles: Type.Boolean({ default: false }),
  includeMediaInfo: Type.Boolean({ default: false }),
  includeAbsolutePaths: Type.Boolean({ default: false }),
  includeXRefs: Type.Boolean({ default: false }),
  includeDataFrom: ListParam,
});
export type NextUpEpisodeQuery = Static<typeof NextUpEpisodeQuery>;

// ---------------------------------------------------------------- series lists, search and per-series settings (§5.1–§5.4, §5.9, §5.10)

/** GET Series: every visible series by name; `startsWith` is a case-insensitive prefix of the name. */
export const SeriesListQuery = Type.Object({
  pageSize: CollectionPageSize(50),
  page: CollectionPage,
  startsWith: Type.String({ default: '' }),
});
export type SeriesListQuery = Static<typeof SeriesListQuery>;

/** GET Series/AniDB: every stored AniDB anime by title, same paging and prefix filter. */
export const SeriesAnidbListQuery = SeriesListQuery;
export type SeriesAnidbListQuery = SeriesListQuery;

/** GET Series/AniDB/Relations: every stored AniDB relation, both directions. */
export const SeriesAnidbRelationsQuery = Type.Object({ pageSize: CollectionPageSize(50), page: CollectionPage });
export type SeriesAnidbRelationsQuery = Static<typeof SeriesAnidbRelationsQuery>;

/** GET Series/Search/{query} (obsolete path form): the options of the query form. */
export const SeriesSearchOptionsQuery = Type.Object({
  fuzzy: Type.Boolean({ default: true }),
  limit: Type.Integer({ minimum: 0, maximum: 1000, default: 50 }),
  searchById: Type.Boolean({ default: false }),
});
export type SeriesSearchOptionsQuery = Static<typeof SeriesSearchOptionsQuery>;

/** GET Series/Search?query=…: title search over the visible series. */
export const SeriesSearchQuery = Type.Object({ query: Type.String({ default: '' }), ...SeriesSearchOptionsQuery.properties });
export type SeriesSearchQuery = Static<typeof SeriesSearchQuery>;

/** The `{query}` of Series/Search/{query} and Series/StartsWith/{query}. */
export const SeriesQueryParams = Type.Object({ query: Type.String() });
export type SeriesQueryParams = Static<typeof SeriesQueryParams>;

/** GET Series/StartsWith/{query}: at most `limit` series (no limit by default). */
export const SeriesStartsWithQuery = Type.Object({ limit: Type.Integer({ minimum: 0, maximum: 2147483647, default: 2147483647 }) });
export type SeriesStartsWithQuery = Static<typeof SeriesStartsWithQuery>;

/** GET Series/PathEndsWith/{*path}: the folder path, either slash style. */
export const SeriesPathParams = Type.Object({ '*': Type.String() });
export type SeriesPathParams = Static<typeof SeriesPathParams>;

/** §2.2 Series.SearchResult: a series with how it matched the query (lower Distance and Index are better). */
export const SeriesSearchResult = Type.Composite([
  Series,
  Type.Object({
    ExactMatch: Type.Boolean(),
    Index: Type.Integer(),
    Distance: Type.Number(),
    LengthDifference: Type.Integer(),
    Match: Type.String(),
  }),
]);
export type SeriesSearchResult = Static<typeof SeriesSearchResult>;

/** §1 YearlySeason. */
export const YearlySeason = Type.Object({
  Year: Type.Integer(),
  AnimeSeason: StringEnum(['Winter', 'Spring', 'Summer', 'Fall'] as const),
});
export type YearlySeason = Static<typeof YearlySeason>;

/** `POST Series/{id}/OverrideTitle` and `POST Episode/{id}/OverrideTitle`: an empty title clears the override. */
export const TitleOverrideBody = Type.Object({ Title: Type.String() });
export type TitleOverrideBody = Static<typeof TitleOverrideBody>;

/** §2.2 Series.AutoMatchSettings: which providers the series is matched against automatically (PUT body and answer). */
export const SeriesAutoMatchSettings = Type.Object({ TMDB: Type.Boolean() });
export type SeriesAutoMatchSettings = Static<typeof SeriesAutoMatchSettings>;

export const TMDB_SEASON_INCLUDE_DETAILS = ['Titles', 'Overviews', 'Images', 'Cast', 'Crew', 'YearlySeasons', 'DaysOfWeek'] as const;

/** GET Series/{id}/TMDB/Season: optional details (`include`) and title languages (`language`). */
export const SeriesTmdbSeasonQuery = Type.Object({ include: ListParam, language: ListParam });
export type SeriesTmdbSeasonQuery = Static<typeof SeriesTmdbSeasonQuery>;

/** A TMDB season (of the default ordering) that the series' episodes are linked into; details only with `include`. */
export const TmdbSeason = Type.Object({
  ID: Type.String(),
  ShowID: Type.Integer(),
  AlternateOrderingID: Type.String(),
  Title: Type.String(),
  Titles: Type.Optional(Type.Array(TmdbTitle)),
  Overview: Type.String(),
  Overviews: Type.Optional(Type.Array(TmdbOverview)),
  Images: Type.Optional(
    Type.Object({
      Posters: Type.Array(CollectionImage),
      Backdrops: Type.Array(CollectionImage),
      Banners: Type.Array(CollectionImage),
      Logos: Type.Array(CollectionImage),
    }),
  ),
  Cast: Type.Optional(Type.Array(TmdbRole)),
  Crew: Type.Optional(Type.Array(TmdbRole)),
  DaysOfWeek: Type.Optional(Type.Array(Type.String())),
  YearlySeasons: Type.Optional(Type.Array(Type.Object({ Year: Type.Integer(), AnimeSeason: Type.String() }))),
  SeasonNumber: Type.Integer(),
  EpisodeCount: Type.Integer(),
  HiddenEpisodeCount: Type.Integer(),
  IsLocked: Type.Boolean(),
  CreatedAt: Type.String(),
  LastUpdatedAt: Type.String(),
});
export type TmdbSeason = Static<typeof TmdbSeason>;
