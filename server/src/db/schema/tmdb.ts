import type { Generated } from 'kysely';
import type { Flag } from './flag.js';

/** The columns a TMDB show and a TMDB movie both have. */
interface TmdbTitleColumns {
  id: number;
  title: string;
  original_title: string;
  original_language: string;
  overview: string;
  is_restricted: Flag;
  imdb_id: string | null;
  vote_average: number;
  vote_count: number;
  poster_path: string | null;
  backdrop_path: string | null;
  /** JSON string[]. */
  genres: string;
  /** JSON string[]. */
  keywords: string;
  /** JSON [{ country, rating }]. */
  content_ratings: string;
  /** JSON [{ id, name, logo_path, origin_country }]. */
  studios: string;
  /** JSON { code: name }. */
  production_countries: string;
  /** JSON [{ language, country, value }] from TMDB's translations. */
  titles: string;
  overviews: string;
  created_at: string;
  updated_at: string;
}

export interface TmdbShowsTable extends TmdbTitleColumns {
  tvdb_id: number | null;
  status: string;
  first_aired_at: string | null;
  last_aired_at: string | null;
  preferred_ordering_id: string | null;
}

export interface TmdbSeasonsTable {
  id: number;
  show_id: number;
  season_number: number;
  title: string;
  overview: string;
  poster_path: string | null;
  episode_count: number;
  created_at: string;
  updated_at: string;
}

export interface TmdbEpisodesTable {
  id: number;
  show_id: number;
  season_id: number;
  season_number: number;
  episode_number: number;
  title: string;
  overview: string;
  aired_at: string | null;
  runtime_minutes: number | null;
  still_path: string | null;
  vote_average: number;
  vote_count: number;
  tvdb_episode_id: number | null;
  titles: string;
  overviews: string;
  created_at: string;
  updated_at: string;
}

export interface TmdbOrderingsTable {
  id: string;
  show_id: number;
  name: string;
  description: string;
  /** TMDB episode group type 1–7. */
  type: number;
  episode_count: number;
  season_count: number;
  created_at: string;
  updated_at: string;
}

export interface TmdbOrderingEpisodesTable {
  ordering_id: string;
  episode_id: number;
  show_id: number;
  season_id: string;
  season_name: string;
  season_number: number;
  episode_number: number;
}

export interface TmdbMoviesTable extends TmdbTitleColumns {
  collection_id: number | null;
  is_video: Flag;
  runtime_minutes: number | null;
  released_at: string | null;
}

export interface TmdbCreditsTable {
  parent_type: 'Show' | 'Movie';
  parent_id: number;
  credit_id: string;
  kind: 'Cast' | 'Crew';
  person_id: number;
  name: string;
  character_name: string | null;
  department: string | null;
  job: string | null;
  ordering: number;
  profile_path: string | null;
}

export interface TmdbImagesTable {
  id: Generated<number>;
  parent_type: 'Show' | 'Season' | 'Episode' | 'Movie';
  parent_id: number;
  image_type: 'Poster' | 'Backdrop' | 'Logo' | 'Thumbnail';
  file_path: string;
  language: string | null;
  width: number | null;
  height: number | null;
  vote_average: number;
  vote_count: number;
}

export interface XrefAnidbTmdbShowTable {
  anime_id: number;
  show_id: number;
  source: 'Automatic' | 'User';
}

export interface XrefAnidbTmdbMovieTable {
  anime_id: number;
  anidb_episode_id: number;
  movie_id: number;
  source: 'Automatic' | 'User';
}

export interface XrefAnidbTmdbEpisodeTable {
  id: Generated<number>;
  anime_id: number;
  anidb_episode_id: number;
  show_id: number;
  /** 0 = explicitly "no link". */
  tmdb_episode_id: number;
  ordering: number;
  /** The contract's MatchRating name. */
  rating: string;
}

export interface TmdbTables {
  tmdb_shows: TmdbShowsTable;
  tmdb_seasons: TmdbSeasonsTable;
  tmdb_episodes: TmdbEpisodesTable;
  tmdb_orderings: TmdbOrderingsTable;
  tmdb_ordering_episodes: TmdbOrderingEpisodesTable;
  tmdb_movies: TmdbMoviesTable;
  tmdb_credits: TmdbCreditsTable;
  tmdb_images: TmdbImagesTable;
  xref_anidb_tmdb_show: XrefAnidbTmdbShowTable;
  xref_anidb_tmdb_movie: XrefAnidbTmdbMovieTable;
  xref_anidb_tmdb_episode: XrefAnidbTmdbEpisodeTable;
}
