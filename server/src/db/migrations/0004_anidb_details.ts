import type { Kysely } from 'kysely';
import { addIdColumn, type MigrationContext } from './helpers.js';

/**
 * The rest of an AniDB anime record: characters with their voice actors, staff credits, similar anime, the titles of
 * related anime (shown for relations not in the collection) and the official site.
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await db.schema.alterTable('anidb_anime').addColumn('url', 'text').execute();
  await db.schema.alterTable('anidb_relations').addColumn('related_title', 'text').execute();

  await db.schema
    .createTable('anidb_characters')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('gender', 'text')
    .addColumn('character_type', 'text')
    .addColumn('description', 'text')
    .addColumn('picture', 'text')
    .execute();

  // People: voice actors (with pictures) and the credited staff of `<creators>` (names only).
  await db.schema
    .createTable('anidb_creators')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('picture', 'text')
    .execute();

  await db.schema
    .createTable('anidb_anime_characters')
    .addColumn('anime_id', 'integer', (c) => c.notNull().references('anidb_anime.id').onDelete('cascade'))
    .addColumn('character_id', 'integer', (c) => c.notNull().references('anidb_characters.id'))
    .addColumn('appearance', 'text', (c) => c.notNull())
    .addColumn('ordering', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('anidb_anime_characters_pk', ['anime_id', 'character_id'])
    .execute();

  // One row per credit: `role` is the credit (`Direction`, `Music`, …) or `Seiyuu` with the character voiced.
  await addIdColumn(db.schema.createTable('anidb_anime_staff'), ctx)
    .addColumn('anime_id', 'integer', (c) => c.notNull().references('anidb_anime.id').onDelete('cascade'))
    .addColumn('creator_id', 'integer', (c) => c.notNull().references('anidb_creators.id'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('character_id', 'integer')
    .addColumn('ordering', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('anidb_anime_staff_anime').on('anidb_anime_staff').column('anime_id').execute();
  await db.schema.createIndex('anidb_anime_staff_creator').on('anidb_anime_staff').column('creator_id').execute();

  await db.schema
    .createTable('anidb_similar')
    .addColumn('anime_id', 'integer', (c) => c.notNull().references('anidb_anime.id').onDelete('cascade'))
    .addColumn('similar_anime_id', 'integer', (c) => c.notNull())
    .addColumn('approval', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    .addPrimaryKeyConstraint('anidb_similar_pk', ['anime_id', 'similar_anime_id'])
    .execute();
}
