import type { Images, Rating } from './collection.js';
import type { File } from './files.js';

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

/** §2.4 Episode (CrossReferences are not produced yet). */
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
