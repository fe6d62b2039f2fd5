import type { Kysely } from 'kysely';
import type { MigrationContext } from './helpers.js';

/**
 * Locations by import folder and file (issue 45): `GET ImportFolder`, on every dashboard and file page, sums each
 * folder's file sizes; on SQLite that walked the folder-and-path index, whose entries carry every relative path
 * (~140 ms at 100,000 files, holding the one connection). This index covers the walk (~50 ms).
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema.createIndex('file_locations_folder_file').on('file_locations').columns(['import_folder_id', 'file_id']).execute();
}
