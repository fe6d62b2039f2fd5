import type { ColumnType, Generated } from 'kysely';

/** Booleans are stored as 0/1 integers so one set of queries serves SQLite and PostgreSQL alike. */
export type Flag = number;

export interface UsersTable {
  id: Generated<number>;
  username: string;
  username_key: string;
  password_hash: string;
  is_admin: Flag;
  anidb_sync: Flag;
  trakt_sync: Flag;
  plex_usernames: string;
  plex_token: string | null;
  avatar: string;
  /** JSON array of AniDB tag ids hidden from this user. */
  restricted_tags: string;
  created_at: string;
}

export interface ApiKeysTable {
  id: Generated<number>;
  user_id: number;
  device: string;
  /** SHA-256 hex of the key; the key itself is never stored. */
  key_hash: string;
  created_at: string;
  last_used_at: string | null;
}

export interface ImportFoldersTable {
  id: Generated<number>;
  name: string;
  path: string;
  is_drop_source: Flag;
  is_drop_destination: Flag;
  watch_for_new_files: Flag;
  /** 0 while the folder cannot be reached (issue 49); its records stay. */
  is_available: ColumnType<Flag, Flag | undefined, Flag>;
  unavailable_since: ColumnType<string | null, string | null | undefined, string | null>;
  unavailable_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** The filesystem device the folder was on when it last held files (`stat().dev`). */
  device_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface FilesTable {
  id: Generated<number>;
  size: number;
  /** Upper-case hex; '' until hashed. */
  ed2k: string;
  /** The other ED2K variant for sizes that are exact multiples of the chunk size, else null. */
  ed2k_alternate: string | null;
  crc32: string;
  md5: string;
  sha1: string;
  is_ignored: Flag;
  is_variation: Flag;
  /** JSON of the contract's MediaInfo model. */
  media_info: string | null;
  imported_at: string | null;
  created_at: string;
  updated_at: string;
}

/** 0014: the last successful AVDump of a file. */
export interface FileAvdumpsTable {
  file_id: number;
  last_dumped_at: string;
  last_version: string;
}

export interface FileLocationsTable {
  id: Generated<number>;
  file_id: number;
  import_folder_id: number;
  relative_path: string;
  is_accessible: Flag;
  mtime_ms: number | null;
}

/** 0032: per file, the lower-cased keys of the File list's usual orders (maintained by triggers). */
export interface FileSortKeysTable {
  file_id: number;
  is_ignored: Flag;
  /** 1 when the file has no location (its keys are null). */
  no_location: Flag;
  /** 1 when the file's content has an episode link (not in the Unrecognized list). */
  is_linked: Flag;
  /** 1 when one of those links was made by the user (the ManualLinks list). */
  has_manual_link: Flag;
  /** The first location (lowest id), null without one. */
  location_id: number | null;
  import_folder_id: number | null;
  folder_name: string | null;
  file_name: string | null;
  relative_path: string | null;
}

/** 0046: +1/−1 rows of file counts per combination of the key flags (appended by triggers, folded by the reader). */
export interface FileKeyCountsTable {
  is_ignored: Flag;
  is_linked: Flag;
  has_manual_link: Flag;
  files: number;
}

/** 0047: +1/−1 rows of each user's listed episodes per watched/voted combination (appended by triggers, folded by the reader). */
export interface UserEpisodeCountsTable {
  user_id: number;
  is_watched: Flag;
  is_voted: Flag;
  episodes: number;
}

/** SQLite only (migration 0036_file_search): each location's normalised path in an FTS5 trigram table. */
export interface FileLocationSearchTable {
  /** The location's id. */
  rowid: number;
  search_path: string;
}

export interface JobsTable {
  id: Generated<number>;
  job_key: string;
  kind: string;
  /** JSON arguments of the job. */
  payload: string;
  /** Lower runs first. */
  priority: number;
  is_running: Flag;
  attempts: number;
  created_at: string;
  started_at: string | null;
}

export interface AniDBAnimeTable {
  id: number;
  type: string;
  main_title: string;
  episode_count: number;
  special_count: number;
  air_date: string | null;
  end_date: string | null;
  restricted: Flag;
  description: string;
  picture: string | null;
  rating: number;
  rating_votes: number;
  temp_rating: number;
  temp_rating_votes: number;
  /** JSON array of { Type, Name, URL }. */
  resources: string;
  fetched_at: string;
  /** The official site (`<url>`). */
  url: string | null;
  /** 0050: the main title's fold (db/name-folds.ts); cleared by a trigger when the title changes, filled by code. */
  main_title_folded: Generated<string | null>;
}

export interface AniDBAnimeTitlesTable {
  id: Generated<number>;
  anime_id: number;
  type: string;
  language: string;
  value: string;
  /** 0050: the title's fold (db/name-folds.ts); cleared by a trigger when the title changes, filled by code. */
  folded: Generated<string | null>;
}

export interface AniDBEpisodesTable {
  id: number;
  anime_id: number;
  type: string;
  number: number;
  length_seconds: number;
  air_date: string | null;
  rating: number;
  votes: number;
  description: string;
  /** JSON array of { language, value }. */
  titles: string;
}

export interface AniDBTagsTable {
  id: number;
  parent_id: number | null;
  name: string;
  description: string | null;
  is_spoiler: Flag;
  is_verified: Flag;
  updated_at: string;
}

export interface AniDBAnimeTagsTable {
  anime_id: number;
  tag_id: number;
  weight: number;
  is_local_spoiler: Flag;
}

export interface AniDBRelationsTable {
  anime_id: number;
  related_anime_id: number;
  relation_type: string;
  related_title: string | null;
}

export interface AniDBCharactersTable {
  id: number;
  name: string;
  gender: string | null;
  character_type: string | null;
  description: string | null;
  picture: string | null;
}

export interface AniDBCreatorsTable {
  id: number;
  name: string;
  picture: string | null;
}

export interface AniDBAnimeCharactersTable {
  anime_id: number;
  character_id: number;
  /** AniDB's appearance text: `main character in`, `secondary cast in`, `appears in`, `cameo appearance in`. */
  appearance: string;
  ordering: number;
}

export interface AniDBAnimeStaffTable {
  id: Generated<number>;
  anime_id: number;
  creator_id: number;
  role: string;
  character_id: number | null;
  ordering: number;
}

export interface AniDBSimilarTable {
  anime_id: number;
  similar_anime_id: number;
  approval: number;
  total: number;
  title: string;
}

export interface AniDBFilesTable {
  ed2k: string;
  size: number;
  /** null when AniDB does not know the content (the row then records the failed lookups). */
  file_id: number | null;
  anime_id: number | null;
  group_id: number;
  source: string;
  version: number;
  is_deprecated: Flag;
  is_censored: Flag | null;
  is_chaptered: Flag;
  file_name: string;
  description: string;
  audio_languages: string;
  subtitle_languages: string;
  lookup_attempts: number;
  looked_up_at: string;
}

export interface FileEpisodeLinksTable {
  id: Generated<number>;
  ed2k: string;
  size: number;
  anime_id: number;
  episode_id: number;
  percentage: number;
  ordering: number;
  source: 'AniDB' | 'User';
  release_group_id: number | null;
}

export interface GroupsTable {
  id: Generated<number>;
  parent_id: number | null;
  name: string;
  description: string;
  has_custom_name: Flag;
  has_custom_description: Flag;
  preferred_series_id: number | null;
  /** The AniDB anime auto-grouping chose to lead the group (AutoGroupSeriesUseScoreAlgorithm); the preferred series wins. */
  main_anime_id: Generated<number | null>;
  created_at: string;
  updated_at: string;
  /** 0042: the sort name's order key (db/name-order.ts); cleared by a trigger when the name changes, filled by code. */
  order_key: Generated<string | null>;
  /** 0050: the name's fold (db/name-folds.ts); cleared by a trigger when the name changes, filled by code. */
  name_folded: Generated<string | null>;
}

export interface SeriesTable {
  id: Generated<number>;
  anime_id: number;
  group_id: number;
  title_override: string | null;
  created_at: string;
  updated_at: string;
  /** 0016: 1 = the TMDB auto-match leaves this series alone. */
  disable_tmdb_auto_match: Generated<Flag>;
  /** 0040: lower(title override, else AniDB main title, else ''), kept by triggers; lists sort by it. */
  name_key: Generated<string>;
  /** 0042: the JS-lower-cased name's order key (db/name-order.ts); cleared by a trigger when name_key changes, filled by code. */
  order_key: Generated<string | null>;
  /** 0050: the title override's fold (db/name-folds.ts); cleared by a trigger when the override changes, filled by code. */
  title_override_folded: Generated<string | null>;
}

export interface EpisodesTable {
  id: Generated<number>;
  series_id: number;
  anidb_episode_id: number;
  is_hidden: Flag;
  title_override: string | null;
  created_at: string;
  updated_at: string;
  /** Kept by triggers (0043): local files of its AniDB episode, and its list order (rank null without an AniDB episode row). */
  local_file_count: Generated<number>;
  sort_type_rank: number | null;
  sort_number: Generated<number>;
}

export interface FiltersTable {
  id: Generated<number>;
  parent_id: number | null;
  name: string;
  is_locked: Flag;
  is_directory: Flag;
  is_hidden: Flag;
  apply_at_series_level: Flag;
  /** JSON of the contract's FilterCondition, stripped ids. */
  expression: string | null;
  /** JSON of the contract's SortingCriteria. */
  sorting: string | null;
  /** 0055: a directory whose sub-filters are computed from the collection (`Years`, `Seasons`, `Tags`). */
  directory_of: string | null;
  created_at: string;
  updated_at: string;
}

/** 0055: rows a new collection was given, with their content as written (db/seeded-defaults.ts). */
export interface SeededDefaultsTable {
  table_name: string;
  row_id: number;
  content: string;
}

export interface UserEpisodeStatesTable {
  user_id: number;
  episode_id: number;
  watched_at: string | null;
  watch_count: number;
  rating: number | null;
  updated_at: string;
}

/** 0023/0024: maintained per-series aggregates (db/aggregates.ts recomputes them; the columns say what they count). */
export interface SeriesAggregatesTable {
  series_id: number;
  file_count: number;
  anidb_file_count: number;
  local_episode_count: number;
  last_added: string | null;
  missing_count: number;
  missing_first_air: string | null;
  missing_last_air: string | null;
  local_normal_count: Generated<number>;
  collecting_count: Generated<number>;
  collecting_last_air: string | null;
}

/**
 * 0023/0025: distinct values of a series' files (kind source, audio, subtitle, resolution; release_group since 0049, the
 * AniDB group id as text) and how many files have each; kind missing_air: missing episodes by air date and how many (in
 * file_count).
 */
export interface SeriesAggregateValuesTable {
  series_id: number;
  kind: string;
  value: string;
  file_count: number;
}

/** 0023/0024: one user's watch counts and dates over one series. */
export interface SeriesUserAggregatesTable {
  series_id: number;
  user_id: number;
  watched_count: number;
  watched_local_count: number;
  first_watched: string | null;
  last_watched: string | null;
  watched_normal_local_count: Generated<number>;
}

/** 0048: a series' episodes of one AniDB type ('' without one): visible, visible with a local file, hidden. */
export interface SeriesTypeCountsTable {
  series_id: number;
  type: string;
  visible_count: number;
  local_count: number;
  hidden_count: number;
}

/** 0048: a series' visible normal (`Episode`) or special episodes without a local file, by air date. */
export interface SeriesMissingAirTable {
  series_id: number;
  type: string;
  air_date: string;
  episode_count: number;
}

/** 0048: one user's watched visible episodes with a local file, per series and AniDB type. */
export interface SeriesUserTypeCountsTable {
  series_id: number;
  user_id: number;
  type: string;
  watched_local_count: number;
}

/** 0023: series whose aggregates a base-table change made stale. */
export interface AggregateDirtySeriesTable {
  series_id: number;
}

/** 0051: a group's figures over every series below it (db/group-figures.ts); no row for a group without series. */
export interface GroupFiguresTable {
  group_id: number;
  series_count: number;
  episode_count: number | null;
  total_episode_count: number | null;
  rating_sum: number | null;
  rating_count: number | null;
  rating_max: number | null;
  rating_min: number | null;
  file_count: number | null;
  local_episode_count: number | null;
  collecting_missing_count: number | null;
  air_date: string | null;
  last_air_date: string | null;
  added_date: string | null;
  last_added: string | null;
}

/** 0051: a group's watch figures per user over every series below it (only pairs with series watch figures). */
export interface GroupUserFiguresTable {
  group_id: number;
  user_id: number;
  watched_count: number;
  watched_local_count: number;
  first_watched: string | null;
  last_watched: string | null;
}

/** 0051: groups whose figures a change made stale. */
export interface AggregateDirtyGroupsTable {
  group_id: number;
}

/** 0034: release management's per-series figures (db/release-figures.ts; only series with any figure above zero). */
export interface SeriesReleaseFiguresTable {
  series_id: number;
  multiple_count: number;
  multiple_original_count: number;
  duplicate_count: number;
  missing_count: number;
  missing_last_day: string | null;
  collecting_count: number;
  collecting_last_day: string | null;
  /** 0045: the first ten characters of the anime's end date; NULL when it has none. */
  anime_end_day: string | null;
}

/** 0045: how many figure rows have each figure above zero (one row, kept by triggers on series_release_figures). */
export interface SeriesReleaseTotalsTable {
  multiple_count: number;
  multiple_original_count: number;
  duplicate_count: number;
}

/** 0039: the filters' per-series figures (db/filter-figures.ts; only series with a local file or a collecting gap). */
export interface SeriesFilterFiguresTable {
  series_id: number;
  collecting_missing_count: number;
  file_paths: string | null;
}

/** 0039: how many locations of a series' files each import folder holds. */
export interface SeriesFileFoldersTable {
  series_id: number;
  import_folder_id: number;
  location_count: number;
}

/** 0034: a series' missing normal episodes aired on one day, and how many of them a collected group has passed. */
export interface SeriesMissingDaysTable {
  series_id: number;
  air_day: string;
  missing_count: number;
  collecting_count: number;
}

/** 0031: Dashboard/Stats' file figures for a viewer without tag restrictions (one row, id 1). */
export interface CollectionStatsTable {
  id: number;
  file_count: number;
  file_size: number;
  multiple_file_episodes: number;
  unrecognized_files: number;
  duplicate_location_files: number;
  location_count: number;
}

/** 0041: what a change of files, links, series or locations touched, for collection_stats' next refresh. */
export interface CollectionStatsChangesTable {
  file_id: number | null;
  ed2k: string | null;
  size: number | null;
  episode_id: number | null;
  anime_id: number | null;
  file_delta: Generated<number>;
  size_delta: Generated<number>;
  location_delta: Generated<number>;
}

/** 0041: files outside the collection (no link to an anime with a series); `unrecognized` 1 for unrecognized ones. */
export interface CollectionStatsOutsideFilesTable {
  file_id: number;
  size: number;
  unrecognized: number;
}

/** 0041: episodes held by several non-variation files. */
export interface CollectionStatsMultipleEpisodesTable {
  episode_id: number;
}

/** 0041: files with several locations. */
export interface CollectionStatsLocatedFilesTable {
  file_id: number;
}

/** 0035: per series, the newest import of a file linked to its anime and the (imported file, link) pairs of its episodes. */
export interface SeriesRecentImportsTable {
  series_id: number;
  last_imported_at: string | null;
  imported_link_count: number;
}

/**
 * 0035: per series and user with a watched episode, the latest update of those watch states, how many have an AniDB
 * episode and their length in seconds, and the first unwatched visible episode (episodes.id) of each kind, among all and
 * (local_*) among those with a file (db/dashboard-aggregates.ts).
 */
export interface SeriesNextUpTable {
  series_id: number;
  user_id: number;
  last_activity: string;
  watched_count: number;
  watched_seconds: number;
  normal_id: number | null;
  normal_number: number | null;
  special_id: number | null;
  other_id: number | null;
  extra_id: number | null;
  local_normal_id: number | null;
  local_normal_number: number | null;
  local_special_id: number | null;
  local_other_id: number | null;
  local_extra_id: number | null;
}

/** 0013: one user's record of one file (resume point, watched date, watch count). */
export interface UserFileStatesTable {
  user_id: number;
  file_id: number;
  resume_position_ms: number;
  watched_at: string | null;
  watch_count: number;
  updated_at: string;
}

export interface UserSeriesVotesTable {
  user_id: number;
  series_id: number;
  /** 0–10. */
  value: number;
  vote_type: 'Permanent' | 'Temporary';
  updated_at: string;
}

/** 0054: a group one user marked as a favourite (from a Shoko import; API v3 cannot set them). */
export interface UserGroupFavouritesTable {
  user_id: number;
  group_id: number;
}

export interface CustomTagsTable {
  id: Generated<number>;
  name: string;
  description: string;
}

export interface SeriesCustomTagsTable {
  series_id: number;
  tag_id: number;
}

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

export interface RenamerConfigsTable {
  id: Generated<number>;
  name: string;
  renamer_id: string;
  /** JSON array of { Name, Value }. */
  settings: string;
}

export interface RelocationJournalTable {
  id: Generated<number>;
  batch_id: string;
  file_id: number;
  location_id: number;
  kind: 'file' | 'sidecar';
  from_folder_id: number;
  from_path: string;
  to_folder_id: number;
  to_path: string;
  state: 'planned' | 'moved' | 'committed' | 'rolled_back' | 'failed';
  error: string | null;
  undone_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface AniDBReleaseGroupsTable {
  id: number;
  name: string;
  short_name: string;
  updated_at: string;
}

export interface DisabledImagesTable {
  source: string;
  image_type: string;
  image_id: number;
}

/** 0010: preferred image per series and type. */
export interface SeriesPreferredImagesTable {
  series_id: number;
  image_type: string;
  source: string;
  image_id: number;
}

/** 0015: preferred image per episode and type. */
export interface EpisodePreferredImagesTable {
  episode_id: number;
  image_type: string;
  source: string;
  image_id: number;
}

/** The current AniDB ban of one protocol (`udp` or `http`); ISO times. */
export interface AniDBBansTable {
  protocol: string;
  reason: string;
  banned_at: string;
  banned_until: string;
}

/** When an anime was last requested from AniDB's HTTP API (ISO time). */
export interface AniDBAnimeRequestsTable {
  anime_id: number;
  requested_at: string;
}

/** When a periodic AniDB check (`updated-anime`) last ran (ISO time). */
export interface AniDBChecksTable {
  name: string;
  checked_at: string;
}

/** 0020: the Trakt show or movie of one TMDB show or movie of an anime; `trakt_id` null = Trakt does not know it. */
export interface TraktLinksTable {
  anime_id: number;
  kind: 'show' | 'movie';
  tmdb_id: number;
  trakt_id: number | null;
  slug: string | null;
  title: string | null;
  checked_at: string;
}

/** 0020: when a periodic Trakt task (`sync`) last ran. */
export interface TraktTaskRunsTable {
  task: string;
  ran_at: string;
}

export interface Database {
  trakt_links: TraktLinksTable;
  trakt_task_runs: TraktTaskRunsTable;
  anidb_bans: AniDBBansTable;
  anidb_checks: AniDBChecksTable;
  anidb_anime_requests: AniDBAnimeRequestsTable;
  series_preferred_images: SeriesPreferredImagesTable;
  episode_preferred_images: EpisodePreferredImagesTable;
  disabled_images: DisabledImagesTable;
  anidb_release_groups: AniDBReleaseGroupsTable;
  users: UsersTable;
  api_keys: ApiKeysTable;
  renamer_configs: RenamerConfigsTable;
  relocation_journal: RelocationJournalTable;
  import_folders: ImportFoldersTable;
  files: FilesTable;
  file_locations: FileLocationsTable;
  file_sort_keys: FileSortKeysTable;
  file_key_counts: FileKeyCountsTable;
  user_episode_counts: UserEpisodeCountsTable;
  file_location_search: FileLocationSearchTable;
  jobs: JobsTable;
  anidb_anime: AniDBAnimeTable;
  anidb_anime_titles: AniDBAnimeTitlesTable;
  anidb_episodes: AniDBEpisodesTable;
  anidb_tags: AniDBTagsTable;
  anidb_anime_tags: AniDBAnimeTagsTable;
  anidb_relations: AniDBRelationsTable;
  anidb_characters: AniDBCharactersTable;
  anidb_creators: AniDBCreatorsTable;
  anidb_anime_characters: AniDBAnimeCharactersTable;
  anidb_anime_staff: AniDBAnimeStaffTable;
  anidb_similar: AniDBSimilarTable;
  anidb_files: AniDBFilesTable;
  file_episode_links: FileEpisodeLinksTable;
  groups: GroupsTable;
  series: SeriesTable;
  episodes: EpisodesTable;
  filters: FiltersTable;
  seeded_defaults: SeededDefaultsTable;
  user_episode_states: UserEpisodeStatesTable;
  user_file_states: UserFileStatesTable;
  series_aggregates: SeriesAggregatesTable;
  series_aggregate_values: SeriesAggregateValuesTable;
  series_user_aggregates: SeriesUserAggregatesTable;
  series_type_counts: SeriesTypeCountsTable;
  series_missing_air: SeriesMissingAirTable;
  series_user_type_counts: SeriesUserTypeCountsTable;
  aggregate_dirty_series: AggregateDirtySeriesTable;
  aggregate_dirty_groups: AggregateDirtyGroupsTable;
  group_figures: GroupFiguresTable;
  group_user_figures: GroupUserFiguresTable;
  collection_stats: CollectionStatsTable;
  series_release_figures: SeriesReleaseFiguresTable;
  series_release_totals: SeriesReleaseTotalsTable;
  series_missing_days: SeriesMissingDaysTable;
  series_filter_figures: SeriesFilterFiguresTable;
  series_file_folders: SeriesFileFoldersTable;
  collection_stats_changes: CollectionStatsChangesTable;
  collection_stats_outside_files: CollectionStatsOutsideFilesTable;
  collection_stats_multiple_episodes: CollectionStatsMultipleEpisodesTable;
  collection_stats_located_files: CollectionStatsLocatedFilesTable;
  series_recent_imports: SeriesRecentImportsTable;
  series_next_up: SeriesNextUpTable;
  user_series_votes: UserSeriesVotesTable;
  user_group_favourites: UserGroupFavouritesTable;
  file_avdumps: FileAvdumpsTable;
  custom_tags: CustomTagsTable;
  series_custom_tags: SeriesCustomTagsTable;
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
