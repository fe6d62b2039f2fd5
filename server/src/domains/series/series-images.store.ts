import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ImageSource } from '../images/index.js';

/** The image sources of a series (its anime's poster, the linked TMDB shows, seasons and movies) and its preferred images. */
export class SeriesImagesStore {
  constructor(private readonly db: Kysely<Database>) {}

  async animeHasPicture(animeId: number): Promise<boolean> {
    const anime = await this.db.selectFrom('anidb_anime').select('picture').where('id', '=', animeId).executeTakeFirst();
    return !!anime?.picture;
  }

  /** The TMDB shows, their seasons and the movies linked to the anime. */
  async tmdbParents(animeId: number): Promise<{ shows: number[]; seasons: number[]; movies: number[] }> {
    const shows = (await this.db.selectFrom('xref_anidb_tmdb_show').select('show_id').where('anime_id', '=', animeId).execute()).map(
      (r) => r.show_id,
    );
    const movies = (
      await this.db.selectFrom('xref_anidb_tmdb_movie').select('movie_id').distinct().where('anime_id', '=', animeId).execute()
    ).map((r) => r.movie_id);
    const seasons = shows.length
      ? (await this.db.selectFrom('tmdb_seasons').select('id').where('show_id', 'in', shows).execute()).map((r) => r.id)
      : [];
    return { shows, seasons, movies };
  }

  /** Posters, backdrops and logos of TMDB entries of one kind, best rated first. */
  tmdbImages(parentType: 'Show' | 'Season' | 'Movie', parentIds: number[]) {
    return this.db
      .selectFrom('tmdb_images')
      .selectAll()
      .where('parent_type', '=', parentType)
      .where('parent_id', 'in', parentIds)
      .where('image_type', 'in', ['Poster', 'Backdrop', 'Logo'])
      .orderBy('vote_average', 'desc')
      .orderBy('id')
      .execute();
  }

  /** `source:type:id` of the series' preferred images. */
  async preferredImageKeys(seriesId: number): Promise<Set<string>> {
    return new Set(
      (await this.db.selectFrom('series_preferred_images').selectAll().where('series_id', '=', seriesId).execute()).map(
        (p) => `${p.source}:${p.image_type}:${p.image_id}`,
      ),
    );
  }

  async setPreferred(seriesId: number, type: string, source: ImageSource, imageId: number): Promise<void> {
    await this.db.deleteFrom('series_preferred_images').where('series_id', '=', seriesId).where('image_type', '=', type).execute();
    await this.db
      .insertInto('series_preferred_images')
      .values({ series_id: seriesId, image_type: type, source, image_id: imageId })
      .execute();
  }

  async unsetPreferred(seriesId: number, type: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('series_preferred_images')
      .where('series_id', '=', seriesId)
      .where('image_type', '=', type)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
