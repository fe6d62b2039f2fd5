import type { Kysely } from 'kysely';
import type { MigrationContext } from './helpers.js';

/** The user-chosen (preferred) image of each type per series (`PUT Series/{id}/Images/{type}`). */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('series_preferred_images')
    .addColumn('series_id', 'integer', (c) => c.notNull().references('series.id').onDelete('cascade'))
    .addColumn('image_type', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('image_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('series_preferred_images_pk', ['series_id', 'image_type'])
    .execute();
}
