import type { Kysely } from 'kysely';
import type { MigrationContext } from './helpers.js';

/**
 * Indexes for first visits on big collections (issue 22): links by content carry the anime and episode, so the
 * dashboard's counts and the release lists answer "which series / episode holds this file" from the index alone; files
 * by import time serve the newest-first lists.
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .createIndex('file_episode_links_content_episode')
    .on('file_episode_links')
    .columns(['ed2k', 'size', 'anime_id', 'episode_id'])
    .execute();
  // The new index starts with the old one's columns and answers every lookup it did.
  await db.schema.dropIndex('file_episode_links_content').execute();
  await db.schema.createIndex('files_imported').on('files').columns(['imported_at', 'id']).execute();
}
