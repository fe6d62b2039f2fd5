import type { ImageSource, ImageType } from '../images/image-store.js';
import type { ImageModel, ImagesService } from '../images/images.service.js';
import type { SeriesImagesStore } from './series-images.store.js';

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
    private readonly store: SeriesImagesStore,
    private readonly images: Pick<ImagesService, 'model'>,
  ) {}

  async all(series: { id: number; anime_id: number }, includeDisabled: boolean): Promise<SeriesImages> {
    const result: SeriesImages = { Posters: [], Backdrops: [], Banners: [], Logos: [] };
    const found: SeriesImage[] = [];
    if (await this.store.animeHasPicture(series.anime_id)) found.push(this.images.model('AniDB', 'Poster', series.anime_id));
    const { shows, seasons, movies } = await this.store.tmdbParents(series.anime_id);
    const parents: Array<['Show' | 'Season' | 'Movie', number[]]> = [
      ['Show', shows],
      ['Season', seasons],
      ['Movie', movies],
    ];
    for (const [parentType, ids] of parents) {
      if (!ids.length) continue;
      const rows = await this.store.tmdbImages(parentType, ids);
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
    const disabled = await this.store.disabledImageKeys();
    const preferred = await this.store.preferredImageKeys(series.id);
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
    await this.store.setPreferred(series.id, type, source, id);
    return { ...image, Preferred: true };
  }

  unsetPreferred(seriesId: number, type: SeriesImageType): Promise<boolean> {
    return this.store.unsetPreferred(seriesId, type);
  }
}
