/**
 * TMDB API v3 response shapes, limited to the fields the server reads (reference §2.3). Field names stay as TMDB
 * spells them (snake_case) so a response can be typed without mapping; converting to the v3 contract's PascalCase
 * models happens in the metadata domain.
 */

/** `YYYY-MM-DD`; TMDB sends an empty string or null when the date is unknown. */
export type TmdbDate = string | null;

export interface TmdbSearchPage<T> {
  page: number;
  total_pages: number;
  total_results: number;
  results: T[];
}

interface TmdbSearchResultBase {
  id: number;
  original_language: string;
  overview: string;
  poster_path: string | null;
  backdrop_path: string | null;
  genre_ids: number[];
  vote_average: number;
  vote_count: number;
  popularity: number;
  adult?: boolean;
}

export interface TmdbShowSearchResult extends TmdbSearchResultBase {
  name: string;
  original_name: string;
  origin_country: string[];
  first_air_date: TmdbDate;
}

export interface TmdbMovieSearchResult extends TmdbSearchResultBase {
  title: string;
  original_title: string;
  video: boolean;
  release_date: TmdbDate;
}

export interface TmdbGenre {
  id: number;
  name: string;
}

export interface TmdbKeyword {
  id: number;
  name: string;
}

export interface TmdbCompany {
  id: number;
  name: string;
  logo_path: string | null;
  origin_country: string;
}

export interface TmdbCountry {
  iso_3166_1: string;
  name: string;
}

export interface TmdbTranslation {
  iso_3166_1: string;
  iso_639_1: string;
  name: string;
  english_name: string;
  /** `name` for shows, seasons and episodes; `title` for movies and collections. */
  data: { name?: string; title?: string; overview?: string; tagline?: string; homepage?: string };
}

export interface TmdbAlternativeTitle {
  iso_3166_1: string;
  title: string;
  type: string;
}

export interface TmdbCastMember {
  id: number;
  credit_id: string;
  name: string;
  character: string;
  order: number;
  profile_path?: string | null;
}

export interface TmdbCrewMember {
  id: number;
  credit_id: string;
  name: string;
  department: string;
  job: string;
  profile_path?: string | null;
}

export interface TmdbCredits {
  cast: TmdbCastMember[];
  crew: TmdbCrewMember[];
}

export interface TmdbImage {
  file_path: string;
  width: number;
  height: number;
  aspect_ratio: number;
  /** null = the image carries no text in any language. */
  iso_639_1: string | null;
  vote_average: number;
  vote_count: number;
}

export interface TmdbImages {
  posters: TmdbImage[];
  backdrops: TmdbImage[];
  logos: TmdbImage[];
}

export interface TmdbExternalIds {
  imdb_id?: string | null;
  tvdb_id?: number | null;
}

/** Alternate orderings of a show, as listed on the show (`append_to_response=episode_groups`). */
export interface TmdbEpisodeGroupSummary {
  id: string;
  name: string;
  description: string;
  episode_count: number;
  group_count: number;
  type: TmdbEpisodeGroupType;
  network: { id: number; name?: string } | null;
}

/** 1 original air date, 2 absolute, 3 DVD, 4 digital, 5 story arc, 6 production, 7 TV. */
export type TmdbEpisodeGroupType = 1 | 2 | 3 | 4 | 5 | 6 | 7;

export interface TmdbSeasonSummary {
  id: number;
  season_number: number;
  name: string;
  episode_count: number;
  air_date?: TmdbDate;
  poster_path?: string | null;
}

/** Sub-resources `GET /tv/{id}` can embed, and the key each one lands under. */
export const SHOW_APPENDABLES = [
  'credits',
  'images',
  'alternative_titles',
  'content_ratings',
  'external_ids',
  'keywords',
  'translations',
  'episode_groups',
] as const;
export type TmdbShowAppendable = (typeof SHOW_APPENDABLES)[number];

export interface TmdbShowDetails {
  id: number;
  name: string;
  original_name: string;
  original_language: string;
  overview: string;
  adult: boolean;
  poster_path: string | null;
  backdrop_path: string | null;
  genres: TmdbGenre[];
  production_companies: TmdbCompany[];
  production_countries: TmdbCountry[];
  number_of_seasons: number;
  number_of_episodes?: number;
  vote_average: number;
  vote_count: number;
  first_air_date: TmdbDate;
  /** Meaningful only once `status` is `Ended`. */
  last_air_date: TmdbDate;
  status: string;
  seasons: TmdbSeasonSummary[];
  credits?: TmdbCredits;
  images?: TmdbImages;
  alternative_titles?: { results: TmdbAlternativeTitle[] };
  content_ratings?: { results: { iso_3166_1: string; rating: string }[] };
  external_ids?: TmdbExternalIds;
  /** Shows put keywords under `results` (movies under `keywords`). */
  keywords?: { results: TmdbKeyword[] };
  translations?: { translations: TmdbTranslation[] };
  episode_groups?: { results: TmdbEpisodeGroupSummary[] };
}

export const MOVIE_APPENDABLES = [
  'credits',
  'images',
  'alternative_titles',
  'release_dates',
  'external_ids',
  'keywords',
  'translations',
] as const;
export type TmdbMovieAppendable = (typeof MOVIE_APPENDABLES)[number];

/** 1 premiere, 2 limited theatrical, 3 theatrical, 4 digital, 5 physical, 6 TV. */
export interface TmdbReleaseDate {
  certification: string;
  release_date: string;
  type: 1 | 2 | 3 | 4 | 5 | 6;
  iso_639_1: string;
  note: string;
}

export interface TmdbMovieDetails {
  id: number;
  title: string;
  original_title: string;
  original_language: string;
  overview: string;
  adult: boolean;
  video: boolean;
  release_date: TmdbDate;
  poster_path: string | null;
  backdrop_path: string | null;
  genres: TmdbGenre[];
  belongs_to_collection: { id: number; name?: string } | null;
  production_companies: TmdbCompany[];
  production_countries: TmdbCountry[];
  /** Minutes; null or 0 when unknown. */
  runtime: number | null;
  vote_average: number;
  vote_count: number;
  credits?: TmdbCredits;
  images?: TmdbImages;
  alternative_titles?: { titles: TmdbAlternativeTitle[] };
  release_dates?: { results: { iso_3166_1: string; release_dates: TmdbReleaseDate[] }[] };
  external_ids?: TmdbExternalIds;
  keywords?: { keywords: TmdbKeyword[] };
  translations?: { translations: TmdbTranslation[] };
}

export interface TmdbEpisode {
  id: number;
  episode_number: number;
  season_number: number;
  name: string;
  overview: string;
  air_date: TmdbDate;
  runtime: number | null;
  still_path: string | null;
  vote_average: number;
  vote_count: number;
}

export const SEASON_APPENDABLES = ['translations', 'images'] as const;
export type TmdbSeasonAppendable = (typeof SEASON_APPENDABLES)[number];

export interface TmdbSeasonDetails {
  id: number;
  name: string;
  overview: string;
  season_number: number;
  poster_path: string | null;
  episodes: TmdbEpisode[];
  translations?: { translations: TmdbTranslation[] };
  images?: { posters: TmdbImage[] };
}

/** An episode inside an alternate ordering; `order` is its 0-based position inside the group. */
export interface TmdbEpisodeGroupEpisode extends TmdbEpisode {
  order: number;
}

export interface TmdbEpisodeGroupDetails extends TmdbEpisodeGroupSummary {
  groups: {
    id: string;
    name: string;
    /** Used as the season number of this ordering. */
    order: number;
    locked: boolean;
    episodes: TmdbEpisodeGroupEpisode[];
  }[];
}

/** TMDB's error body for every non-2xx answer. */
export interface TmdbErrorBody {
  success: false;
  status_code: number;
  status_message: string;
}
