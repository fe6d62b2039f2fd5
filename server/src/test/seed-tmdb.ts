import { CLOCKWORK_MOVIE_ID, TIDEWATER_SHOW_ID } from '../../../fakes/src/tmdb/sample-data.js';
import type { Insertable } from 'kysely';
import type { TmdbEpisodesTable, TmdbImagesTable, TmdbMoviesTable, TmdbSeasonsTable, TmdbShowsTable } from '../db/schema.js';
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

/** Rows of `T` that name at least the columns `K`; every other column may be given and has a default otherwise. */
type Seed<T, K extends keyof Insertable<T>> = Pick<Insertable<T>, K> & Partial<Insertable<T>>;

/** The columns stored shows and movies share, with the empty values a fresh TMDB entry has. */
function titledDefaults(title: string) {
  const now = new Date().toISOString();
  return {
    original_title: title,
    original_language: 'ja',
    overview: '',
    is_restricted: 0,
    imdb_id: null,
    vote_average: 0,
    vote_count: 0,
    poster_path: null,
    backdrop_path: null,
    genres: '[]',
    keywords: '[]',
    content_ratings: '[]',
    studios: '[]',
    production_countries: '{}',
    titles: '[]',
    overviews: '[]',
    created_at: now,
    updated_at: now,
  } as const;
}

/** TMDB shows stored as the TMDB sync stores them; columns not given are empty (an ended show, nothing aired). */
export async function seedTmdbShows(server: TestServer, shows: Seed<TmdbShowsTable, 'id' | 'title'>[]): Promise<void> {
  const rows = shows.map((show) => ({
    ...titledDefaults(show.title),
    tvdb_id: null,
    status: 'Ended',
    first_aired_at: null,
    last_aired_at: null,
    preferred_ordering_id: null,
    ...show,
  }));
  await server.services.db.kysely.insertInto('tmdb_shows').values(rows).execute();
}

/** TMDB movies stored as the TMDB sync stores them; columns not given are empty. */
export async function seedTmdbMovies(server: TestServer, movies: Seed<TmdbMoviesTable, 'id' | 'title'>[]): Promise<void> {
  const rows = movies.map((movie) => ({
    ...titledDefaults(movie.title),
    collection_id: null,
    is_video: 0,
    runtime_minutes: null,
    released_at: null,
    ...movie,
  }));
  await server.services.db.kysely.insertInto('tmdb_movies').values(rows).execute();
}

/** TMDB seasons; columns not given are empty. */
export async function seedTmdbSeasons(
  server: TestServer,
  seasons: Seed<TmdbSeasonsTable, 'id' | 'show_id' | 'season_number' | 'title'>[],
): Promise<void> {
  const now = new Date().toISOString();
  const rows = seasons.map((season) => ({
    overview: '',
    poster_path: null,
    episode_count: 0,
    created_at: now,
    updated_at: now,
    ...season,
  }));
  await server.services.db.kysely.insertInto('tmdb_seasons').values(rows).execute();
}

/** TMDB episodes, 24 minutes long and titled `Episode <number>` unless given. */
export async function seedTmdbEpisodes(
  server: TestServer,
  episodes: Seed<TmdbEpisodesTable, 'id' | 'show_id' | 'season_id' | 'season_number' | 'episode_number'>[],
): Promise<void> {
  const now = new Date().toISOString();
  const rows = episodes.map((episode) => ({
    title: `Episode ${episode.episode_number}`,
    overview: '',
    aired_at: null,
    runtime_minutes: 24,
    still_path: null,
    vote_average: 0,
    vote_count: 0,
    tvdb_episode_id: null,
    titles: '[]',
    overviews: '[]',
    created_at: now,
    updated_at: now,
    ...episode,
  }));
  await server.services.db.kysely.insertInto('tmdb_episodes').values(rows).execute();
}

/** One TMDB image record, 100×150 with no language and no votes unless given; returns its id. */
export async function seedTmdbImage(
  server: TestServer,
  image: Seed<TmdbImagesTable, 'parent_type' | 'parent_id' | 'image_type' | 'file_path'>,
): Promise<number> {
  const row = await server.services.db.kysely
    .insertInto('tmdb_images')
    .values({ language: null, width: 100, height: 150, vote_average: 0, vote_count: 0, ...image })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
