import { Type, type Static, type TInteger } from '@sinclair/typebox';
import { IncludeOnlyParam, ListResult, Nullable } from './common.js';
import { AnimeTypeSchema, CollectionImage, Series } from './collection.js';
import { File } from './files.js';

const counts = <K extends string>(keys: readonly K[]) =>
  Type.Object(Object.fromEntries(keys.map((key) => [key, Type.Integer()])) as unknown as Record<K, TInteger>);

/** contract collection.md §2.8 Dashboard.CollectionStats (`GET Dashboard/Stats`). */
export const DashboardCollectionStats = Type.Object({
  FileCount: Type.Integer(),
  SeriesCount: Type.Integer(),
  GroupCount: Type.Integer(),
  FileSize: Type.Integer(),
  FinishedSeries: Type.Integer(),
  WatchedEpisodes: Type.Integer(),
  WatchedHours: Type.Number(),
  PercentDuplicate: Type.Number(),
  MissingEpisodes: Type.Integer(),
  MissingEpisodesCollecting: Type.Integer(),
  UnrecognizedFiles: Type.Integer(),
  SeriesWithMissingLinks: Type.Integer(),
  EpisodesWithMultipleFiles: Type.Integer(),
  FilesWithDuplicateLocations: Type.Integer(),
});
export type DashboardCollectionStats = Static<typeof DashboardCollectionStats>;

/** §2.8 Dashboard.SeriesSummary (`GET Dashboard/SeriesSummary`): allowed series by AniDB type. */
export const DashboardSeriesSummary = counts([
  'Series',
  'OVA',
  'Movie',
  'Special',
  'Web',
  'Other',
  'MusicVideo',
  'Unknown',
  'None',
] as const);
export type DashboardSeriesSummary = Static<typeof DashboardSeriesSummary>;

/** §2.8 Dashboard.Episode: one episode card of the dashboard lists. */
export const DashboardEpisode = Type.Object({
  IDs: Type.Object({
    ID: Type.Integer(),
    Series: Type.Integer(),
    ShokoFile: Nullable(Type.Integer()),
    ShokoEpisode: Nullable(Type.Integer()),
    ShokoSeries: Nullable(Type.Integer()),
  }),
  Title: Type.String(),
  Number: Type.Integer(),
  /** The contract's EpisodeType name (Normal, Special, ThemeSong, Trailer, Parody, Other, Unknown). */
  Type: Type.String(),
  AirDate: Nullable(Type.String()),
  /** .NET TimeSpan text. */
  Duration: Type.String(),
  ResumePosition: Nullable(Type.String()),
  Watched: Nullable(Type.String()),
  SeriesTitle: Type.String(),
  SeriesPoster: Nullable(CollectionImage),
  Thumbnail: Nullable(CollectionImage),
});
export type DashboardEpisode = Static<typeof DashboardEpisode>;

/** collection.md §5.3 `GET Series/AniDB/RecommendedForYou` entry. */
export const AnidbAnimeRecommendedForYou = Type.Object({
  Anime: Type.Object({
    ID: Type.Integer(),
    ShokoID: Nullable(Type.Integer()),
    Type: AnimeTypeSchema,
    Title: Type.String(),
    Restricted: Type.Boolean(),
    Poster: Nullable(CollectionImage),
    EpisodeCount: Type.Integer(),
    AirDate: Nullable(Type.String()),
    EndDate: Nullable(Type.String()),
  }),
  SimilarTo: Type.Integer(),
});
export type AnidbAnimeRecommendedForYou = Static<typeof AnidbAnimeRecommendedForYou>;

const paged = (maxPageSize: number, defaultPageSize: number, minPage = 1) => ({
  pageSize: Type.Integer({ minimum: 0, maximum: maxPageSize, default: defaultPageSize }),
  page: Type.Integer({ minimum: minPage, default: minPage }),
  includeRestricted: IncludeOnlyParam,
});
const DateOnly = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

export const DashboardRecentlyAddedEpisodesQuery = Type.Object(paged(1000, 30));
export type DashboardRecentlyAddedEpisodesQuery = Static<typeof DashboardRecentlyAddedEpisodesQuery>;

export const DashboardRecentlyAddedSeriesQuery = Type.Object(paged(1000, 20));
export type DashboardRecentlyAddedSeriesQuery = Static<typeof DashboardRecentlyAddedSeriesQuery>;

/** `Dashboard/ContinueWatchingEpisodes` (page 0 counts as page 1). */
export const DashboardEpisodeListQuery = Type.Object({
  ...paged(100, 20, 0),
  includeSpecials: Type.Boolean({ default: true }),
  includeOthers: Type.Boolean({ default: false }),
});
export type DashboardEpisodeListQuery = Static<typeof DashboardEpisodeListQuery>;

export const DashboardNextUpQuery = Type.Object({
  ...DashboardEpisodeListQuery.properties,
  onlyUnwatched: Type.Boolean({ default: true }),
  includeMissing: Type.Boolean({ default: false }),
  includeRewatching: Type.Boolean({ default: false }),
});
export type DashboardNextUpQuery = Static<typeof DashboardNextUpQuery>;

export const DashboardAniDBCalendarQuery = Type.Object({
  numberOfDays: Type.Integer({ minimum: 0, maximum: 3650, default: 7 }),
  showAll: Type.Boolean({ default: false }),
  includeRestricted: Type.Boolean({ default: false }),
});
export type DashboardAniDBCalendarQuery = Static<typeof DashboardAniDBCalendarQuery>;

export const DashboardCalendarEpisodesQuery = Type.Object({
  startDate: DateOnly,
  endDate: DateOnly,
  includeMissing: IncludeOnlyParam,
  includeRestricted: IncludeOnlyParam,
});
export type DashboardCalendarEpisodesQuery = Static<typeof DashboardCalendarEpisodesQuery>;

export const DashboardTopTagsQuery = Type.Object({
  pageSize: Type.Integer({ minimum: 0, maximum: 100, default: 10 }),
  page: Type.Integer({ minimum: 1, default: 1 }),
  filter: Type.Optional(Type.String()),
});
export type DashboardTopTagsQuery = Static<typeof DashboardTopTagsQuery>;

/** `Series/AniDB/RecommendedForYou` (collection.md §5.3), served by the dashboard domain. */
export const RecommendedForYouQuery = Type.Object({
  ...paged(100, 30),
  showAll: Type.Boolean({ default: false }),
  startDate: Type.Optional(Type.String({ format: 'date-time' })),
  endDate: Type.Optional(Type.String({ format: 'date-time' })),
  approval: Type.Number({ minimum: 0, maximum: 1, default: 0 }),
});
export type RecommendedForYouQuery = Static<typeof RecommendedForYouQuery>;

/**
 * The widgets `GET Dashboard/Summary` (our addition) answers, each under its own key with the answer of its own route:
 * Stats, SeriesSummary, RecentlyAddedEpisodes, RecentlyAddedSeries, ContinueWatchingEpisodes, NextUpEpisodes and
 * AniDBCalendar as `Dashboard/<key>`, UnrecognizedFiles as `File` (newest unrecognized first, with absolute paths),
 * RecommendedForYou as `Series/AniDB/RecommendedForYou`.
 */
export const DASHBOARD_SUMMARY_WIDGETS = [
  'Stats',
  'SeriesSummary',
  'UnrecognizedFiles',
  'RecentlyAddedEpisodes',
  'RecentlyAddedSeries',
  'ContinueWatchingEpisodes',
  'NextUpEpisodes',
  'AniDBCalendar',
  'RecommendedForYou',
] as const;
export type DashboardSummaryWidget = (typeof DASHBOARD_SUMMARY_WIDGETS)[number];

/**
 * `GET Dashboard/Summary`: the widgets asked for (`widgets`, repeated) and the parameters the dashboard gives their own
 * routes; each route's other parameters keep their defaults.
 */
export const DashboardSummaryQuery = Type.Object({
  widgets: Type.Array(Type.Union(DASHBOARD_SUMMARY_WIDGETS.map((name) => Type.Literal(name))), { minItems: 1 }),
  /** ContinueWatchingEpisodes, NextUpEpisodes, RecommendedForYou and UnrecognizedFiles. */
  pageSize: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  recentlyAddedEpisodesPageSize: Type.Integer({ minimum: 1, maximum: 1000, default: 30 }),
  recentlyAddedSeriesPageSize: Type.Integer({ minimum: 1, maximum: 1000, default: 20 }),
  /** NextUpEpisodes. */
  onlyUnwatched: Type.Boolean({ default: true }),
  /** AniDBCalendar: every airing anime, not only the collection's. */
  showAll: Type.Boolean({ default: false }),
  /** Every list: include the restricted (18+) series. */
  includeRestricted: Type.Boolean({ default: false }),
});
export type DashboardSummaryQuery = Static<typeof DashboardSummaryQuery>;

export const DashboardSummary = Type.Object({
  Stats: Type.Optional(DashboardCollectionStats),
  SeriesSummary: Type.Optional(DashboardSeriesSummary),
  UnrecognizedFiles: Type.Optional(ListResult(File)),
  RecentlyAddedEpisodes: Type.Optional(ListResult(DashboardEpisode)),
  RecentlyAddedSeries: Type.Optional(ListResult(Series)),
  ContinueWatchingEpisodes: Type.Optional(ListResult(DashboardEpisode)),
  NextUpEpisodes: Type.Optional(ListResult(DashboardEpisode)),
  AniDBCalendar: Type.Optional(Type.Array(DashboardEpisode)),
  RecommendedForYou: Type.Optional(ListResult(AnidbAnimeRecommendedForYou)),
});
export type DashboardSummary = Static<typeof DashboardSummary>;
