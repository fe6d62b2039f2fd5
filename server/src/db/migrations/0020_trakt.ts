import type { Kysely } from 'kysely';
import type { MigrationContext } from './helpers.js';

/**
 * Trakt: which Trakt show or movie each TMDB show or movie of an anime is (found by id on Trakt; `trakt_id` null when
 * Trakt does not know it), and when each periodic Trakt task last ran, so a restart does not run them again early.
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('trakt_links')
    .addColumn('anime_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('tmdb_id', 'integer', (c) => c.notNull())
    .addColumn('trakt_id', 'integer')
    .addColumn('slug', 'text')
    .addColumn('title', 'text')
    .addColumn('checked_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('trakt_links_pk', ['anime_id', 'kind', 'tmdb_id'])
    .execute();
  await db.schema
    .createTable('trakt_task_runs')
    .addColumn('task', 'text', (c) => c.primaryKey())
    .addColumn('ran_at', 'text', (c) => c.notNull())
    .execute();
}
