import type { Kysely } from 'kysely';
import { SCRIPT_RENAMER_DEFAULT_SETTINGS, SCRIPT_RENAMER_ID } from '@shoko-ts/contract';
import { addIdColumn, type MigrationContext } from './helpers.js';

/**
 * Renamer configs (one named `Default` for the script renamer is created with the database) and the relocation journal:
 * every file move is written here before the disk is touched, so a crash can be completed or rolled back on start.
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await addIdColumn(db.schema.createTable('renamer_configs'), ctx)
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('renamer_id', 'text', (c) => c.notNull())
    /** JSON array of { Name, Value }. */
    .addColumn('settings', 'text', (c) => c.notNull())
    .execute();

  await addIdColumn(db.schema.createTable('relocation_journal'), ctx)
    .addColumn('batch_id', 'text', (c) => c.notNull())
    .addColumn('file_id', 'integer', (c) => c.notNull())
    /** The location record a `file` entry moves; sidecar entries carry the location of their video. */
    .addColumn('location_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('from_folder_id', 'integer', (c) => c.notNull())
    .addColumn('from_path', 'text', (c) => c.notNull())
    .addColumn('to_folder_id', 'integer', (c) => c.notNull())
    .addColumn('to_path', 'text', (c) => c.notNull())
    /** planned → moved → committed, or rolled_back / failed. */
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('undone_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('relocation_journal_state').on('relocation_journal').column('state').execute();
  await db.schema.createIndex('relocation_journal_batch').on('relocation_journal').column('batch_id').execute();

  await (db as Kysely<{ renamer_configs: { name: string; renamer_id: string; settings: string } }>)
    .insertInto('renamer_configs')
    .values({ name: 'Default', renamer_id: SCRIPT_RENAMER_ID, settings: JSON.stringify(SCRIPT_RENAMER_DEFAULT_SETTINGS) })
    .execute();
}
