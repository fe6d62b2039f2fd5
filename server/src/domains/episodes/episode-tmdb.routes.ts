import { Type } from '@sinclair/typebox';
import {
  EpisodeLinkTmdbMovieBody,
  EpisodeParams,
  TmdbEpisode,
  TmdbEpisodeCrossReference,
  TmdbIncludeQuery,
  TmdbMovie,
  TmdbMovieCrossReference,
  NullableTmdbUnlinkMovieBody,
} from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { type TmdbLinking, includeSet, type TmdbService } from '../tmdb/index.js';

const tags = ['Episode'];
const admin = { auth: 'admin' } as const;

/** `Episode/{episodeID}/TMDB/*`: the TMDB movie and episode links of one Shoko episode, served by the TMDB domain's services. */
export function registerEpisodeTmdbRoutes(app: App, deps: { tmdb: TmdbService; linking: TmdbLinking }) {
  const { tmdb, linking } = deps;

  app.get(
    '/api/v3/Episode/:episodeID/TMDB/Movie',
    { schema: { tags, params: EpisodeParams, querystring: TmdbIncludeQuery, response: { 200: Type.Array(TmdbMovie) } } },
    (request) => tmdb.moviesOfEpisode(request.params.episodeID, includeSet(request.query.include)),
  );

  app.post(
    '/api/v3/Episode/:episodeID/TMDB/Movie',
    { config: admin, schema: { tags, params: EpisodeParams, body: EpisodeLinkTmdbMovieBody } },
    async (request, reply) => {
      const episode = await tmdb.episodeRef(request.params.episodeID);
      await linking.linkMovie(episode.anime_id, episode.anidb_episode_id, request.body);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/v3/Episode/:episodeID/TMDB/Movie',
    { config: admin, schema: { tags, params: EpisodeParams, body: NullableTmdbUnlinkMovieBody } },
    async (request, reply) => {
      const episode = await tmdb.episodeRef(request.params.episodeID);
      await linking.unlinkMovies(episode.anime_id, { movieId: request.body?.ID || undefined, episodeId: episode.anidb_episode_id });
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/v3/Episode/:episodeID/TMDB/Movie/CrossReferences',
    { schema: { tags, params: EpisodeParams, response: { 200: Type.Array(TmdbMovieCrossReference) } } },
    (request) => tmdb.movieLinksOfShokoEpisode(request.params.episodeID),
  );

  app.get(
    '/api/v3/Episode/:episodeID/TMDB/Episode',
    { schema: { tags, params: EpisodeParams, querystring: TmdbIncludeQuery, response: { 200: Type.Array(TmdbEpisode) } } },
    (request) => tmdb.tmdbEpisodesOfEpisode(request.params.episodeID),
  );

  app.get(
    '/api/v3/Episode/:episodeID/TMDB/Episode/CrossReferences',
    { schema: { tags, params: EpisodeParams, response: { 200: Type.Array(TmdbEpisodeCrossReference) } } },
    (request) => tmdb.episodeLinksOfShokoEpisode(request.params.episodeID),
  );
}
