import { sql, type Kysely } from 'kysely';
import { createSortKeyTriggers } from './0032_file_sort_keys.js';
import type { MigrationContext } from './helpers.js';

/**
 * The file_sort_keys triggers again, for databases that ran 0032's first version: its PostgreSQL trigger plan could
 * scan many locations for each changed row (an insert of 100,000 locations did not finish in ten minutes).
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await dropSortKeyTriggers(db, ctx);
  // A file's first location by index: without it PostgreSQL answered min(id) for one file by walking the primary key
  // from the lowest id (2.5 ms a row at 120,000 locations; 0.1 ms with it).
  await db.schema.createIndex('file_locations_file_first').on('file_locations').columns(['file_id', 'id']).execute();
  await createSortKeyTriggers(db, ctx);
}

/** Drops the triggers (and on PostgreSQL their functions) that 0032 made; 0036 drops them again before its own. */
export async function dropSortKeyTriggers(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  if (ctx.dialect === 'sqlite') {
    for (const name of ['files_sort_keys', 'file_locations_sort_keys'])
      for (const event of ['insert', 'update', 'delete']) await sql.raw(`DROP TRIGGER IF EXISTS ${name}_${event}`).execute(db);
    await sql.raw('DROP TRIGGER IF EXISTS import_folders_sort_keys_update').execute(db);
  } else {
    for (const [name, table] of [
      ['files_sort_keys', 'files'],
      ['file_locations_sort_keys', 'file_locations'],
      ['import_folders_sort_keys', 'import_folders'],
    ]) {
      await sql.raw(`DROP TRIGGER IF EXISTS ${name} ON ${table}`).execute(db);
      await sql.raw(`DROP FUNCTION IF EXISTS ${name}()`).execute(db);
    }
  }
}
