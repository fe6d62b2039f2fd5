import type { Kysely } from 'kysely';
import type { MigrationContext } from './helpers.js';

/** The user-chosen (preferred) image of each type per episode (`PUT Episode/{id}/Images/{type}`). */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('episode_preferred_images')
    .addColumn('episode_id', 'integer', (c) => c.notNull().references('episodes.id').onDelete('cascade'))
    .addColumn('image_type', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('image_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('episode_preferred_images_pk', ['episode_id', 'image_type'])
    .execute();
}
