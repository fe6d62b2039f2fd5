import { EpisodeParams, EpisodeQuery, EpisodeSetHiddenQuery, EpisodeWatchedParams, VoteBody } from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { callerId } from '../series/series-access.js';
import type { EpisodesService } from './episodes.service.js';

/** Episode endpoints: the episode, the viewer's vote and watch state, hiding (contract §6). */
export function registerEpisodeRoutes(app: App, deps: { episodes: EpisodesService }) {
  const { episodes } = deps;

  app.post(
    '/api/v3/Episode/:episodeID/Vote',
    { schema: { tags: ['Episode'], params: EpisodeParams, body: VoteBody } },
    async (request, reply) => {
      await episodes.vote(callerId(request.principal), request.params.episodeID, request.body);
      return reply.code(204).send();
    },
  );

  app.get('/api/v3/Episode/:episodeID', { schema: { tags: ['Episode'], params: EpisodeParams, querystring: EpisodeQuery } }, (request) =>
    episodes.episode(callerId(request.principal), request.params.episodeID, request.query),
  );

  app.post(
    '/api/v3/Episode/:episodeID/Watched/:watched',
    { schema: { tags: ['Episode'], params: EpisodeWatchedParams } },
    async (request, reply) => {
      await episodes.setWatched(callerId(request.principal), request.params.episodeID, request.params.watched);
      return reply.code(200).send();
    },
  );

  app.post(
    '/api/v3/Episode/:episodeID/SetHidden',
    { config: { auth: 'admin' }, schema: { tags: ['Episode'], params: EpisodeParams, querystring: EpisodeSetHiddenQuery } },
    async (request, reply) => {
      await episodes.setHidden(callerId(request.principal), request.params.episodeID, request.query.value);
      return reply.code(200).send();
    },
  );
}
