import type { Kysely } from 'kysely';
import { addIdColumn, type MigrationContext } from './helpers.js';

/**
 * Collection browsing: saved filters (presets and their directories), each user's watch state and votes, user
 * (custom) tags, and the indexes that keep filter evaluation and group pages independent of the collection size.
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await addIdColumn(db.schema.createTable('filters'), ctx)
    .addColumn('parent_id', 'integer', (c) => c.references('filters.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('is_locked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_directory', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('apply_at_series_level', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expression', 'text')
    .addColumn('sorting', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('filters_parent').on('filters').column('parent_id').execute();

  await db.schema
    .createTable('user_episode_states')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('episode_id', 'integer', (c) => c.notNull().references('episodes.id').onDelete('cascade'))
    .addColumn('watched_at', 'text')
    .addColumn('watch_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rating', 'real')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_episode_states_pk', ['user_id', 'episode_id'])
    .execute();
  await db.schema.createIndex('user_episode_states_episode').on('user_episode_states').column('episode_id').execute();

  await db.schema
    .createTable('user_series_votes')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('series_id', 'integer', (c) => c.notNull().references('series.id').onDelete('cascade'))
    .addColumn('value', 'real', (c) => c.notNull())
    .addColumn('vote_type', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_series_votes_pk', ['user_id', 'series_id'])
    .execute();

  await addIdColumn(db.schema.createTable('custom_tags'), ctx)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .createTable('series_custom_tags')
    .addColumn('series_id', 'integer', (c) => c.notNull().references('series.id').onDelete('cascade'))
    .addColumn('tag_id', 'integer', (c) => c.notNull().references('custom_tags.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('series_custom_tags_pk', ['series_id', 'tag_id'])
    .execute();
  await db.schema.createIndex('series_custom_tags_tag').on('series_custom_tags').column('tag_id').execute();

  await db.schema.createIndex('groups_parent').on('groups').column('parent_id').execute();
  await db.schema.createIndex('anidb_anime_tags_tag').on('anidb_anime_tags').column('tag_id').execute();
  await db.schema.createIndex('file_episode_links_anime').on('file_episode_links').column('anime_id').execute();
}
