import type { Generated } from 'kysely';

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

export interface FigureTables {
  series_aggregates: SeriesAggregatesTable;
  series_aggregate_values: SeriesAggregateValuesTable;
  series_user_aggregates: SeriesUserAggregatesTable;
  series_type_counts: SeriesTypeCountsTable;
  series_missing_air: SeriesMissingAirTable;
  series_user_type_counts: SeriesUserTypeCountsTable;
  aggregate_dirty_series: AggregateDirtySeriesTable;
  group_figures: GroupFiguresTable;
  group_user_figures: GroupUserFiguresTable;
  aggregate_dirty_groups: AggregateDirtyGroupsTable;
  series_release_figures: SeriesReleaseFiguresTable;
  series_release_totals: SeriesReleaseTotalsTable;
  series_filter_figures: SeriesFilterFiguresTable;
  series_file_folders: SeriesFileFoldersTable;
  series_missing_days: SeriesMissingDaysTable;
  collection_stats: CollectionStatsTable;
  collection_stats_changes: CollectionStatsChangesTable;
  collection_stats_outside_files: CollectionStatsOutsideFilesTable;
  collection_stats_multiple_episodes: CollectionStatsMultipleEpisodesTable;
  collection_stats_located_files: CollectionStatsLocatedFilesTable;
  series_recent_imports: SeriesRecentImportsTable;
  series_next_up: SeriesNextUpTable;
}
