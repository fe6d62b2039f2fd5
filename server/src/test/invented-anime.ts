import type { AnimeMetadata } from '../domains/metadata/anime.store.js';

/** Invented anime: made-up titles and ids. */
export function inventedAnime(id: number, title: string, episodeIds: number[], relations: AnimeMetadata['relations'] = []): AnimeMetadata {
  return {
    id,
    type: 'TV Series',
    mainTitle: title,
    titles: [
      { type: 'main', language: 'x-jat', value: title },
      { type: 'official', language: 'en', value: `${title} (EN)` },
    ],
    episodeCount: episodeIds.length,
    specialCount: 0,
    airDate: '2020-01-05',
    endDate: '2020-03-29',
    restricted: false,
    description: `The story of ${title}.`,
    picture: null,
    rating: 812,
    ratingVotes: 100,
    tempRating: 0,
    tempRatingVotes: 0,
    resources: [],
    tags: [
      {
        id: 900,
        parentId: null,
        name: 'invented tag',
        description: null,
        weight: 400,
        isSpoiler: false,
        isLocalSpoiler: false,
        isVerified: true,
      },
    ],
    relations,
    episodes: episodeIds.map((episodeId, i) => ({
      id: episodeId,
      type: 'Episode',
      number: i + 1,
      lengthSeconds: 1440,
      airDate: '2020-01-05',
      rating: 0,
      votes: 0,
      description: '',
      titles: [{ language: 'en', value: `Episode ${i + 1}` }],
    })),
  };
}
