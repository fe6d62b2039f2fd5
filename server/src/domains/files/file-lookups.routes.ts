import { Type } from '@sinclair/typebox';
import {
  File,
  FILE_INCLUDE_TYPES,
  FileAniDB,
  FileAniDBParams,
  FileByAniDBQuery,
  FileEpisodesQuery,
  FileHashQuery,
  FileIDParams,
  FilePathEndsWithQuery,
  FilePathSearchQuery,
  FileRescanQuery,
  type FileIncludeType,
} from '@shoko-ts/contract';
import type { FastifyRequest } from 'fastify';
import { dataFrom } from '../../http/list-query.js';
import type { App } from '../../http/types.js';
import { emptyError } from '../../http/problem.js';
import { enumList, FILE_DATA_SOURCES } from './file-list-params.js';
import { HASH_ALGORITHMS, type FileLookups, type HashAlgorithm } from './file-lookups.js';

const tags = ['File'];

const viewerOf = (request: FastifyRequest) => (request.principal?.kind === 'user' ? request.principal.userId : undefined);

/** The rest of a catch-all path, unescaped once more (clients escape `/` and `%` in it; contract files.md F40–F42). */
function catchAll(request: FastifyRequest): string {
  const raw = (request.params as { '*'?: string })['*'] ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

const booleanIncludes = (q: { includeXRefs?: boolean; includeMediaInfo?: boolean; includeAbsolutePaths?: boolean }): FileIncludeType[] => [
  ...(q.includeXRefs ? ['XRefs' as const] : []),
  ...(q.includeMediaInfo ? ['MediaInfo' as const] : []),
  ...(q.includeAbsolutePaths ? ['AbsolutePaths' as const] : []),
];

/** Lookups of files by hash, AniDB file id, path end and path regex; a file's AniDB record, media info and episodes. */
export function registerFileLookupRoutes(app: App, lookups: FileLookups) {
  for (const algorithm of Object.keys(HASH_ALGORITHMS) as HashAlgorithm[]) {
    app.get(`/api/v3/File/Hash/${algorithm}`, { schema: { tags, querystring: FileHashQuery, response: { 200: File } } }, (request) =>
      lookups.byHash(algorithm, request.query.hash, request.query.size, {
        include: enumList(request.query.include, FILE_INCLUDE_TYPES, 'include'),
        includeDataFrom: enumList(request.query.includeDataFrom, FILE_DATA_SOURCES, 'includeDataFrom'),
        viewerId: viewerOf(request),
      }),
    );
  }

  app.get('/api/v3/File/:fileID/AniDB', { schema: { tags, params: FileIDParams, response: { 200: FileAniDB } } }, (request) =>
    lookups.anidbOfFile(request.params.fileID),
  );

  app.get('/api/v3/File/AniDB/:anidbFileID', { schema: { tags, params: FileAniDBParams, response: { 200: FileAniDB } } }, (request) =>
    lookups.anidb(request.params.anidbFileID),
  );

  app.get(
    '/api/v3/File/AniDB/:anidbFileID/File',
    { schema: { tags, params: FileAniDBParams, querystring: FileByAniDBQuery, response: { 200: File } } },
    (request) =>
      lookups.fileOfAniDB(request.params.anidbFileID, {
        include: booleanIncludes(request.query),
        includeDataFrom: enumList(request.query.includeDataFrom, FILE_DATA_SOURCES, 'includeDataFrom'),
        viewerId: viewerOf(request),
      }),
  );

  app.post(
    '/api/v3/File/AniDB/:anidbFileID/Rescan',
    { schema: { tags, params: FileAniDBParams, querystring: FileRescanQuery } },
    async (request, reply) => {
      await lookups.rescanAniDB(request.params.anidbFileID);
      return reply.send();
    },
  );

  app.get('/api/v3/File/:fileID/MediaInfo', { schema: { tags, params: FileIDParams } }, (request) =>
    lookups.mediaInfo(request.params.fileID),
  );

  app.get(
    '/api/v3/File/:fileID/Episode',
    { schema: { tags: ['File', 'Episode'], params: FileIDParams, querystring: FileEpisodesQuery } },
    (request) => {
      const userId = viewerOf(request);
      // The first-run principal has no user whose restrictions and watch states apply.
      if (userId === undefined) throw emptyError(403);
      const q = request.query;
      return lookups.episodes(request.params.fileID, userId, {
        includeFiles: q.includeFiles,
        includeXRefs: q.includeXRefs,
        ...dataFrom(q.includeDataFrom),
        files: { include: booleanIncludes(q), includeDataFrom: enumList(q.includeDataFrom, FILE_DATA_SOURCES, 'includeDataFrom') },
      });
    },
  );

  const pathEndsWith = (text: string, request: FastifyRequest, q: FilePathSearchQuery) =>
    lookups.pathEndsWith(text, {
      include: q.includeXRefs ? ['XRefs'] : [],
      includeDataFrom: enumList(q.includeDataFrom, FILE_DATA_SOURCES, 'includeDataFrom'),
      limit: q.limit,
      viewerId: viewerOf(request),
    });
  app.get(
    '/api/v3/File/PathEndsWith',
    { schema: { tags, querystring: FilePathEndsWithQuery, response: { 200: Type.Array(File) } } },
    (request) => pathEndsWith(request.query.path ?? '', request, request.query),
  );
  app.get(
    '/api/v3/File/PathEndsWith/*',
    { schema: { tags, querystring: FilePathSearchQuery, response: { 200: Type.Array(File) } } },
    (request) => pathEndsWith(catchAll(request), request, request.query),
  );

  app.get('/api/v3/File/PathRegex/*', { schema: { tags, response: { 200: Type.Array(File) } } }, (request) =>
    lookups.pathRegex(catchAll(request), 'path', viewerOf(request)),
  );
  app.get('/api/v3/File/FilenameRegex/*', { schema: { tags, response: { 200: Type.Array(File) } } }, (request) =>
    lookups.pathRegex(catchAll(request), 'name', viewerOf(request)),
  );
}
