import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ImageSource, ImageType } from './image-store.js';

/** SQL about images: which TMDB images a show or movie has, which images are switched off, whose an image is. */
export class ImagesStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** The images of a TMDB show or movie, best voted first. */
  async tmdbImagesOf(parent: {
    type: 'Show' | 'Movie';
    id: number;
  }): Promise<Array<{ id: number; image_type: string; file_path: string }>> {
    return this.db
      .selectFrom('tmdb_images')
      .select(['id', 'image_type', 'file_path'])
      .where('parent_type', '=', parent.type)
      .where('parent_id', '=', parent.id)
      .orderBy('vote_average', 'desc')
      .orderBy('id')
      .execute();
  }

  async setDisabled(source: ImageSource, type: ImageType, id: number, disabled: boolean): Promise<void> {
    await this.db
      .deleteFrom('disabled_images')
      .where('source', '=', source)
      .where('image_type', '=', type)
      .where('image_id', '=', id)
      .execute();
    if (disabled) await this.db.insertInto('disabled_images').values({ source, image_type: type, image_id: id }).execute();
  }

  /** `source:type:id` of every disabled image. */
  async disabledKeys(): Promise<Set<string>> {
    const rows = await this.db.selectFrom('disabled_images').selectAll().execute();
    return new Set(rows.map((d) => `${d.source}:${d.image_type}:${d.image_id}`));
  }

  async isDisabled(source: ImageSource, type: ImageType, id: number): Promise<boolean> {
    return !!(await this.db
      .selectFrom('disabled_images')
      .select('image_id')
      .where('source', '=', source)
      .where('image_type', '=', type)
      .where('image_id', '=', id)
      .executeTakeFirst());
  }

  /** The first anime (lowest id) an AniDB character appears in. */
  async firstAnimeOfCharacter(characterId: number): Promise<number | undefined> {
    return (
      await this.db
        .selectFrom('anidb_anime_characters')
        .select('anime_id')
        .where('character_id', '=', characterId)
        .orderBy('anime_id')
        .executeTakeFirst()
    )?.anime_id;
  }

  /** The first anime (lowest id) an AniDB creator worked on. */
  async firstAnimeOfCreator(creatorId: number): Promise<number | undefined> {
    return (
      await this.db
        .selectFrom('anidb_anime_staff')
        .select('anime_id')
        .where('creator_id', '=', creatorId)
        .orderBy('anime_id')
        .executeTakeFirst()
    )?.anime_id;
  }

  /** The anime a TMDB image's show or movie is linked to (the first link found). */
  async animeOfTmdbImage(imageId: number): Promise<number | undefined> {
    const image = await this.db.selectFrom('tmdb_images').select(['parent_type', 'parent_id']).where('id', '=', imageId).executeTakeFirst();
    if (image?.parent_type === 'Show')
      return (await this.db.selectFrom('xref_anidb_tmdb_show').select('anime_id').where('show_id', '=', image.parent_id).executeTakeFirst())
        ?.anime_id;
    if (image?.parent_type === 'Movie')
      return (
        await this.db.selectFrom('xref_anidb_tmdb_movie').select('anime_id').where('movie_id', '=', image.parent_id).executeTakeFirst()
      )?.anime_id;
    return undefined;
  }

  /** The local series of an anime with its display name and whether AniDB marks it restricted. */
  async seriesOfAnime(animeId: number): Promise<{ id: number; name: string; restricted: boolean } | null> {
    const row = await this.db
      .selectFrom('series')
      .innerJoin('anidb_anime', 'anidb_anime.id', 'series.anime_id')
      .select(['series.id', 'series.title_override', 'anidb_anime.main_title', 'anidb_anime.restricted'])
      .where('series.anime_id', '=', animeId)
      .executeTakeFirst();
    return row ? { id: row.id, name: row.title_override ?? row.main_title, restricted: row.restricted === 1 } : null;
  }
}
