import type { Kysely } from 'kysely';

/**
 * Groups a user marked as a favourite. Shoko Server keeps them (AnimeGroup_User.IsFave) and its Favorites preset filters
 * on them; API v3 has no call to set them, so they arrive with a Shoko import and the IsFavorite condition reads them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_group_favourites')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('user_group_favourites_pk', ['user_id', 'group_id'])
    .execute();
}
