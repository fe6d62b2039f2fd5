import { sql, type Kysely } from 'kysely';
import type { Db } from './database.js';
import type { MigrationContext } from './migrations/helpers.js';
import * as m0001 from './migrations/0001_accounts.js';
import * as m0002 from './migrations/0002_import.js';
import * as m0003 from './migrations/0003_metadata.js';
import * as m0004 from './migrations/0004_anidb_details.js';
import * as m0005 from './migrations/0005_collection.js';
import * as m0008 from './migrations/0008_images.js';
import * as m0009 from './migrations/0009_tmdb.js';
import * as m0010 from './migrations/0010_series_images.js';
import * as m0011 from './migrations/0011_release_groups.js';
import * as m0013 from './migrations/0013_user_file_states.js';
import * as m0014 from './migrations/0014_avdump.js';
import * as m0015EpisodeImages from './migrations/0015_episode_preferred_images.js';
import * as m0016 from './migrations/0016_series_auto_match.js';
import * as m0018AniDBChecks from './migrations/0018_anidb_checks.js';
import * as m0017AniDBState from './migrations/0017_anidb_state.js';
import * as m0006 from './migrations/0006_renamer.js';
import * as m0021GroupMainAnime from './migrations/0021_group_main_anime.js';
import * as m0020Trakt from './migrations/0020_trakt.js';
import * as m0023SeriesAggregates from './migrations/0023_series_aggregates.js';
import * as m0024DashboardAggregates from './migrations/0024_dashboard_aggregates.js';
import * as m0030FirstVisitIndexes from './migrations/0030_first_visit_indexes.js';
import * as m0025MissingByAirDate from './migrations/0025_missing_by_air_date.js';
import * as m0031CollectionStats from './migrations/0031_collection_stats.js';
import * as m0032FileSortKeys from './migrations/0032_file_sort_keys.js';
import * as m0033FileSortKeyTriggers from './migrations/0033_file_sort_key_triggers.js';
import * as m0034ReleaseFigures from './migrations/0034_release_figures.js';
import * as m0035DashboardAggregates from './migrations/0035_dashboard_aggregates.js';
import * as m0036FileListKeys from './migrations/0036_file_list_keys.js';
import * as m0036FileSearch from './migrations/0036_file_search.js';
import * as m0037JobClaimIndex from './migrations/0037_job_claim_index.js';
import * as m0038AirDateIndex from './migrations/0038_air_date_index.js';
import * as m0039FilterFigures from './migrations/0039_filter_figures.js';
import * as m0040SeriesNameKey from './migrations/0040_series_name_key.js';
import * as m0041CollectionStatsChanges from './migrations/0041_collection_stats_changes.js';
import * as m0042NameOrderKeys from './migrations/0042_name_order_keys.js';
import * as m0043EpisodeListKeys from './migrations/0043_episode_list_keys.js';
import * as m0044NameSearch from './migrations/0044_name_search.js';
import * as m0045ReleaseTotals from './migrations/0045_release_totals.js';
import * as m0046FileKeyCounts from './migrations/0046_file_key_counts.js';
import * as m0047UserEpisodeCounts from './migrations/0047_user_episode_counts.js';
import * as m0048SeriesSizes from './migrations/0048_series_sizes.js';
import * as m0049ReleaseGroupValues from './migrations/0049_release_group_values.js';
import * as m0050NameFolds from './migrations/0050_name_folds.js';
import * as m0051GroupFigures from './migrations/0051_group_figures.js';
import * as m0052LinkMarks from './migrations/0052_link_marks.js';
import * as m0053ResumedFiles from './migrations/0053_resumed_files.js';
import * as m0054GroupFavourites from './migrations/0054_group_favourites.js';
import * as m0055CollectionDefaults from './migrations/0055_collection_defaults.js';
import * as m0056FolderAvailability from './migrations/0056_folder_availability.js';
import * as m0057UserWebUISettings from './migrations/0057_user_webui_settings.js';
import * as m0058FilesCreatedIndex from './migrations/0058_files_created_index.js';
import * as m0060FileLocationsFolderFile from './migrations/0060_file_locations_folder_file.js';
import * as m0061ContinueWatching from './migrations/0061_continue_watching.js';
import * as m0062FileSearchPath from './migrations/0062_file_search_path.js';

export type MigrationModule = { up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> };

/** Every migration in order; names are the sort key Kysely records, so never rename one that has shipped. */
const MIGRATIONS: Record<string, MigrationModule> = {
  '0001_accounts': m0001,
  '0002_import': m0002,
  '0003_metadata': m0003,
  '0004_anidb_details': m0004,
  '0005_collection': m0005,
  '0008_images': m0008,
  '0009_tmdb': m0009,
  '0010_series_images': m0010,
  '0011_release_groups': m0011,
  '0013_user_file_states': m0013,
  '0014_avdump': m0014,
  '0015_episode_preferred_images': m0015EpisodeImages,
  '0016_series_auto_match': m0016,
  '0017_anidb_state': m0017AniDBState,
  '0018_anidb_checks': m0018AniDBChecks,
  '0006_renamer': m0006,
  '0021_group_main_anime': m0021GroupMainAnime,
  '0020_trakt': m0020Trakt,
  '0023_series_aggregates': m0023SeriesAggregates,
  '0024_dashboard_aggregates': m0024DashboardAggregates,
  '0030_first_visit_indexes': m0030FirstVisitIndexes,
  '0025_missing_by_air_date': m0025MissingByAirDate,
  '0032_file_sort_keys': m0032FileSortKeys,
  '0031_collection_stats': m0031CollectionStats,
  '0033_file_sort_key_triggers': m0033FileSortKeyTriggers,
  '0034_release_figures': m0034ReleaseFigures,
  '0035_dashboard_aggregates': m0035DashboardAggregates,
  '0036_file_list_keys': m0036FileListKeys,
  '0036_file_search': m0036FileSearch,
  '0037_job_claim_index': m0037JobClaimIndex,
  '0038_air_date_index': m0038AirDateIndex,
  '0039_filter_figures': m0039FilterFigures,
  '0040_series_name_key': m0040SeriesNameKey,
  '0041_collection_stats_changes': m0041CollectionStatsChanges,
  '0042_name_order_keys': m0042NameOrderKeys,
  '0043_episode_list_keys': m0043EpisodeListKeys,
  '0044_name_search': m0044NameSearch,
  '0045_release_totals': m0045ReleaseTotals,
  '0046_file_key_counts': m0046FileKeyCounts,
  '0047_user_episode_counts': m0047UserEpisodeCounts,
  '0048_series_sizes': m0048SeriesSizes,
  '0049_release_group_values': m0049ReleaseGroupValues,
  '0050_name_folds': m0050NameFolds,
  '0051_group_figures': m0051GroupFigures,
  '0052_link_marks': m0052LinkMarks,
  '0053_resumed_files': m0053ResumedFiles,
  '0054_group_favourites': m0054GroupFavourites,
  '0055_collection_defaults': m0055CollectionDefaults,
  '0056_folder_availability': m0056FolderAvailability,
  '0057_user_webui_settings': m0057UserWebUISettings,
  '0058_files_created_index': m0058FilesCreatedIndex,
  '0060_file_locations_folder_file': m0060FileLocationsFolderFile,
  '0061_continue_watching': m0061ContinueWatching,
  '0062_file_search_path': m0062FileSearchPath,
};

/** Kysely's bookkeeping table, kept so databases migrated by earlier versions (through Kysely's Migrator) carry on. */
const MIGRATION_TABLE = 'kysely_migration';
/** Any constant: PostgreSQL's advisory lock that keeps two servers on one database from migrating at once. */
const PG_MIGRATION_LOCK = 7_246_031;

export interface MigrationOptions {
  /** Tests append migrations (a broken one, to prove a failure rolls back); never set in production. */
  extra?: Record<string, MigrationModule>;
}

/** A migration that failed: its name and the database's own message. */
export class MigrationError extends Error {
  constructor(
    readonly migration: string,
    cause: unknown,
  ) {
    super(`migration ${migration} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

function allMigrations(options: MigrationOptions): Array<[string, MigrationModule]> {
  return Object.entries({ ...MIGRATIONS, ...options.extra }).sort(([a], [b]) => a.localeCompare(b));
}

async function ensureMigrationTable(db: Db): Promise<void> {
  await db.kysely.schema
    .createTable(MIGRATION_TABLE)
    .ifNotExists()
    .addColumn('name', 'varchar(255)', (c) => c.notNull().primaryKey())
    .addColumn('timestamp', 'varchar(255)', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- reads its own table, not the schema's
async function recordedMigrations(db: Kysely<any>): Promise<Set<string>> {
  const rows = await sql<{ name: string }>`select name from ${sql.table(MIGRATION_TABLE)}`.execute(db);
  return new Set(rows.rows.map((r) => r.name));
}

/** Names of the migrations this database has recorded, oldest name first (empty for a new database). */
export async function appliedMigrations(db: Db): Promise<string[]> {
  await ensureMigrationTable(db);
  return [...(await recordedMigrations(db.kysely))].sort((a, b) => a.localeCompare(b));
}

/** Migrations this server knows that the database has not run yet. */
export async function pendingMigrations(db: Db, options: MigrationOptions = {}): Promise<string[]> {
  const applied = new Set(await appliedMigrations(db));
  return allMigrations(options)
    .map(([name]) => name)
    .filter((name) => !applied.has(name));
}

/** Every migration name this server knows; a database that recorded others comes from a newer version. */
export function knownMigrations(options: MigrationOptions = {}): string[] {
  return allMigrations(options).map(([name]) => name);
}

/**
 * Brings the schema up to date. Each migration runs in its own transaction together with its bookkeeping row, on
 * both dialects (SQLite's DDL is transactional too, which Kysely's Migrator does not use): a migration that fails
 * leaves no trace, the migrations before it stay applied, and the error names it.
 */
export async function migrateToLatest(db: Db, options: MigrationOptions = {}): Promise<string[]> {
  await ensureMigrationTable(db);
  const unknown = [...(await recordedMigrations(db.kysely))].filter((name) => !(name in MIGRATIONS) && !options.extra?.[name]);
  if (unknown.length) throw new Error(`the database was migrated by a newer version (${unknown.join(', ')}); restore a backup or upgrade`);
  const ctx: MigrationContext = { dialect: db.dialect };
  const applied: string[] = [];
  for (const [name, migration] of allMigrations(options)) {
    const ran = await db.kysely.transaction().execute(async (trx) => {
      if (db.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${PG_MIGRATION_LOCK})`.execute(trx);
      if ((await recordedMigrations(trx)).has(name)) return false;
      try {
        await migration.up(trx as unknown as Kysely<unknown>, ctx);
      } catch (error) {
        throw new MigrationError(name, error);
      }
      await sql`insert into ${sql.table(MIGRATION_TABLE)} (name, timestamp) values (${name}, ${new Date().toISOString()})`.execute(trx);
      return true;
    });
    if (ran) applied.push(name);
  }
  // PostgreSQL plans from statistics that only ANALYZE (or autovacuum, a minute or more later) gathers: tables a
  // migration created or filled have none, and the first visits after an upgrade were planned blind (at 100k files
  // the file list's deep pages took ~360 ms until autovacuum came, ~40 ms after). SQLite keeps the plans it has.
  if (applied.length && db.dialect === 'postgres') await sql`ANALYZE`.execute(db.kysely);
  return applied;
}
