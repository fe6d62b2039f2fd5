import {
  FileIDParams,
  PlaybackFontParams,
  PlaybackInfo,
  PlaybackSession,
  PlaybackSessionFileParams,
  PlaybackSessionParams,
  PlaybackSessionRequest,
  PlaybackSubtitleParams,
} from '@shoko-ts/contract';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../http/types.js';
import { emptyError } from '../../http/problem.js';
import type { PlaybackService } from './playback.service.js';

const tags = ['Playback'];
/** Media routes take no API key: the signed `token` carries the user's authority (checked by the service). */
const byToken = { auth: 'none' as const };
const byKey = { auth: 'user' as const };
const TokenQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 1024 })) });

const userOf = (request: FastifyRequest) => {
  const principal = request.principal;
  if (principal?.kind !== 'user') throw emptyError(403);
  return principal;
};

/** Watching in the browser (issue 43): playback facts, HLS sessions and their media, subtitles and fonts. */
export function registerPlaybackRoutes(app: App, playback: PlaybackService) {
  app.get('/api/v3/File/:fileID/Playback', { schema: { tags, params: FileIDParams, response: { 200: PlaybackInfo } } }, async (request) =>
    playback.info(userOf(request).userId, request.params.fileID, request.publicPrefix),
  );

  app.post(
    '/api/v3/Playback/Session',
    { config: byKey, schema: { tags, body: PlaybackSessionRequest, response: { 200: PlaybackSession } } },
    async (request) => playback.createSession(userOf(request).userId, request.body, request.publicPrefix),
  );

  app.get(
    '/api/v3/Playback/Session/:sessionID/:name',
    { config: byToken, schema: { tags, params: PlaybackSessionFileParams, querystring: TokenQuery } },
    async (request, reply) => {
      const file = await playback.sessionFile(request.query.token, request.params.sessionID, request.params.name);
      return reply.header('Cache-Control', 'no-store').type(file.type).send(file.body);
    },
  );

  // The player's own calls on its session: the token authorises them and they answer 204 with no body.
  const sessionAction = (action: string, run: (token: string | undefined, sessionID: string) => Promise<void>) =>
    app.post(
      `/api/v3/Playback/Session/:sessionID/${action}`,
      { config: byToken, schema: { tags, params: PlaybackSessionParams, querystring: TokenQuery } },
      async (request, reply) => {
        await run(request.query.token, request.params.sessionID);
        return reply.code(204).send();
      },
    );

  sessionAction('Stop', (token, sessionID) => playback.stopWithToken(token, sessionID));
  // A paused player calls this (every 20-30 s) so the silence timeout does not end its session.
  sessionAction('KeepAlive', (token, sessionID) => playback.keepAlive(token, sessionID));

  app.delete(
    '/api/v3/Playback/Session/:sessionID',
    { config: byKey, schema: { tags, params: PlaybackSessionParams } },
    async (request, reply) => {
      const user = userOf(request);
      await playback.stop(user.userId, user.isAdmin, request.params.sessionID);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/v3/Playback/File/:fileID/Subtitle/:subtitleID',
    { config: byToken, schema: { tags, params: PlaybackSubtitleParams, querystring: TokenQuery } },
    async (request, reply) => {
      const subtitle = await playback.subtitle(request.query.token, request.params.fileID, request.params.subtitleID);
      return reply.header('Cache-Control', 'private, max-age=3600').type(subtitle.type).send(subtitle.text);
    },
  );

  app.get(
    '/api/v3/Playback/File/:fileID/Font/:index',
    { config: byToken, schema: { tags, params: PlaybackFontParams, querystring: TokenQuery } },
    async (request, reply) => {
      const font = await playback.font(request.query.token, request.params.fileID, request.params.index);
      return reply.header('Cache-Control', 'private, max-age=86400').type(font.type).send(font.body);
    },
  );
}
