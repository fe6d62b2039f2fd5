import { Type } from '@sinclair/typebox';
import {
  BatchDeleteFileLocationsBody,
  DeleteFileLocationQuery,
  DeleteFileQuery,
  File,
  FILE_INCLUDE_TYPES,
  FileDetailsQuery,
  FileFlagQuery,
  FileIDParams,
  FileListQuery,
  FileLocation,
  FileLocationParams,
  FileLocationsQuery,
  FileRehashQuery,
  FileRescanQuery,
  ImportFolderFilesQuery,
  ImportFolderParams,
  ListResult,
  NullableBatchDeleteFilesBody,
  SeriesParams,
} from '@shoko-ts/contract';
import type { FastifyReply } from 'fastify';
import type { App } from '../../http/types.js';
import { sendListInSlices } from '../../http/list-in-slices.js';
import { notFound, validationError } from '../../http/problem.js';
import { enumList, FILE_DATA_SOURCES } from './file-list-params.js';
import type { FilesService } from './files.service.js';
import { registerFileLookupRoutes } from './file-lookups.routes.js';
import { registerFileStreamRoutes } from './file-stream.routes.js';

const tags = ['File'];

/** The calling user, whose file records fill the File model's user fields. */
const viewerOf = (request: { principal?: { kind: string; userId?: number } | null }) =>
  request.principal?.kind === 'user' ? request.principal.userId : undefined;

export function registerFileRoutes(
  app: App,
  deps: {
    files: FilesService;
    folderExists(id: number): Promise<boolean>;
    /** Queues rename/move jobs with the default config; a no-op unless rename or move on import is enabled. */
    queueRelocation(fileIds: number[]): Promise<number>;
  },
) {
  const { files } = deps;

  // A whole list (pageSize 0: the client suites' way to read every file) is built and sent in slices.
  const listHandler =
    (search?: string, contents?: Set<string>) =>
    async (request: { query: FileListQuery; principal?: { kind: string; userId?: number } | null }, reply: FastifyReply) => {
      const scope = { search, contents, viewerId: viewerOf(request) };
      if (request.query.pageSize !== 0) return files.listFromQuery(request.query, scope);
      return sendListInSlices(reply, await files.wholeListFromQuery(request.query, scope), File);
    };

  app.get('/api/v3/File', { schema: { tags, querystring: FileListQuery, response: { 200: ListResult(File) } } }, (request, reply) =>
    listHandler()(request, reply),
  );

  app.get(
    '/api/v3/Series/:seriesID/File',
    {
      schema: {
        tags: ['Series'],
        params: SeriesParams,
        querystring: FileListQuery,
        response: { 200: ListResult(File) },
      },
    },
    async (request, reply) =>
      listHandler(undefined, await files.contentsOfSeriesFor(viewerOf(request), request.params.seriesID))(request, reply),
  );

  app.get(
    '/api/v3/ImportFolder/:folderID/File',
    {
      schema: {
        tags: ['ImportFolder'],
        params: ImportFolderParams,
        querystring: ImportFolderFilesQuery,
        response: { 200: ListResult(File) },
      },
    },
    async (request) => {
      const q = request.query;
      if (!(await deps.folderExists(request.params.folderID))) throw notFound(`Import folder not found: ${request.params.folderID}`);
      return files.listInFolder(request.params.folderID, {
        page: q.page,
        pageSize: q.pageSize,
        folderPath: q.folderPath,
        include: enumList(q.include, FILE_INCLUDE_TYPES, 'include'),
        includeDataFrom: enumList(q.includeDataFrom, FILE_DATA_SOURCES, 'includeDataFrom'),
        viewerId: viewerOf(request),
      });
    },
  );

  app.get(
    '/api/v3/File/Search/*',
    { schema: { tags, querystring: FileListQuery, response: { 200: ListResult(File) } } },
    (request, reply) => listHandler((request.params as { '*': string })['*'] ?? '')(request, reply),
  );

  app.delete(
    '/api/v3/File',
    { config: { auth: 'admin' }, schema: { tags, body: NullableBatchDeleteFilesBody } },
    async (request, reply) => {
      const body = request.body;
      if (!body) throw validationError('Body', 'Missing Body.');
      if (!body.fileIDs.length) throw validationError('fileIds', 'Missing file ids.');
      await files.deleteFiles(body.fileIDs, {
        removeFiles: body.removeFiles ?? true,
        removeFolders: body.removeFolders ?? body.removeFolder ?? true,
      });
      return reply.send();
    },
  );

  app.delete(
    '/api/v3/File/Location',
    { config: { auth: 'admin' }, schema: { tags, body: BatchDeleteFileLocationsBody } },
    async (request, reply) => {
      const body = request.body;
      const options = { removeFiles: body.removeFiles ?? true, removeFolders: body.removeFolders ?? body.removeFolder ?? true };
      for (const id of body.locationIDs) if (id > 0) await files.deleteLocationById(id, options, true);
      return reply.send();
    },
  );

  app.get(
    '/api/v3/File/:fileID',
    {
      schema: {
        tags,
        params: FileIDParams,
        querystring: FileDetailsQuery,
        response: { 200: File },
      },
    },
    (request) =>
      files.get(
        request.params.fileID,
        enumList(request.query.include, FILE_INCLUDE_TYPES, 'include'),
        enumList(request.query.includeDataFrom, FILE_DATA_SOURCES, 'includeDataFrom'),
        viewerOf(request),
      ),
  );

  app.delete(
    '/api/v3/File/:fileID',
    {
      config: { auth: 'admin' },
      schema: {
        tags,
        params: FileIDParams,
        querystring: DeleteFileQuery,
      },
    },
    async (request, reply) => {
      await files.get(request.params.fileID, []);
      await files.deleteFiles([request.params.fileID], {
        removeFiles: request.query.removeFiles,
        removeFolders: request.query.removeFolder,
      });
      return reply.send();
    },
  );

  app.get(
    '/api/v3/File/:fileID/Location',
    {
      schema: {
        tags,
        params: FileIDParams,
        querystring: FileLocationsQuery,
        response: { 200: Type.Array(FileLocation) },
      },
    },
    async (request) => {
      const file = await files.get(request.params.fileID, request.query.includeAbsolutePaths ? ['AbsolutePaths'] : []).catch(() => {
        throw notFound('No File.Location entry for the given locationID.');
      });
      return file.Locations;
    },
  );

  app.get(
    '/api/v3/File/Location/:locationID',
    { schema: { tags, params: FileLocationParams, response: { 200: FileLocation } } },
    (request) => files.getLocation(request.params.locationID),
  );

  app.delete(
    '/api/v3/File/Location/:locationID',
    {
      config: { auth: 'admin' },
      schema: {
        tags,
        params: FileLocationParams,
        querystring: DeleteFileLocationQuery,
      },
    },
    async (request, reply) => {
      await files.deleteLocationById(request.params.locationID, {
        removeFiles: request.query.deleteFile,
        removeFolders: request.query.deleteFolder,
      });
      return reply.send();
    },
  );

  app.put('/api/v3/File/:fileID/Ignore', { schema: { tags, params: FileIDParams, querystring: FileFlagQuery } }, async (request, reply) => {
    await files.setFlag(request.params.fileID, 'is_ignored', request.query.value);
    return reply.send();
  });

  app.put(
    '/api/v3/File/:fileID/Variation',
    { schema: { tags, params: FileIDParams, querystring: FileFlagQuery } },
    async (request, reply) => {
      await files.setFlag(request.params.fileID, 'is_variation', request.query.value);
      return reply.send();
    },
  );

  app.post(
    '/api/v3/File/:fileID/Rescan',
    { schema: { tags, params: FileIDParams, querystring: FileRescanQuery } },
    async (request, reply) => {
      await files.rescan(request.params.fileID);
      return reply.send();
    },
  );

  app.post(
    '/api/v3/File/:fileID/Rehash',
    { schema: { tags, params: FileIDParams, querystring: FileRehashQuery } },
    async (request, reply) => {
      await files.rehash(request.params.fileID);
      return reply.send();
    },
  );

  // Series › File Actions (contract files.md T5–T7): admin only, 200 with no body.
  const admin = { auth: 'admin' } as const;
  app.post(
    '/api/v3/Series/:seriesID/File/Rescan',
    {
      config: admin,
      schema: { tags: ['Series'], params: SeriesParams, querystring: FileRescanQuery },
    },
    async (request, reply) => {
      await files.rescanSeries(request.params.seriesID);
      return reply.send();
    },
  );
  app.post(
    '/api/v3/Series/:seriesID/File/Rehash',
    { config: admin, schema: { tags: ['Series'], params: SeriesParams } },
    async (request, reply) => {
      await files.rehashSeries(request.params.seriesID);
      return reply.send();
    },
  );
  app.post(
    '/api/v3/Series/:seriesID/File/Relocate',
    { config: admin, schema: { tags: ['Series'], params: SeriesParams } },
    async (request, reply) => {
      await deps.queueRelocation(await files.fileIdsOfSeries(request.params.seriesID));
      return reply.send();
    },
  );

  registerFileLookupRoutes(app, files.lookups);
  registerFileStreamRoutes(app, files.streams);
}
