import {
  EpisodeParams,
  EpisodeQuery,
  EpisodeSetHiddenQuery,
  EpisodeWatchedParams,
  File,
  FileListQuery,
  ListResult,
  VoteBody,
} from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import type { FilesService } from '../files/files.service.js';
import { callerId } from '../series/series-access.js';
import type { EpisodesService } from './episodes.service.js';

/** Episode endpoints: the episode, the viewer's vote and watch state, hiding, its files (contract §6). */
export function registerEpisodeRoutes(app: App, deps: { episodes: EpisodesService; files: FilesService }) {
  const { episodes, files } = deps;

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

  // The File list of the files domain, narrowed to the episode's files (404 when there is no such episode).
  app.get(
    '/api/v3/Episode/:episodeID/File',
    { schema: { tags: ['Episode'], params: EpisodeParams, querystring: FileListQuery, response: { 200: ListResult(File) } } },
    async (request) =>
      files.listFromQuery(request.query, {
        contents: await files.contentsOf('episode', request.params.episodeID),
        viewerId: callerId(request.principal) ?? undefined,
      }),
  );
}
