import type { Kysely } from 'kysely';
import type { MigrationContext } from './helpers.js';

/**
 * AniDB good-citizen state that must survive a restart: the current ban per protocol (`udp`/`http`, until when and
 * why) and when each anime was last requested over HTTP (AniDB allows one request per anime a day).
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('anidb_bans')
    .addColumn('protocol', 'text', (c) => c.primaryKey())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('banned_at', 'text', (c) => c.notNull())
    .addColumn('banned_until', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('anidb_anime_requests')
    .addColumn('anime_id', 'integer', (c) => c.primaryKey())
    .addColumn('requested_at', 'text', (c) => c.notNull())
    .execute();
}
