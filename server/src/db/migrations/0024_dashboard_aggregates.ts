import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './helpers.js';

/**
 * What the dashboard's collection stats need from the maintained series aggregates (0023): normal episodes with a
 * file, the gaps before the last of them, and per user the watched ones among them. Every series is recomputed on
 * the next refresh.
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  // Visible normal episodes with a local file.
  await db.schema
    .alterTable('series_aggregates')
    .addColumn('local_normal_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // Visible normal episodes with an air date and no file, numbered below the last normal episode with a file: how
  // many, and the last air date among them (a reader counts those aired by today).
  await db.schema
    .alterTable('series_aggregates')
    .addColumn('collecting_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('series_aggregates').addColumn('collecting_last_air', 'text').execute();
  // Visible normal episodes with a local file the user watched.
  await db.schema
    .alterTable('series_user_aggregates')
    .addColumn('watched_normal_local_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`INSERT INTO aggregate_dirty_series (series_id) SELECT id FROM series WHERE id NOT IN (SELECT series_id FROM aggregate_dirty_series)`.execute(
    db,
  );
}
