import type { Kysely } from 'kysely';
import type { MigrationContext } from './helpers.js';

/**
 * AniDB episodes by air date (issue 22): the dashboard's calendars ask for the episodes airing in a window, which was a
 * scan of every AniDB episode (83,000 at 100k files) on both databases; now a range of this index.
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema.createIndex('anidb_episodes_air_date').on('anidb_episodes').column('air_date').execute();
}
