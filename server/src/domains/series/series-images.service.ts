import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ImageSource, ImageType } from '../images/image-store.js';
import type { ImageModel, ImagesService } from '../images/images.service.js';

export type SeriesImageType = 'Poster' | 'Banner' | 'Backdrop' | 'Logo';
export type SeriesImage = ImageModel & {
  CommunityRating?: { Value: number; MaxValue: number; Source: string; Votes: number; Type: string };
};
export interface SeriesImages {
  Posters: SeriesImage[];
  Backdrops: SeriesImage[];
  Banners: SeriesImage[];
  Logos: SeriesImage[];
}

const LIST: Record<SeriesImageType, keyof SeriesImages> = { Poster: 'Posters', Backdrop: 'Backdrops', Banner: 'Banners', Logo: 'Logos' };

/** Every image of a series (AniDB poster, TMDB images of linked shows, their seasons and linked movies) and the preferred choice per type. */
export class SeriesImagesService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly images: Pick<ImagesService, 'model'>,
  ) {}

  async all(series: { id: number; anime_id: number }, includeDisabled: boolean): Promise<SeriesImages> {
    const result: SeriesImages = { Posters: [], Backdrops: [], Banners: [], Logos: [] };
    const anime = await this.db.selectFrom('anidb_anime').select('picture').where('id', '=', series.anime_id).executeTakeFirst();
    const found: SeriesImage[] = [];
    if (anime?.picture) found.push(this.images.model('AniDB', 'Poster', series.anime_id));
    const shows = (
      await this.db.selectFrom('xref_anidb_tmdb_show').select('show_id').where('anime_id', '=', series.anime_id).execute()
    ).map((r) => r.show_id);
    const movies = (
      await this.db.selectFrom('xref_anidb_tmdb_movie').select('movie_id').distinct().where('anime_id', '=', series.anime_id).execute()
    ).map((r) => r.movie_id);
    const seasons = shows.length
      ? (await this.db.selectFrom('tmdb_seasons').select('id').where('show_id', 'in', shows).execute()).map((r) => r.id)
      : [];
    const parents: Array<['Show' | 'Season' | 'Movie', number[]]> = [
      ['Show', shows],
      ['Season', seasons],
      ['Movie', movies],
    ];
    for (const [parentType, ids] of parents) {
      if (!ids.length) continue;
      const rows = await this.db
        .selectFrom('tmdb_images')
        .selectAll()
        .where('parent_type', '=', parentType)
        .where('parent_id', 'in', ids)
        .where('image_type', 'in', ['Poster', 'Backdrop', 'Logo'])
        .orderBy('vote_average', 'desc')
        .orderBy('id')
        .execute();
      for (const row of rows) {
        if (found.some((f) => f.Source === 'TMDB' && f.ID === row.id)) continue;
        found.push({
          ...this.images.model('TMDB', row.image_type as ImageType, row.id),
          LanguageCode: row.language,
          Width: row.width,
          Height: row.height,
          CommunityRating: { Value: row.vote_average, MaxValue: 10, Source: 'TMDB', Votes: row.vote_count, Type: 'User' },
        });
      }
    }
    const disabled = new Set(
      (await this.db.selectFrom('disabled_images').selectAll().execute()).map((d) => `${d.source}:${d.image_type}:${d.image_id}`),
    );
    const preferred = new Set(
      (await this.db.selectFrom('series_preferred_images').selectAll().where('series_id', '=', series.id).execute()).map(
        (p) => `${p.source}:${p.image_type}:${p.image_id}`,
      ),
    );
    for (const image of found) {
      const id = `${image.Source}:${image.Type}:${image.ID}`;
      image.Disabled = disabled.has(id);
      image.Preferred = preferred.has(id);
      if (image.Disabled && !includeDisabled) continue;
      const list = LIST[image.Type as SeriesImageType];
      if (list) result[list].push(image);
    }
    return result;
  }

  /** The preferred image of a type, else the first enabled one. */
  async main(series: { id: number; anime_id: number }, type: SeriesImageType): Promise<SeriesImage | null> {
    const list = (await this.all(series, false))[LIST[type]];
    return list.find((i) => i.Preferred) ?? list[0] ?? null;
  }

  /** Sets the preferred image; 'unknown' when the image is not one of the series' images of that type, 'disabled' when turned off. */
  async setPreferred(
    series: { id: number; anime_id: number },
    type: SeriesImageType,
    source: ImageSource,
    id: number,
  ): Promise<SeriesImage | 'unknown' | 'disabled'> {
    const image = (await this.all(series, true))[LIST[type]].find((i) => i.Source === source && i.ID === id);
    if (!image) return 'unknown';
    if (image.Disabled) return 'disabled';
    await this.db.deleteFrom('series_preferred_images').where('series_id', '=', series.id).where('image_type', '=', type).execute();
    await this.db.insertInto('series_preferred_images').values({ series_id: series.id, image_type: type, source, image_id: id }).execute();
    return { ...image, Preferred: true };
  }

  async unsetPreferred(seriesId: number, type: SeriesImageType): Promise<boolean> {
    const result = await this.db
      .deleteFrom('series_preferred_images')
      .where('series_id', '=', seriesId)
      .where('image_type', '=', type)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
