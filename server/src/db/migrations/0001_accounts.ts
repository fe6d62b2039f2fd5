import type { Kysely } from 'kysely';
import { addIdColumn, type MigrationContext } from './helpers.js';

export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await addIdColumn(db.schema.createTable('users'), ctx)
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('username_key', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('anidb_sync', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('trakt_sync', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('plex_usernames', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('plex_token', 'text')
    .addColumn('avatar', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('restricted_tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await addIdColumn(db.schema.createTable('api_keys'), ctx)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('device', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('api_keys_user_device').on('api_keys').columns(['user_id', 'device']).execute();
}
