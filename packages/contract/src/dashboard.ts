import { Type, type Static } from '@sinclair/typebox';
import { IncludeOnlyParam } from './common.js';
import type { AnimeType, CollectionImage } from './collection.js';

/** contract collection.md §2.8 Dashboard.CollectionStats (`GET Dashboard/Stats`). */
export interface DashboardCollectionStats {
  FileCount: number;
  SeriesCount: number;
  GroupCount: number;
  FileSize: number;
  FinishedSeries: number;
  WatchedEpisodes: number;
  WatchedHours: number;
  PercentDuplicate: number;
  MissingEpisodes: number;
  MissingEpisodesCollecting: number;
  UnrecognizedFiles: number;
  SeriesWithMissingLinks: number;
  EpisodesWithMultipleFiles: number;
  FilesWithDuplicateLocations: number;
}

/** §2.8 Dashboard.SeriesSummary (`GET Dashboard/SeriesSummary`): allowed series by AniDB type. */
export interface DashboardSeriesSummary {
  Series: number;
  OVA: number;
  Movie: number;
  Special: number;
  Web: number;
  Other: number;
  MusicVideo: number;
  Unknown: number;
  None: number;
}

/** §2.8 Dashboard.Episode: one episode card of the dashboard lists. */
export interface DashboardEpisode {
  IDs: { ID: number; Series: number; ShokoFile: number | null; ShokoEpisode: number | null; ShokoSeries: number | null };
  Title: string;
  Number: number;
  /** The contract's EpisodeType name (Normal, Special, ThemeSong, Trailer, Parody, Other, Unknown). */
  Type: string;
  AirDate: string | null;
  /** .NET TimeSpan text. */
  Duration: string;
  ResumePosition: string | null;
  Watched: string | null;
  SeriesTitle: string;
  SeriesPoster: CollectionImage | null;
  Thumbnail: CollectionImage | null;
}

/** collection.md §5.3 `GET Series/AniDB/RecommendedForYou` entry. */
export interface AnidbAnimeRecommendedForYou {
  Anime: {
    ID: number;
    ShokoID: number | null;
    Type: AnimeType;
    Title: string;
    Restricted: boolean;
    Poster: CollectionImage | null;
    EpisodeCount: number;
    AirDate: string | null;
    EndDate: string | null;
  };
  SimilarTo: number;
}

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
