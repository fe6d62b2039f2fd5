import { sql, type Kysely } from 'kysely';
import { dashboardAggregateStatements } from '../dashboard-aggregates.js';
import { createTrigger, type TriggerSpec } from './0023_series_aggregates.js';
import type { MigrationContext } from './helpers.js';

/**
 * The dashboard's episode lists from maintained rows (issue 22; db/dashboard-aggregates.ts says what they hold):
 * RecentlyAdded* read per series a last import time and an imported link count, Next Up per user and series the
 * first unwatched episode of each kind, instead of reading every link or ranking every episode of the watched series.
 * They are recomputed with the series aggregates (0023): the triggers below mark what those of 0023 and 0034 do not, in
 * the same transaction as the change — import times, links and AniDB episodes by their anime, and watch-state updates
 * (their time orders Next Up), episode lengths (Dashboard/Stats' watched hours). Computed here for every series.
 */
const byAnime = (anime: string) => `SELECT s.id AS series_id FROM series s WHERE s.anime_id = ${anime}`;
const byContent = (row: string) =>
  `SELECT s.id AS series_id FROM file_episode_links l JOIN series s ON s.anime_id = l.anime_id WHERE l.ed2k = ${row}.ed2k AND l.size = ${row}.size
   UNION SELECT s.id FROM file_episode_links l JOIN anidb_episodes ae ON ae.id = l.episode_id JOIN series s ON s.anime_id = ae.anime_id
   WHERE l.ed2k = ${row}.ed2k AND l.size = ${row}.size`;

const TRIGGERS: TriggerSpec[] = [
  { table: 'files', columns: ['ed2k', 'size', 'imported_at'], series: byContent },
  {
    table: 'file_episode_links',
    columns: ['ed2k', 'size', 'anime_id', 'episode_id'],
    series: (row) =>
      `${byAnime(`${row}.anime_id`)} UNION SELECT s.id FROM anidb_episodes ae JOIN series s ON s.anime_id = ae.anime_id WHERE ae.id = ${row}.episode_id`,
  },
  // Their numbers, types and moves between anime also mark through their episodes in 0023 and 0034.
  {
    table: 'anidb_episodes',
    columns: ['id', 'anime_id', 'length_seconds'],
    series: (row) => `${byAnime(`${row}.anime_id`)} UNION SELECT e.series_id FROM episodes e WHERE e.anidb_episode_id = ${row}.id`,
  },
  // Inserts, deletes and watched dates are marked by 0023.
  {
    table: 'user_episode_states',
    updatesOnly: true,
    columns: ['updated_at'],
    series: (row) => `SELECT e.series_id AS series_id FROM episodes e WHERE e.id = ${row}.episode_id`,
  },
];

export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('series_recent_imports')
    .addColumn('series_id', 'integer', (c) => c.primaryKey())
    .addColumn('last_imported_at', 'text')
    .addColumn('imported_link_count', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('series_recent_imports_latest')
    .on('series_recent_imports')
    .columns(['last_imported_at', 'series_id'])
    .execute();
  let table = db.schema
    .createTable('series_next_up')
    .addColumn('series_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('last_activity', 'text', (c) => c.notNull())
    .addColumn('watched_count', 'integer', (c) => c.notNull())
    .addColumn('watched_seconds', 'bigint', (c) => c.notNull());
  for (const prefix of ['', 'local_'])
    for (const column of ['normal_id', 'normal_number', 'special_id', 'other_id', 'extra_id'])
      table = table.addColumn(`${prefix}${column}`, 'integer');
  await table.addPrimaryKeyConstraint('series_next_up_pk', ['series_id', 'user_id']).execute();
  await db.schema.createIndex('series_next_up_user').on('series_next_up').columns(['user_id', 'last_activity', 'series_id']).execute();

  for (const spec of TRIGGERS) await createTrigger(db, ctx, { ...spec, name: `${spec.table}_dashboard_aggregates` });
  for (const statement of dashboardAggregateStatements(sql`(SELECT id FROM series)`)) await statement.execute(db);
}
