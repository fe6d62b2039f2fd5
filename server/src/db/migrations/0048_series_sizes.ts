import { sql, type Kysely } from 'kysely';
import { SERIES_SIZE_TABLES, seriesSizeStatements } from '../series-sizes.js';
import type { MigrationContext } from './helpers.js';

/**
 * Maintained figures of the Series and Group models' Sizes (issue 22): episodes per AniDB type (visible, local, hidden),
 * missing normal/special episodes by air date, and per user the watched local episodes per type. Every list of series
 * or group models read each episode of its series with its AniDB row and the viewer's watch state (on PostgreSQL at
 * 400k files most of a release-management page: 1,183 episodes probed three times each). db/series-sizes.ts computes
 * them with the series aggregates' refresh; here they are filled once from the base tables (the episodes' maintained
 * local file counts of 0043 say which have a local file).
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('series_type_counts')
    .addColumn('series_id', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('visible_count', 'integer', (c) => c.notNull())
    .addColumn('local_count', 'integer', (c) => c.notNull())
    .addColumn('hidden_count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('series_type_counts_pk', ['series_id', 'type'])
    .execute();
  await db.schema
    .createTable('series_missing_air')
    .addColumn('series_id', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('air_date', 'text', (c) => c.notNull())
    .addColumn('episode_count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('series_missing_air_pk', ['series_id', 'air_date', 'type'])
    .execute();
  await db.schema
    .createTable('series_user_type_counts')
    .addColumn('series_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('watched_local_count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('series_user_type_counts_pk', ['series_id', 'user_id', 'type'])
    .execute();
  const episodes = sql`(SELECT e.id, e.series_id, e.is_hidden, ae.type, ae.air_date,
      CASE WHEN e.local_file_count > 0 THEN 1 ELSE 0 END AS has_file
    FROM episodes e LEFT JOIN anidb_episodes ae ON ae.id = e.anidb_episode_id)`;
  for (const statement of seriesSizeStatements(episodes)) await statement.execute(db);
  for (const table of SERIES_SIZE_TABLES) await sql`ANALYZE ${sql.table(table)}`.execute(db);
}
