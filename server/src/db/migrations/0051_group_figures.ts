import { sql, type Kysely } from 'kysely';
import { createTrigger, type TriggerSpec } from './0023_series_aggregates.js';
import type { MigrationContext } from './helpers.js';

/**
 * Maintained per-group figures (issue 22; what they hold and how they are computed: db/group-figures.ts): a collection
 * page sorted or filtered by a group's figure reads one row per group instead of aggregating every series of the
 * collection by group per request.
 *
 * A group's figures cover every series below it (its subgroups' too). Triggers mark the groups a change affects in
 * `aggregate_dirty_groups`, in the same transaction as the change: a series added, removed or moved (old and new
 * group), a group added, removed or moved (itself and its old and new parent), an anime's episode counts, rating or
 * dates changed. The series aggregates' refresh (db/aggregates.ts) recomputes those groups, their ancestors and the
 * groups of the series it recomputes (their file, episode and watch figures are summed from the series aggregates).
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  const counts = ['series_count'];
  const sums = [
    'episode_count',
    'total_episode_count',
    'rating_sum',
    'rating_count',
    'rating_max',
    'rating_min',
    'file_count',
    'local_episode_count',
    'collecting_missing_count',
  ];
  const days = ['air_date', 'last_air_date', 'added_date', 'last_added'];
  let figures = db.schema.createTable('group_figures').addColumn('group_id', 'integer', (c) => c.primaryKey());
  for (const column of counts) figures = figures.addColumn(column, 'integer', (c) => c.notNull());
  for (const column of sums) figures = figures.addColumn(column, 'integer');
  for (const column of days) figures = figures.addColumn(column, 'text');
  await figures.execute();

  await db.schema
    .createTable('group_user_figures')
    .addColumn('group_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('watched_count', 'integer', (c) => c.notNull())
    .addColumn('watched_local_count', 'integer', (c) => c.notNull())
    .addColumn('first_watched', 'text')
    .addColumn('last_watched', 'text')
    .addPrimaryKeyConstraint('group_user_figures_pk', ['group_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('aggregate_dirty_groups')
    .addColumn('group_id', 'integer', (c) => c.primaryKey())
    .execute();

  const marks = { table: 'aggregate_dirty_groups', column: 'group_id' };
  const triggers: TriggerSpec[] = [
    { table: 'series', columns: ['group_id', 'anime_id', 'created_at'], series: (row) => `SELECT ${row}.group_id AS group_id` },
    { table: 'groups', columns: ['parent_id'], series: (row) => `SELECT ${row}.id AS group_id UNION ALL SELECT ${row}.parent_id` },
    {
      table: 'anidb_anime',
      columns: ['episode_count', 'special_count', 'rating', 'air_date', 'end_date'],
      series: (row) => `SELECT s.group_id AS group_id FROM series s WHERE s.anime_id = ${row}.id`,
    },
  ];
  for (const spec of triggers) await createTrigger(db, ctx, { ...spec, name: `${spec.table}_group_figures`, marks });
  // Existing collections: every group is computed on the first refresh (at start-up).
  await sql`INSERT INTO aggregate_dirty_groups (group_id) SELECT id FROM groups`.execute(db);
}
