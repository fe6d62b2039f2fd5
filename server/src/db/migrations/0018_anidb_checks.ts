import type { Kysely } from 'kysely';
import type { MigrationContext } from './helpers.js';

/**
 * When each periodic AniDB check last ran (`updated-anime`: the last `UPDATED` check, whose time the next one asks
 * from), and the back-off pauses of both protocols next to their bans in `anidb_bans` (rows `udp-backoff` and
 * `http-backoff` need no new columns).
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('anidb_checks')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('checked_at', 'text', (c) => c.notNull())
    .execute();
}
