import type { Kysely } from 'kysely';
import type { MigrationContext } from './helpers.js';

/** The anime auto-grouping chose to lead each group (by score or air date); null lets the earliest series lead. */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema.alterTable('groups').addColumn('main_anime_id', 'integer').execute();
}
