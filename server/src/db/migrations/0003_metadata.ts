import type { Kysely } from 'kysely';
import { addIdColumn, type MigrationContext } from './helpers.js';

/**
 * AniDB metadata (ids are AniDB's own), what AniDB told us about files, the cross-references from file content to
 * episodes, and the local collection built from them: groups, series, episodes.
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  const bigint = ctx.dialect === 'postgres' ? 'bigint' : 'integer';

  await db.schema
    .createTable('anidb_anime')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('main_title', 'text', (c) => c.notNull())
    .addColumn('episode_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('special_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('air_date', 'text')
    .addColumn('end_date', 'text')
    .addColumn('restricted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('picture', 'text')
    .addColumn('rating', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rating_votes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('temp_rating', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('temp_rating_votes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('resources', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('fetched_at', 'text', (c) => c.notNull())
    .execute();

  await addIdColumn(db.schema.createTable('anidb_anime_titles'), ctx)
    .addColumn('anime_id', 'integer', (c) => c.notNull().references('anidb_anime.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('anidb_anime_titles_anime').on('anidb_anime_titles').column('anime_id').execute();

  await db.schema
    .createTable('anidb_episodes')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('anime_id', 'integer', (c) => c.notNull().references('anidb_anime.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('length_seconds', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('air_date', 'text')
    .addColumn('rating', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('votes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('titles', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema.createIndex('anidb_episodes_anime').on('anidb_episodes').column('anime_id').execute();

  await db.schema
    .createTable('anidb_tags')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('parent_id', 'integer')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('is_spoiler', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('anidb_anime_tags')
    .addColumn('anime_id', 'integer', (c) => c.notNull().references('anidb_anime.id').onDelete('cascade'))
    .addColumn('tag_id', 'integer', (c) => c.notNull().references('anidb_tags.id').onDelete('cascade'))
    .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_local_spoiler', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('anidb_anime_tags_pk', ['anime_id', 'tag_id'])
    .execute();

  await db.schema
    .createTable('anidb_relations')
    .addColumn('anime_id', 'integer', (c) => c.notNull().references('anidb_anime.id').onDelete('cascade'))
    .addColumn('related_anime_id', 'integer', (c) => c.notNull())
    .addColumn('relation_type', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('anidb_relations_pk', ['anime_id', 'related_anime_id'])
    .execute();

  // What AniDB said about each file content (ED2K + size); also the record of lookups that found nothing.
  await db.schema
    .createTable('anidb_files')
    .addColumn('ed2k', 'text', (c) => c.notNull())
    .addColumn('size', bigint, (c) => c.notNull())
    .addColumn('file_id', 'integer')
    .addColumn('anime_id', 'integer')
    .addColumn('group_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('source', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('is_deprecated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_censored', 'integer')
    .addColumn('is_chaptered', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('file_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('audio_languages', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('subtitle_languages', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('lookup_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('looked_up_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('anidb_files_pk', ['ed2k', 'size'])
    .execute();

  // File content ↔ AniDB episode. Source 'AniDB' from a FILE lookup, 'User' from a manual link.
  await addIdColumn(db.schema.createTable('file_episode_links'), ctx)
    .addColumn('ed2k', 'text', (c) => c.notNull())
    .addColumn('size', bigint, (c) => c.notNull())
    .addColumn('anime_id', 'integer', (c) => c.notNull())
    .addColumn('episode_id', 'integer', (c) => c.notNull())
    .addColumn('percentage', 'integer', (c) => c.notNull().defaultTo(100))
    .addColumn('ordering', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('release_group_id', 'integer')
    .execute();
  await db.schema.createIndex('file_episode_links_content').on('file_episode_links').columns(['ed2k', 'size']).execute();
  await db.schema.createIndex('file_episode_links_episode').on('file_episode_links').column('episode_id').execute();

  await addIdColumn(db.schema.createTable('groups'), ctx)
    .addColumn('parent_id', 'integer', (c) => c.references('groups.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('has_custom_name', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('has_custom_description', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('preferred_series_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await addIdColumn(db.schema.createTable('series'), ctx)
    .addColumn('anime_id', 'integer', (c) => c.notNull().unique())
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id'))
    .addColumn('title_override', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('series_group').on('series').column('group_id').execute();

  await addIdColumn(db.schema.createTable('episodes'), ctx)
    .addColumn('series_id', 'integer', (c) => c.notNull().references('series.id').onDelete('cascade'))
    .addColumn('anidb_episode_id', 'integer', (c) => c.notNull().unique())
    .addColumn('is_hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('title_override', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('episodes_series').on('episodes').column('series_id').execute();
}
