import { sql, type Kysely } from 'kysely';
import { createTrigger, type TriggerSpec } from './0023_series_aggregates.js';
import type { MigrationContext } from './helpers.js';

/**
 * The filter catalogue's base-table expressions from maintained per-series rows (issue 22): the import folders a
 * series' files are stored in (ImportFolderIDs, ImportFolderNames), its files' paths as one lower-cased text
 * (FilePaths with a contains/equals operator) and its missing episodes in the collecting sense of the filters
 * (HasMissingEpisodesCollecting, MissingEpisodeCollectingCount). db/filter-figures.ts computes them with the series
 * aggregates (same dirty marks, same refresh, same transaction), so a filter reads a row per series instead of walking
 * every link, file and location of the collection.
 *
 * The triggers of 0023 and 0034 already mark a series for files, links, episodes, AniDB episodes and inserted or
 * deleted locations; these add a location's move (path or folder) and the release group AniDB gives a file.
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  // One row per series with a local file or a collecting missing episode.
  await db.schema
    .createTable('series_filter_figures')
    .addColumn('series_id', 'integer', (c) => c.primaryKey())
    .addColumn('collecting_missing_count', 'integer', (c) => c.notNull())
    // The lower-cased relative paths of the locations of its files, each closed by a unit separator (char 31).
    .addColumn('file_paths', 'text')
    .execute();
  await db.schema
    .createTable('series_file_folders')
    .addColumn('series_id', 'integer', (c) => c.notNull())
    .addColumn('import_folder_id', 'integer', (c) => c.notNull())
    .addColumn('location_count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('series_file_folders_pk', ['series_id', 'import_folder_id'])
    .execute();

  const ofFile = (id: string) =>
    `SELECT e.series_id AS series_id FROM files f JOIN file_episode_links l ON l.ed2k = f.ed2k AND l.size = f.size
     JOIN episodes e ON e.anidb_episode_id = l.episode_id WHERE f.id = ${id}`;
  const ofContent = (row: string) =>
    `SELECT e.series_id AS series_id FROM file_episode_links l JOIN episodes e ON e.anidb_episode_id = l.episode_id WHERE l.ed2k = ${row}.ed2k AND l.size = ${row}.size`;
  const triggers: TriggerSpec[] = [
    {
      table: 'file_locations',
      name: 'file_locations_filter_marks',
      updatesOnly: true,
      columns: ['relative_path', 'import_folder_id'],
      series: (row) => ofFile(`${row}.file_id`),
    },
    { table: 'anidb_files', name: 'anidb_files_filter_marks', updatesOnly: true, columns: ['group_id'], series: ofContent },
  ];
  for (const spec of triggers) await createTrigger(db, ctx, spec);
  // Computed at start-up with the aggregates.
  await sql`INSERT INTO aggregate_dirty_series (series_id) SELECT id FROM series WHERE id NOT IN (SELECT series_id FROM aggregate_dirty_series)`.execute(
    db,
  );
}
