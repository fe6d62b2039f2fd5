import type { Kysely } from 'kysely';
import type { MigrationContext } from './helpers.js';

/** Images a user turned off (`POST Image/{source}/{type}/{id}/Enabled`); the files themselves live in <home>/images. */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('disabled_images')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('image_type', 'text', (c) => c.notNull())
    .addColumn('image_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('disabled_images_pk', ['source', 'image_type', 'image_id'])
    .execute();
}
