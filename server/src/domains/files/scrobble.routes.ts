import type { FastifyRequest } from 'fastify';
import {
  FileIDParams,
  FileScrobbleQuery,
  FileUserStats,
  FileUserStatsInput,
  FileWatchedParams,
  JsonPatchBody,
  JsonPatchOperation,
} from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { textError } from '../../http/problem.js';
import type { ScrobbleService } from './scrobble.service.js';

const tags = ['File'];

function userOf(request: FastifyRequest): number {
  if (request.principal?.kind !== 'user') throw textError(403, 'Watch state needs a user.');
  return request.principal.userId;
}

/**
 * A user's playback record of a file (contract files.md F23–F27). Scrobbling is a write that players send as
 * GET too, so each handler clears the read cache itself (the cache only clears after non-GET requests on its own).
 */
export function registerScrobbleRoutes(app: App, deps: { scrobble: ScrobbleService; changed(): void }) {
  const { scrobble, changed } = deps;

  for (const method of ['GET', 'PATCH'] as const) {
    app.route({
      method,
      url: '/api/v3/File/:fileID/Scrobble',
      schema: { tags, params: FileIDParams, querystring: FileScrobbleQuery },
      handler: async (request, reply) => {
        const { event, watched, resumePosition } = request.query;
        const message = await scrobble.scrobble(userOf(request), request.params.fileID, { event, watched, resumePosition });
        changed();
        return reply.code(202).type('text/plain; charset=utf-8').send(message);
      },
    });
  }

  app.post('/api/v3/File/:fileID/Watched/:watched?', { schema: { tags, params: FileWatchedParams } }, async (request, reply) => {
    await scrobble.setWatched(userOf(request), request.params.fileID, request.params.watched);
    changed();
    return reply.code(200).send();
  });

  app.get('/api/v3/File/:fileID/UserStats', { schema: { tags, params: FileIDParams, response: { 200: FileUserStats } } }, async (request) =>
    scrobble.userStats(userOf(request), request.params.fileID),
  );

  app.put(
    '/api/v3/File/:fileID/UserStats',
    { schema: { tags, params: FileIDParams, body: FileUserStatsInput, response: { 200: FileUserStats } } },
    async (request) => {
      const stats = await scrobble.replaceUserStats(userOf(request), request.params.fileID, request.body);
      changed();
      return stats;
    },
  );

  app.patch(
    '/api/v3/File/:fileID/UserStats',
    {
      schema: {
        tags,
        params: FileIDParams,
        body: JsonPatchBody,
        response: { 200: FileUserStats },
      },
    },
    async (request) => {
      const stats = await scrobble.patchUserStats(userOf(request), request.params.fileID, request.body as JsonPatchOperation[] | null);
      changed();
      return stats;
    },
  );
}
