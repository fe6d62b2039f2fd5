import { CLOCKWORK_MOVIE_ID, TIDEWATER_SHOW_ID } from '../../../fakes/src/tmdb/sample-data.js';
import type { TestServer } from './harness.js';
import { seedAnidbAnime } from './seed-anidb.js';

/** The ids seedTmdbLinks stores: two invented AniDB anime with a series each, linked to the fake's sample entries. */
export const TMDB_LINKS = {
  movieAnime: 8301,
  movieEpisode: 830101,
  movie: CLOCKWORK_MOVIE_ID,
  showAnime: 8101,
  showEpisode: 810101,
  show: TIDEWATER_SHOW_ID,
  /** Season 1 of the show and its first episode, which the show anime's episode is linked to. */
  season: 9110001,
  episode: 9100101,
} as const;

/**
 * A movie and a show read from the TMDB fake (the server must talk to it: test/tmdb-fake-server.ts with a TMDB key set)
 * and linked as a user links them: the movie to the movie anime's episode, the show's first episode to the show
 * anime's episode. Resolves to the two series ids.
 */
export async function seedTmdbLinks(server: TestServer): Promise<{ movieSeries: number; showSeries: number }> {
  const { sync, store } = server.services.tmdb;
  const ids = TMDB_LINKS;
  const movieSeries = await seedAnidbAnime(server, {
    id: ids.movieAnime,
    type: 'Movie',
    title: 'Zenmai Kajuen: Saigo no Shuukaku',
    episodes: [{ id: ids.movieEpisode, number: 1, title: 'Complete Movie' }],
  });
  const showSeries = await seedAnidbAnime(server, {
    id: ids.showAnime,
    type: 'TV',
    title: 'Chousen no Lantern',
    episodes: [{ id: ids.showEpisode, number: 1, title: 'Episode 1' }],
  });
  const movie = await sync.refreshMovie(ids.movie, { downloadImages: false });
  const show = await sync.refreshShow(ids.show, { downloadImages: false });
  if (movie !== 'updated' || show !== 'updated') throw new Error(`TMDB refresh: movie ${movie}, show ${show}`);
  await store.linkMovie(ids.movieAnime, ids.movieEpisode, ids.movie, 'User');
  await store.overrideEpisodeLinks(
    ids.showAnime,
    [{ anidbEpisodeId: ids.showEpisode, tmdbEpisodeId: ids.episode, showId: ids.show, replace: true, index: null }],
    { unsetAll: false },
  );
  return { movieSeries: movieSeries!, showSeries: showSeries! };
}
