/**
 * What a test hands the TMDB fake. Field names are TMDB's own (snake_case) so fixtures read like the API's answers;
 * everything not needed for a scenario is optional and gets a neutral default when served.
 */

export interface FakeImage {
  file_path: string;
  width?: number;
  height?: number;
  /** null (default) = no text on the image. */
  iso_639_1?: string | null;
  vote_average?: number;
  vote_count?: number;
}

export interface FakeImageSet {
  posters?: FakeImage[];
  backdrops?: FakeImage[];
  logos?: FakeImage[];
}

export interface FakeTranslation {
  iso_3166_1: string;
  iso_639_1: string;
  name: string;
  english_name: string;
  data: { name?: string; title?: string; overview?: string; tagline?: string; homepage?: string };
}

export interface FakeCredits {
  cast: { id: number; credit_id: string; name: string; character: string; order: number; profile_path?: string | null }[];
  crew: { id: number; credit_id: string; name: string; department: string; job: string; profile_path?: string | null }[];
}

export interface FakeCompany {
  id: number;
  name: string;
  logo_path?: string | null;
  origin_country?: string;
}

export interface FakeAlternativeTitle {
  iso_3166_1: string;
  title: string;
  type?: string;
}

export interface FakeEpisode {
  id: number;
  episode_number: number;
  name: string;
  air_date?: string | null;
  overview?: string;
  runtime?: number | null;
  still_path?: string | null;
  vote_average?: number;
  vote_count?: number;
}

export interface FakeSeason {
  id: number;
  season_number: number;
  name: string;
  overview?: string;
  poster_path?: string | null;
  episodes: FakeEpisode[];
  translations?: FakeTranslation[];
  images?: { posters?: FakeImage[] };
}

/** An alternate ordering; each group lists the show's episodes by season and episode number, in order. */
export interface FakeEpisodeGroup {
  /** 24 hex digits on the real service. */
  id: string;
  name: string;
  description?: string;
  /** 1 original air date, 2 absolute, 3 DVD, 4 digital, 5 story arc, 6 production, 7 TV. */
  type: 1 | 2 | 3 | 4 | 5 | 6 | 7;
  groups: { id: string; name: string; order: number; episodes: { season_number: number; episode_number: number }[] }[];
}

interface FakeTitleBase {
  id: number;
  original_language?: string;
  overview?: string;
  adult?: boolean;
  poster_path?: string | null;
  backdrop_path?: string | null;
  /** TMDB genre ids (see `TV_GENRES` / `MOVIE_GENRES`); default [16] (Animation). */
  genre_ids?: number[];
  vote_average?: number;
  vote_count?: number;
  popularity?: number;
  production_companies?: FakeCompany[];
  production_countries?: { iso_3166_1: string; name: string }[];
  alternative_titles?: FakeAlternativeTitle[];
  external_ids?: { imdb_id?: string | null; tvdb_id?: number | null };
  keywords?: { id: number; name: string }[];
  translations?: FakeTranslation[];
  credits?: FakeCredits;
  images?: FakeImageSet;
}

export interface FakeShow extends FakeTitleBase {
  name: string;
  original_name?: string;
  origin_country?: string[];
  first_air_date?: string | null;
  last_air_date?: string | null;
  status?: string;
  seasons: FakeSeason[];
  episode_groups?: FakeEpisodeGroup[];
  content_ratings?: { iso_3166_1: string; rating: string }[];
}

export interface FakeMovie extends FakeTitleBase {
  title: string;
  original_title?: string;
  video?: boolean;
  release_date?: string | null;
  runtime?: number | null;
  belongs_to_collection?: { id: number; name: string } | null;
  release_dates?: {
    iso_3166_1: string;
    release_dates: { certification: string; release_date: string; type: 1 | 2 | 3 | 4 | 5 | 6; iso_639_1?: string; note?: string }[];
  }[];
}

/** TMDB's TV genre list (the ids are TMDB's real, public ones). */
export const TV_GENRES = [
  { id: 10759, name: 'Action & Adventure' },
  { id: 16, name: 'Animation' },
  { id: 35, name: 'Comedy' },
  { id: 80, name: 'Crime' },
  { id: 99, name: 'Documentary' },
  { id: 18, name: 'Drama' },
  { id: 10751, name: 'Family' },
  { id: 9648, name: 'Mystery' },
  { id: 10765, name: 'Sci-Fi & Fantasy' },
];

export const MOVIE_GENRES = [
  { id: 28, name: 'Action' },
  { id: 12, name: 'Adventure' },
  { id: 16, name: 'Animation' },
  { id: 35, name: 'Comedy' },
  { id: 99, name: 'Documentary' },
  { id: 18, name: 'Drama' },
  { id: 14, name: 'Fantasy' },
  { id: 10749, name: 'Romance' },
  { id: 878, name: 'Science Fiction' },
];
