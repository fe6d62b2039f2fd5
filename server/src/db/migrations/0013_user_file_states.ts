import type { Kysely } from 'kysely';
import type { MigrationContext } from './helpers.js';

/**
 * Each user's record of a file (contract FileUserStats): where playback stopped, when it was last watched and how
 * often. Players report it through File/{id}/Scrobble; Continue Watching is built from the resume positions.
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('user_file_states')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('file_id', 'integer', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('resume_position_ms', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('watched_at', 'text')
    .addColumn('watch_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_file_states_pk', ['user_id', 'file_id'])
    .execute();
  await db.schema.createIndex('user_file_states_file').on('user_file_states').column('file_id').execute();
}
