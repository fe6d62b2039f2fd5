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
