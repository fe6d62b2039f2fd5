import { sql, type Kysely } from 'kysely';
import { continueWatchingInsert, createContinueWatchingTrigger } from '../continue-watching.js';
import type { MigrationContext } from './helpers.js';

/**
 * Continue Watching from maintained rows (issue 45; db/continue-watching.ts says what they hold and how they are kept):
 * the endpoint gathered every resumed file of the user through five lookups each and ranked them per series on every
 * request (330-1,055 ms on PostgreSQL under load with 2,100 resumed files per user). Computed here for every user.
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('continue_watching')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('series_id', 'integer', (c) => c.notNull())
    .addColumn('choice', 'integer', (c) => c.notNull())
    .addColumn('episode_id', 'integer', (c) => c.notNull())
    .addColumn('file_id', 'integer', (c) => c.notNull())
    .addColumn('position_ms', 'integer', (c) => c.notNull())
    .addColumn('touched', 'text', (c) => c.notNull())
    .addColumn('last_activity', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('continue_watching_pk', ['user_id', 'choice', 'series_id'])
    .execute();
  // The page order; series_id leads nothing, so the series refresh's deletes have their own index.
  await sql`CREATE INDEX continue_watching_order ON continue_watching (user_id, choice, last_activity DESC, series_id)`.execute(db);
  await db.schema.createIndex('continue_watching_series').on('continue_watching').columns(['series_id']).execute();
  await db.schema
    .createTable('continue_watching_dirty')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('series_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('continue_watching_dirty_pk', ['user_id', 'series_id'])
    .execute();
  await db.schema.createIndex('continue_watching_dirty_series').on('continue_watching_dirty').columns(['series_id']).execute();
  await createContinueWatchingTrigger(db, ctx.dialect);
  await continueWatchingInsert(sql`1 = 1`).execute(db);
}
