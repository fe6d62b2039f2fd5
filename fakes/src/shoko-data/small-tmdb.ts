import { anidbEpisodeId } from './anidb-catalog.js';
import type { AnimeSpec, TmdbSpec } from './collection.js';
import { SMALL_ANIME_IDS as A } from './small-anime.js';

/** The small folder's TMDB links: a show for the radio club series (its regular episodes linked), a movie. */
export function smallTmdb(radioClub: AnimeSpec): TmdbSpec {
  return {
    shows: [
      {
        id: 240_105,
        animeId: A.radioClub,
        title: 'Seaside High Radio Club',
        originalTitle: '潮騒高校ラジオ部',
        overview: 'A school radio club broadcasts from a lighthouse.',
        posterPath: '/sHioSaiRadioPoster01.jpg',
        logoPath: '/sHioSaiRadioLogo.png',
        seasons: [
          {
            id: 2_401_051,
            number: 1,
            title: 'Season 1',
            episodes: radioClub.episodes
              .filter((episode) => episode.type === 1)
              .map((episode) => ({
                id: 2_410_500 + episode.number,
                number: episode.number,
                title: `On Air, Part ${episode.number}`,
                overview: '',
                airDate: episode.airDate,
                runtimeMinutes: 24,
              })),
          },
        ],
        episodeLinks: radioClub.episodes
          .filter((episode) => episode.type === 1)
          .map((episode) => ({ anidbEpisodeId: episode.id, tmdbEpisodeId: 2_410_500 + episode.number, ordering: 0 })),
      },
    ],
    movies: [
      {
        id: 480_103,
        animeId: A.lunchboxMovie,
        anidbEpisodeId: anidbEpisodeId(A.lunchboxMovie, 1, 1),
        title: 'Starry Sky Lunchbox: The Movie',
        originalTitle: '星空弁当 劇場版',
        overview: 'Two friends share a lunchbox under the stars.',
        releaseDate: '2019-07-19',
        runtimeMinutes: 104,
        posterPath: '/hOsHiZoraBentouPoster.jpg',
      },
    ],
  };
}
