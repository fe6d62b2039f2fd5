import type { ImageType } from './image-store.js';
import type { ImageModel, ImagesService } from './images.service.js';

/**
 * The image lists an entity's `/Images` routes answer (collection.md §1 Images): every image of the entity, flagged
 * Preferred / Disabled, by type; and the choice of one image per type (the preferred one, else the first).
 */

export type ListedImage = ImageModel & {
  CommunityRating?: { Value: number; MaxValue: number; Source: string; Votes: number; Type: string };
};

export interface ImageLists {
  Posters: ListedImage[];
  Backdrops: ListedImage[];
  Banners: ListedImage[];
  Logos: ListedImage[];
  /** Episode image sets only. */
  Thumbnails?: ListedImage[];
}

const LIST_OF: Partial<Record<ImageType, keyof ImageLists>> = {
  Poster: 'Posters',
  Backdrop: 'Backdrops',
  Banner: 'Banners',
  Logo: 'Logos',
  Thumbnail: 'Thumbnails',
};

/** The list an image type goes to. */
export const listOfType = (type: ImageType): keyof ImageLists | undefined => LIST_OF[type];

/** `source:type:id`, the key of disabled and preferred images. */
export const imageKey = (image: Pick<ImageModel, 'Source' | 'Type' | 'ID'>) => `${image.Source}:${image.Type}:${image.ID}`;

/** A `tmdb_images` row as an Image, with its language, size and TMDB rating. */
export function tmdbImageModel(
  images: Pick<ImagesService, 'model'>,
  row: {
    id: number;
    image_type: string;
    language: string | null;
    width: number | null;
    height: number | null;
    vote_average: number;
    vote_count: number;
  },
): ListedImage {
  return {
    ...images.model('TMDB', row.image_type as ImageType, row.id),
    LanguageCode: row.language,
    Width: row.width,
    Height: row.height,
    CommunityRating: { Value: row.vote_average, MaxValue: 10, Source: 'TMDB', Votes: row.vote_count, Type: 'User' },
  };
}

/** Flags the images (first of each key wins) as disabled / preferred and sorts them into lists; disabled ones only on request. */
export function imageLists(
  found: ListedImage[],
  options: { disabled: Set<string>; preferred: Set<string>; includeDisabled: boolean; thumbnails: boolean },
): ImageLists {
  const lists: ImageLists = { Posters: [], Backdrops: [], Banners: [], Logos: [], ...(options.thumbnails ? { Thumbnails: [] } : {}) };
  const seen = new Set<string>();
  for (const image of found) {
    const key = imageKey(image);
    if (seen.has(key)) continue;
    seen.add(key);
    const flagged = { ...image, Disabled: options.disabled.has(key), Preferred: options.preferred.has(key) };
    if (flagged.Disabled && !options.includeDisabled) continue;
    const list = listOfType(flagged.Type);
    if (list) lists[list]?.push(flagged);
  }
  return lists;
}

/** The preferred image of a list, else its first; null when empty. */
export const mainImage = (list: ListedImage[] | undefined): ListedImage | null => list?.find((i) => i.Preferred) ?? list?.[0] ?? null;
