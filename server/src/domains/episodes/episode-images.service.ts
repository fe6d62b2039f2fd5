import {
  type ImageSource,
  type ImageType,
  type ImagesService,
  imageLists,
  listOfType,
  mainImage,
  tmdbImageModel,
  type ImageLists,
  type ListedImage,
} from '../images/index.js';
import type { EpisodeImagesStore } from './episode-images.store.js';

/** The image types an episode has lists for (`Episode/{id}/Images/{imageType}`). */
export type EpisodeImageType = 'Poster' | 'Banner' | 'Backdrop' | 'Logo' | 'Thumbnail';
export const EPISODE_IMAGE_TYPES: readonly ImageType[] = ['Poster', 'Banner', 'Backdrop', 'Logo', 'Thumbnail'];

type EpisodeRef = { id: number; anidb_episode_id: number };
const group = (links: Array<{ anidb: number; tmdb: number }>) => {
  const map = new Map<number, number[]>();
  for (const link of links) map.set(link.anidb, [...(map.get(link.anidb) ?? []), link.tmdb]);
  return map;
};

/**
 * Every image of an episode: the thumbnails of the TMDB episodes and the posters, backdrops and logos of the TMDB
 * movies linked to its AniDB episode, with the preferred choice per type (collection.md §6 Episode images).
 */
export class EpisodeImagesService {
  constructor(
    private readonly store: EpisodeImagesStore,
    private readonly images: Pick<ImagesService, 'model' | 'disabledKeys'>,
  ) {}

  /** The image lists of several episodes at once (every list of each, thumbnails included), by episode id. */
  async lists(episodes: EpisodeRef[], includeDisabled: boolean): Promise<Map<number, ImageLists>> {
    const result = new Map<number, ImageLists>();
    if (!episodes.length) return result;
    const anidbIds = [...new Set(episodes.map((e) => e.anidb_episode_id))];
    const tmdbEpisodes = group(await this.store.tmdbEpisodeLinks(anidbIds));
    const tmdbMovies = group(await this.store.tmdbMovieLinks(anidbIds));
    const byParent = async (type: 'Episode' | 'Movie', links: Map<number, number[]>) => {
      const images = new Map<number, ListedImage[]>();
      for (const row of await this.store.tmdbImages(type, [...new Set([...links.values()].flat())]))
        images.set(row.parent_id, [...(images.get(row.parent_id) ?? []), tmdbImageModel(this.images, row)]);
      return images;
    };
    const episodeImages = await byParent('Episode', tmdbEpisodes);
    const movieImages = await byParent('Movie', tmdbMovies);
    const disabled = await this.images.disabledKeys();
    const preferred = await this.store.preferredImageKeys(episodes.map((e) => e.id));
    for (const episode of episodes) {
      const found = [
        ...(tmdbEpisodes.get(episode.anidb_episode_id) ?? []).flatMap((id) => episodeImages.get(id) ?? []),
        ...(tmdbMovies.get(episode.anidb_episode_id) ?? []).flatMap((id) => movieImages.get(id) ?? []),
      ];
      result.set(
        episode.id,
        imageLists(found, { disabled, preferred: preferred.get(episode.id) ?? new Set(), includeDisabled, thumbnails: true }),
      );
    }
    return result;
  }

  /** `IDs.TMDB` of Episode models: the linked TMDB episodes, their shows and the linked TMDB movies, by AniDB episode. */
  async tmdbIds(anidbEpisodeIds: number[]): Promise<Map<number, { Episode: number[]; Movie: number[]; Show: number[] }>> {
    const result = new Map(anidbEpisodeIds.map((id) => [id, { Episode: [] as number[], Movie: [] as number[], Show: [] as number[] }]));
    const add = (list: number[], id: number) => {
      if (!list.includes(id)) list.push(id);
    };
    for (const link of await this.store.tmdbEpisodeLinks(anidbEpisodeIds)) {
      const ids = result.get(link.anidb);
      if (!ids) continue;
      add(ids.Episode, link.tmdb);
      add(ids.Show, link.show);
    }
    for (const link of await this.store.tmdbMovieLinks(anidbEpisodeIds)) {
      const ids = result.get(link.anidb);
      if (ids) add(ids.Movie, link.tmdb);
    }
    return result;
  }

  /** Episode models' `Images`: one image per list, the preferred one else the first. */
  async summaries(episodes: EpisodeRef[]): Promise<Map<number, ImageLists>> {
    const one = (list: ListedImage[] | undefined) => {
      const image = mainImage(list);
      return image ? [image] : [];
    };
    const result = new Map<number, ImageLists>();
    for (const [id, lists] of await this.lists(episodes, false))
      result.set(id, {
        Posters: one(lists.Posters),
        Backdrops: one(lists.Backdrops),
        Banners: one(lists.Banners),
        Logos: one(lists.Logos),
        Thumbnails: one(lists.Thumbnails),
      });
    return result;
  }

  async all(episode: EpisodeRef, includeDisabled: boolean): Promise<ImageLists> {
    return (await this.lists([episode], includeDisabled)).get(episode.id)!;
  }

  /** The preferred image of a type, else the first enabled one; null when there is none. */
  async main(episode: EpisodeRef, type: EpisodeImageType): Promise<ListedImage | null> {
    return mainImage((await this.all(episode, false))[listOfType(type)!]);
  }

  /** Sets the preferred image; 'unknown' when it is not one of the episode's images of that type, 'disabled' when turned off. */
  async setPreferred(
    episode: EpisodeRef,
    type: EpisodeImageType,
    source: ImageSource,
    id: number,
  ): Promise<ListedImage | 'unknown' | 'disabled'> {
    const image = (await this.all(episode, true))[listOfType(type)!]?.find((i) => i.Source === source && i.ID === id);
    if (!image) return 'unknown';
    if (image.Disabled) return 'disabled';
    await this.store.setPreferred(episode.id, type, source, id);
    return { ...image, Preferred: true };
  }

  unsetPreferred(episodeId: number, type: EpisodeImageType): Promise<boolean> {
    return this.store.unsetPreferred(episodeId, type);
  }
}
