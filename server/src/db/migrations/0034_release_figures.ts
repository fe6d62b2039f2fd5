import { sql, type Kysely } from 'kysely';
import { createTrigger, type TriggerSpec } from './0023_series_aggregates.js';
import type { MigrationContext } from './helpers.js';

/**
 * Release management's series lists from maintained per-series figures (issue 22): how many episodes have several
 * releases (with and without variations), a file stored in several places, or are missing (by air day, also those a
 * collected release group has passed). db/release-figures.ts computes them with the series aggregates (same dirty
 * marks, same refresh, same transaction), so a list is a read of these rows instead of a grouped scan of every link.
 *
 * The aggregates' triggers already mark a series for changes to files, links, episodes and AniDB episodes; these add
 * what only the release figures read: locations, the variation flag, a link's source and release group, an AniDB
 * episode's number and a series' anime.
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  // One row per series with any figure above zero.
  await db.schema
    .createTable('series_release_figures')
    .addColumn('series_id', 'integer', (c) => c.primaryKey())
    .addColumn('multiple_count', 'integer', (c) => c.notNull())
    .addColumn('multiple_original_count', 'integer', (c) => c.notNull())
    .addColumn('duplicate_count', 'integer', (c) => c.notNull())
    .addColumn('missing_count', 'integer', (c) => c.notNull())
    .addColumn('missing_last_day', 'text')
    .addColumn('collecting_count', 'integer', (c) => c.notNull())
    .addColumn('collecting_last_day', 'text')
    .execute();
  // Missing normal episodes by air day (yyyy-MM-dd), so a series still airing counts those aired by today.
  await db.schema
    .createTable('series_missing_days')
    .addColumn('series_id', 'integer', (c) => c.notNull())
    .addColumn('air_day', 'text', (c) => c.notNull())
    .addColumn('missing_count', 'integer', (c) => c.notNull())
    .addColumn('collecting_count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('series_missing_days_pk', ['series_id', 'air_day'])
    .execute();
  // Series/WithManuallyLinkedFiles starts from the few links users made.
  await db.schema.createIndex('file_episode_links_source').on('file_episode_links').columns(['source', 'episode_id']).execute();

  const ofEpisode = (id: string) => `SELECT e.series_id AS series_id FROM episodes e WHERE e.anidb_episode_id = ${id}`;
  const ofFile = (id: string) =>
    `SELECT e.series_id AS series_id FROM files f JOIN file_episode_links l ON l.ed2k = f.ed2k AND l.size = f.size
     JOIN episodes e ON e.anidb_episode_id = l.episode_id WHERE f.id = ${id}`;
  const triggers: TriggerSpec[] = [
    { table: 'file_locations', name: 'file_locations_release_marks', columns: ['file_id'], series: (row) => ofFile(`${row}.file_id`) },
    { table: 'files', name: 'files_release_marks', updatesOnly: true, columns: ['is_variation'], series: (row) => ofFile(`${row}.id`) },
    {
      table: 'file_episode_links',
      name: 'file_episode_links_release_marks',
      updatesOnly: true,
      columns: ['source', 'release_group_id'],
      series: (row) => ofEpisode(`${row}.episode_id`),
    },
    {
      table: 'anidb_episodes',
      name: 'anidb_episodes_release_marks',
      updatesOnly: true,
      columns: ['number', 'anime_id'],
      series: (row) => ofEpisode(`${row}.id`),
    },
    {
      table: 'series',
      name: 'series_release_marks',
      updatesOnly: true,
      columns: ['anime_id'],
      series: (row) => `SELECT ${row}.id AS series_id`,
    },
  ];
  for (const spec of triggers) await createTrigger(db, ctx, spec);
  // Computed at start-up with the aggregates.
  await sql`INSERT INTO aggregate_dirty_series (series_id) SELECT id FROM series WHERE id NOT IN (SELECT series_id FROM aggregate_dirty_series)`.execute(
    db,
  );
}
