import type { Kysely } from 'kysely';
import { addIdColumn, type MigrationContext } from './helpers.js';

/**
 * TMDB metadata (ids are TMDB's own): shows with their seasons and episodes, alternate orderings (episode groups) with
 * each episode's place in them, movies, cast and crew, image metadata; and the cross-references from AniDB anime and
 * episodes to TMDB shows, movies and episodes. List-like details (genres, keywords, studios, titles…) are JSON text.
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  const real = ctx.dialect === 'postgres' ? 'double precision' : 'real';

  await db.schema
    .createTable('tmdb_shows')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('original_title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('original_language', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('overview', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_restricted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tvdb_id', 'integer')
    .addColumn('imdb_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('vote_average', real, (c) => c.notNull().defaultTo(0))
    .addColumn('vote_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('first_aired_at', 'text')
    .addColumn('last_aired_at', 'text')
    .addColumn('poster_path', 'text')
    .addColumn('backdrop_path', 'text')
    .addColumn('genres', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('keywords', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('content_ratings', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('studios', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('production_countries', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('titles', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('overviews', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('preferred_ordering_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('tmdb_seasons')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('show_id', 'integer', (c) => c.notNull().references('tmdb_shows.id').onDelete('cascade'))
    .addColumn('season_number', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('overview', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('poster_path', 'text')
    .addColumn('episode_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tmdb_seasons_show').on('tmdb_seasons').column('show_id').execute();

  await db.schema
    .createTable('tmdb_episodes')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('show_id', 'integer', (c) => c.notNull().references('tmdb_shows.id').onDelete('cascade'))
    .addColumn('season_id', 'integer', (c) => c.notNull())
    .addColumn('season_number', 'integer', (c) => c.notNull())
    .addColumn('episode_number', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('overview', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('aired_at', 'text')
    .addColumn('runtime_minutes', 'integer')
    .addColumn('still_path', 'text')
    .addColumn('vote_average', real, (c) => c.notNull().defaultTo(0))
    .addColumn('vote_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tvdb_episode_id', 'integer')
    .addColumn('titles', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('overviews', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tmdb_episodes_show').on('tmdb_episodes').columns(['show_id', 'season_number', 'episode_number']).execute();

  // Alternate orderings: TMDB's episode groups. `type` is TMDB's 1–7 number.
  await db.schema
    .createTable('tmdb_orderings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('show_id', 'integer', (c) => c.notNull().references('tmdb_shows.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('episode_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('season_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tmdb_orderings_show').on('tmdb_orderings').column('show_id').execute();

  // One row per episode per ordering: the group it sits in (its "season") and its 1-based position there.
  await db.schema
    .createTable('tmdb_ordering_episodes')
    .addColumn('ordering_id', 'text', (c) => c.notNull().references('tmdb_orderings.id').onDelete('cascade'))
    .addColumn('episode_id', 'integer', (c) => c.notNull())
    .addColumn('show_id', 'integer', (c) => c.notNull())
    .addColumn('season_id', 'text', (c) => c.notNull())
    .addColumn('season_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('season_number', 'integer', (c) => c.notNull())
    .addColumn('episode_number', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('tmdb_ordering_episodes_pk', ['ordering_id', 'episode_id'])
    .execute();

  await db.schema
    .createTable('tmdb_movies')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('collection_id', 'integer')
    .addColumn('imdb_id', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('original_title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('original_language', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('overview', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_restricted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_video', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('runtime_minutes', 'integer')
    .addColumn('vote_average', real, (c) => c.notNull().defaultTo(0))
    .addColumn('vote_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('released_at', 'text')
    .addColumn('poster_path', 'text')
    .addColumn('backdrop_path', 'text')
    .addColumn('genres', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('keywords', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('content_ratings', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('studios', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('production_countries', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('titles', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('overviews', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  // Cast and crew of a show or movie (`parent_type` 'Show' | 'Movie'); `kind` 'Cast' | 'Crew'.
  await db.schema
    .createTable('tmdb_credits')
    .addColumn('parent_type', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'integer', (c) => c.notNull())
    .addColumn('credit_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('person_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('character_name', 'text')
    .addColumn('department', 'text')
    .addColumn('job', 'text')
    .addColumn('ordering', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('profile_path', 'text')
    .addPrimaryKeyConstraint('tmdb_credits_pk', ['parent_type', 'parent_id', 'credit_id'])
    .execute();

  // What TMDB offers as images for a show, season, episode or movie; the image store downloads them.
  await addIdColumn(db.schema.createTable('tmdb_images'), ctx)
    .addColumn('parent_type', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'integer', (c) => c.notNull())
    .addColumn('image_type', 'text', (c) => c.notNull())
    .addColumn('file_path', 'text', (c) => c.notNull())
    .addColumn('language', 'text')
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('vote_average', real, (c) => c.notNull().defaultTo(0))
    .addColumn('vote_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('tmdb_images_parent').on('tmdb_images').columns(['parent_type', 'parent_id']).execute();
  await db.schema
    .createIndex('tmdb_images_unique')
    .on('tmdb_images')
    .columns(['parent_type', 'parent_id', 'image_type', 'file_path'])
    .unique()
    .execute();

  // Cross-references. `source` 'Automatic' | 'User'.
  await db.schema
    .createTable('xref_anidb_tmdb_show')
    .addColumn('anime_id', 'integer', (c) => c.notNull())
    .addColumn('show_id', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('xref_anidb_tmdb_show_pk', ['anime_id', 'show_id'])
    .execute();
  await db.schema.createIndex('xref_anidb_tmdb_show_show').on('xref_anidb_tmdb_show').column('show_id').execute();

  await db.schema
    .createTable('xref_anidb_tmdb_movie')
    .addColumn('anime_id', 'integer', (c) => c.notNull())
    .addColumn('anidb_episode_id', 'integer', (c) => c.notNull())
    .addColumn('movie_id', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('xref_anidb_tmdb_movie_pk', ['anidb_episode_id', 'movie_id'])
    .execute();
  await db.schema.createIndex('xref_anidb_tmdb_movie_anime').on('xref_anidb_tmdb_movie').column('anime_id').execute();

  // AniDB episode ↔ TMDB episode; tmdb_episode_id 0 = explicitly "no link". `ordering` is the contract's Index.
  await addIdColumn(db.schema.createTable('xref_anidb_tmdb_episode'), ctx)
    .addColumn('anime_id', 'integer', (c) => c.notNull())
    .addColumn('anidb_episode_id', 'integer', (c) => c.notNull())
    .addColumn('show_id', 'integer', (c) => c.notNull())
    .addColumn('tmdb_episode_id', 'integer', (c) => c.notNull())
    .addColumn('ordering', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rating', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('xref_anidb_tmdb_episode_anime').on('xref_anidb_tmdb_episode').column('anime_id').execute();
  await db.schema
    .createIndex('xref_anidb_tmdb_episode_pair')
    .on('xref_anidb_tmdb_episode')
    .columns(['anidb_episode_id', 'tmdb_episode_id'])
    .unique()
    .execute();
}
