import type { Kysely } from 'kysely';
import type { MigrationContext } from './helpers.js';

/** AVDump: when each file was last dumped to AniDB successfully, and with which AVDump version. */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('file_avdumps')
    .addColumn('file_id', 'integer', (c) => c.primaryKey().references('files.id').onDelete('cascade'))
    .addColumn('last_dumped_at', 'text', (c) => c.notNull())
    .addColumn('last_version', 'text', (c) => c.notNull())
    .execute();
}
