import type { Kysely } from 'kysely';

/**
 * Whether an import folder can be reached (issue 49): a folder whose drive is unplugged or whose share is not mounted
 * is offline, not empty, so its records stay. `device_id` is the filesystem device the folder had when it held files,
 * so a mount point left bare on its parent's filesystem is told apart from the drive it stands for.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('import_folders')
    .addColumn('is_available', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('import_folders').addColumn('unavailable_since', 'text').execute();
  await db.schema.alterTable('import_folders').addColumn('unavailable_reason', 'text').execute();
  await db.schema.alterTable('import_folders').addColumn('device_id', 'text').execute();
}
