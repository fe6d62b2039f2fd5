import type { Kysely } from 'kysely';
import { addIdColumn, type MigrationContext } from './helpers.js';

export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  const bigint = ctx.dialect === 'postgres' ? 'bigint' : 'integer';

  await addIdColumn(db.schema.createTable('import_folders'), ctx)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('is_drop_source', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_drop_destination', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('watch_for_new_files', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  // One row per distinct content (ED2K + size once hashed); copies of it are rows in file_locations.
  await addIdColumn(db.schema.createTable('files'), ctx)
    .addColumn('size', bigint, (c) => c.notNull())
    .addColumn('ed2k', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('ed2k_alternate', 'text')
    .addColumn('crc32', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('md5', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sha1', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_ignored', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_variation', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('media_info', 'text')
    .addColumn('imported_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('files_ed2k_size').on('files').columns(['ed2k', 'size']).execute();
  await db.schema.createIndex('files_ed2k_alternate').on('files').column('ed2k_alternate').execute();

  await addIdColumn(db.schema.createTable('file_locations'), ctx)
    .addColumn('file_id', 'integer', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('import_folder_id', 'integer', (c) => c.notNull().references('import_folders.id').onDelete('cascade'))
    .addColumn('relative_path', 'text', (c) => c.notNull())
    .addColumn('is_accessible', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('mtime_ms', bigint)
    .execute();
  await db.schema.createIndex('file_locations_path').unique().on('file_locations').columns(['import_folder_id', 'relative_path']).execute();
  await db.schema.createIndex('file_locations_file').on('file_locations').column('file_id').execute();

  // The persisted job queue: waiting and running jobs; a row disappears when its job ends.
  await addIdColumn(db.schema.createTable('jobs'), ctx)
    .addColumn('job_key', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_running', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .execute();
  await db.schema.createIndex('jobs_order').on('jobs').columns(['is_running', 'priority', 'id']).execute();
}
