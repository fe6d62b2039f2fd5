import { Type } from '@sinclair/typebox';
import { TmdbEpisode, TmdbEpisodeCrossReference, TmdbMovie, TmdbMovieCrossReference, TmdbUnlinkMovieBody } from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { notFound } from '../../http/problem.js';
import { episodeCrossReference, movieCrossReference } from './tmdb-models.js';
import { IncludeQuery, includeSet, type TmdbRouteDeps } from './tmdb.routes.js';

const tags = ['Episode'];
const admin = { auth: 'admin' } as const;
const EpisodeParams = Type.Object({ episodeID: Type.Integer({ minimum: 1 }) });
/** `LinkCommonBody`: a movie linked to one episode. */
const LinkCommonBody = Type.Object({
  ID: Type.Integer({ minimum: 1 }),
  Replace: Type.Boolean({ default: false }),
  Refresh: Type.Boolean({ default: false }),
});

/** `Episode/{episodeID}/TMDB/*`: the TMDB movie and episode links of one Shoko episode. */
export function registerEpisodeTmdbRoutes(app: App, { service, sync, store }: TmdbRouteDeps) {
  const episodeOf = async (episodeId: number) => {
    const episode = await store.episodeForTmdb(episodeId);
    if (!episode) throw notFound('No Episode entry for the given episodeID');
    return episode;
  };
  const movieLinksOf = async (episodeId: number) => {
    const episode = await episodeOf(episodeId);
    return (await store.movieLinksOfAnime(episode.anime_id)).filter((link) => link.anidb_episode_id === episode.anidb_episode_id);
  };
  const episodeLinksOf = async (episodeId: number) => {
    const episode = await episodeOf(episodeId);
    return (await store.episodeLinksOfAnime(episode.anime_id)).filter((link) => link.anidb_episode_id === episode.anidb_episode_id);
  };

  app.get(
    '/api/v3/Episode/:episodeID/TMDB/Movie',
    { schema: { tags, params: EpisodeParams, querystring: Type.Object(IncludeQuery), response: { 200: Type.Array(TmdbMovie) } } },
    async (request) => {
      const include = includeSet(request.query.include);
      const movies: TmdbMovie[] = [];
      for (const movieId of new Set((await movieLinksOf(request.params.episodeID)).map((link) => link.movie_id))) {
        if (await store.movie(movieId)) movies.push(await service.movie(movieId, include));
      }
      return movies;
    },
  );

  app.post(
    '/api/v3/Episode/:episodeID/TMDB/Movie',
    { config: admin, schema: { tags, params: EpisodeParams, body: LinkCommonBody } },
    async (request, reply) => {
      const episode = await episodeOf(request.params.episodeID);
      const { ID, Replace, Refresh } = request.body;
      await store.linkMovie(episode.anime_id, episode.anidb_episode_id, ID, 'User', { replace: Replace });
      if (Refresh || !(await store.movie(ID))) await sync.queueMovie(ID, { force: Refresh });
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/v3/Episode/:episodeID/TMDB/Movie',
    { config: admin, schema: { tags, params: EpisodeParams, body: Type.Union([TmdbUnlinkMovieBody, Type.Null()]) } },
    async (request, reply) => {
      const episode = await episodeOf(request.params.episodeID);
      await store.unlinkMovies(episode.anime_id, { movieId: request.body?.ID || undefined, episodeId: episode.anidb_episode_id });
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/v3/Episode/:episodeID/TMDB/Movie/CrossReferences',
    { schema: { tags, params: EpisodeParams, response: { 200: Type.Array(TmdbMovieCrossReference) } } },
    async (request) => (await movieLinksOf(request.params.episodeID)).map(movieCrossReference),
  );

  app.get(
    '/api/v3/Episode/:episodeID/TMDB/Episode',
    { schema: { tags, params: EpisodeParams, querystring: Type.Object(IncludeQuery), response: { 200: Type.Array(TmdbEpisode) } } },
    async (request) =>
      service.episodesByIds((await episodeLinksOf(request.params.episodeID)).map((link) => link.tmdb_episode_id).filter((id) => id !== 0)),
  );

  app.get(
    '/api/v3/Episode/:episodeID/TMDB/Episode/CrossReferences',
    { schema: { tags, params: EpisodeParams, response: { 200: Type.Array(TmdbEpisodeCrossReference) } } },
    async (request) => (await episodeLinksOf(request.params.episodeID)).map(episodeCrossReference),
  );
}
