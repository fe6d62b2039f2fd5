import { type ImageSource, type ImagesService, imageLists, mainImage, tmdbImageModel, type ListedImage } from '../images/index.js';
import type { SeriesImagesStore } from './series-images.store.js';

export type SeriesImageType = 'Poster' | 'Banner' | 'Backdrop' | 'Logo';
export type SeriesImage = ListedImage;
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
    private readonly images: Pick<ImagesService, 'model' | 'disabledKeys'>,
  ) {}

  async all(series: { id: number; anime_id: number }, includeDisabled: boolean): Promise<SeriesImages> {
    const found: SeriesImage[] = [];
    if (await this.store.animeHasPicture(series.anime_id)) found.push(this.images.model('AniDB', 'Poster', series.anime_id));
    const { shows, seasons, movies } = await this.store.tmdbParents(series.anime_id);
    const parents: Array<['Show' | 'Season' | 'Movie', number[]]> = [
      ['Show', shows],
      ['Season', seasons],
      ['Movie', movies],
    ];
    for (const [parentType, ids] of parents) {
      if (ids.length) for (const row of await this.store.tmdbImages(parentType, ids)) found.push(tmdbImageModel(this.images, row));
    }
    const { Posters, Backdrops, Banners, Logos } = imageLists(found, {
      disabled: await this.images.disabledKeys(),
      preferred: await this.store.preferredImageKeys(series.id),
      includeDisabled,
      thumbnails: false,
    });
    return { Posters, Backdrops, Banners, Logos };
  }

  /** The preferred image of a type, else the first enabled one. */
  async main(series: { id: number; anime_id: number }, type: SeriesImageType): Promise<SeriesImage | null> {
    return mainImage((await this.all(series, false))[LIST[type]]);
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
