import { createReadStream } from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FileIDParams, FileStreamFilenameParams, FileStreamQuery } from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { sendText } from '../../http/reply.js';
import { emptyError } from '../../http/problem.js';
import { publicBaseUrl } from '../../http/base-path.js';
import {
  attachmentHeader,
  contentTypeOf,
  entityTagOf,
  ifRangeMatches,
  notModified,
  parseRange,
  type FileStreams,
  type ServedFile,
} from './file-stream.js';

const tags = ['File'];

/**
 * Answers a GET or HEAD for a file's bytes: validators, one byte range (206), 416 for a range past the end, 304 for
 * a matching If-None-Match / If-Modified-Since, and the body streamed from disk (never buffered). `onEnd` runs once
 * the last byte of the file has been read.
 */
function sendFile(request: FastifyRequest, reply: FastifyReply, file: ServedFile, onEnd?: () => void) {
  const { stat } = file;
  const size = stat.size;
  reply.header('Accept-Ranges', 'bytes');
  reply.header('ETag', entityTagOf(stat));
  reply.header('Last-Modified', new Date(Math.floor(stat.mtimeMs / 1000) * 1000).toUTCString());
  reply.header('Content-Disposition', attachmentHeader(file.name));
  if (notModified(request.headers as Record<string, string | undefined>, stat)) return reply.code(304).send();

  const ifRange = [request.headers['if-range']].flat()[0];
  const range =
    ifRange !== undefined && !ifRangeMatches(ifRange, stat) ? { kind: 'full' as const } : parseRange(request.headers.range, size);
  if (range.kind === 'unsatisfiable') {
    reply.header('Content-Range', `bytes */${size}`);
    return reply.code(416).send();
  }
  const start = range.kind === 'partial' ? range.start : 0;
  const end = range.kind === 'partial' ? range.end : size - 1;
  reply.type(contentTypeOf(file.name));
  reply.header('Content-Length', String(Math.max(0, end - start + 1)));
  if (range.kind === 'partial') reply.code(206).header('Content-Range', `bytes ${start}-${end}/${size}`);
  if (request.method === 'HEAD' || size === 0) return reply.send();
  const stream = createReadStream(file.realPath, { start, end });
  if (onEnd && end === size - 1) stream.once('end', onEnd);
  return reply.send(stream);
}

/** The user a key names (streams need one, from the `apikey` header or query parameter). */
const userOf = (request: FastifyRequest) => (request.principal?.kind === 'user' ? request.principal.userId : undefined);

/** Routes that also take a signed playback token instead of a key: the handler checks with `requireKeyOrToken`. */
const keyOrToken = { auth: 'none' as const };

/**
 * Streaming routes (contract files.md F18–F21). Shoko lets anyone stream; here they need an API key like every other
 * route, and players that cannot set headers pass it as `?apikey=`.
 */
export function registerFileStreamRoutes(app: App, streams: FileStreams) {
  /**
   * A `<video>` element cannot send the key header: a playback token for this file (issue 43) stands in for it. No key
   * and no token is 401 as everywhere; a token that is forged, expired or for another file is 403, and so is one whose
   * user was deleted or may no longer see the file.
   */
  const requireKeyOrToken = async (request: FastifyRequest, fileId: number): Promise<number | undefined> => {
    if (request.principal) return userOf(request);
    const token = (request.query as Record<string, unknown> | undefined)?.token;
    if (typeof token !== 'string' || !token) throw emptyError(401);
    const userId = (await streams.tokenUser?.(token, fileId)) ?? null;
    if (userId === null) throw emptyError(403);
    return userId;
  };
  const scrobbleAtEnd = (request: FastifyRequest, fileId: number, enabled: boolean, userId = userOf(request)) => {
    const mark = streams.markWatched;
    if (!enabled || userId === undefined || !mark) return undefined;
    return () => {
      mark(userId, fileId).catch((error: unknown) => request.log.warn({ err: error }, 'Marking a streamed file watched failed'));
    };
  };

  app.route({
    method: ['GET', 'HEAD'],
    url: '/api/v3/File/:fileID/Stream',
    config: keyOrToken,
    schema: { tags, params: FileIDParams, querystring: FileStreamQuery },
    handler: async (request, reply) => {
      const { fileID } = request.params;
      const userId = await requireKeyOrToken(request, fileID);
      const file = await streams.video(fileID);
      return sendFile(request, reply, file, scrobbleAtEnd(request, fileID, request.query.streamPositionScrobbling, userId));
    },
  });

  app.route({
    method: ['GET', 'HEAD'],
    url: '/api/v3/File/:fileID/StreamDirectory/:filename',
    schema: { tags, params: FileStreamFilenameParams, querystring: FileStreamQuery },
    handler: async (request, reply) => {
      const { fileID, filename } = request.params;
      const file = await streams.video(fileID, filename);
      return sendFile(request, reply, file, scrobbleAtEnd(request, fileID, request.query.streamPositionScrobbling));
    },
  });

  app.get('/api/v3/File/:fileID/StreamDirectory/', { schema: { tags, params: FileIDParams } }, async (request, reply) => {
    const { fileID } = request.params;
    const key = (request.query as Record<string, unknown> | undefined)?.apikey;
    const keySuffix = typeof key === 'string' && key ? `?apikey=${encodeURIComponent(key)}` : '';
    const base = `${publicBaseUrl(request)}/api/v3/File/${fileID}/StreamDirectory/ExternalSub/`;
    return sendText(reply, await streams.subtitleListing(fileID, (name) => `${base}${encodeURIComponent(name)}${keySuffix}`));
  });

  app.route({
    method: ['GET', 'HEAD'],
    url: '/api/v3/File/:fileID/StreamDirectory/ExternalSub/:filename',
    config: keyOrToken,
    schema: { tags, params: FileStreamFilenameParams },
    handler: async (request, reply) => {
      await requireKeyOrToken(request, request.params.fileID);
      return sendFile(request, reply, await streams.sibling(request.params.fileID, request.params.filename));
    },
  });
}
