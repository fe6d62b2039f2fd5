import type { Kysely } from 'kysely';
import type { MigrationContext } from './helpers.js';

/** Per-series auto-matching switch (`Series/{id}/AutoMatchSettings`): 1 keeps the TMDB auto-match away from the series. */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('series')
    .addColumn('disable_tmdb_auto_match', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
