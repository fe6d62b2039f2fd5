import { Type, type Static } from '@sinclair/typebox';
import type { Images, Rating } from './collection.js';
import { EpisodeFilterQuery } from './episodes.js';
import type { EpisodeCrossReference, File } from './files.js';

/** §1 Title (episode titles always have Type "None"). */
export interface EpisodeTitle {
  Name: string;
  Language: string;
  Type: string;
  Default: boolean;
  Preferred: boolean;
  Source: string;
}

/** §2.5 AnidbEpisode. */
export interface AnidbEpisode {
  ID: number;
  AnimeID: number;
  Type: string;
  EpisodeNumber: number;
  AirDate: string | null;
  Title: string;
  Titles: EpisodeTitle[];
  Description: string;
  Rating: Rating;
}

/** §2.4 Episode. */
export interface Episode {
  IDs: {
    ID: number;
    ParentSeries: number;
    AniDB: number;
    TvDB: number[];
    IMDB: string[];
    TMDB: { Episode: number[]; Movie: number[]; Show: number[] };
  };
  Name: string;
  Size: number;
  HasCustomName: boolean;
  Description: string;
  Images: Images & { Thumbnails: Images['Posters'] };
  Duration: string;
  ResumePosition: string | null;
  WatchCount: number;
  IsHidden: boolean;
  UserRating: Rating | null;
  Watched: string | null;
  Created: string;
  Updated: string;
  AniDB?: AnidbEpisode;
  TMDB?: { Episodes: unknown[]; Movies: unknown[] };
  /** With `includeFiles=true`: the episode's files (File model of the files contract). */
  Files?: File[];
  /** With `includeXRefs=true`: the episode's file cross-references (one per linked file). */
  CrossReferences?: EpisodeCrossReference[];
}

/** Values of the IncludeOnlyFilter query parameters. */
export type IncludeOnlyFilter = 'true' | 'false' | 'only';

/** §1 Tag (AniDB or user tag); optional fields are omitted when not applicable. */
export interface Tag {
  ID: number;
  ParentID: number | null;
  Name: string;
  Description?: string;
  IsVerified?: boolean;
  IsSpoiler: boolean;
  IsLocalSpoiler?: boolean;
  Weight?: number;
  Size?: number;
  LastUpdated?: string;
  Source: string;
}

/** Tag.Input.CreateOrUpdateCustomTagBody. */
export interface CustomTagBody {
  Name?: string | null;
  Description?: string | null;
}

// ---------------------------------------------------------------- request schemas of the series routes

/** Repeated keys or comma lists (`includeDataFrom=AniDB,TMDB`). */
const ListParam = Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())]));

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
