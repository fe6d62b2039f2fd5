import { Type } from '@sinclair/typebox';
import {
  DeleteImportFolderQuery,
  Drive,
  Folder,
  FolderQuery,
  ImportFolder,
  ImportFolderInput,
  ImportFolderParams,
  JsonPatchBody,
  OfflineFolderRecords,
  RemoveOfflineRecordsQuery,
} from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { validationError } from '../../http/problem.js';
import type { FolderAvailability } from './folder-availability.js';
import type { ImportFoldersService } from './import-folders.service.js';

const tags = ['ImportFolder'];

export function registerImportFolderRoutes(
  app: App,
  deps: {
    folders: ImportFoldersService;
    /** The import domain's scan queue (import reads import folders, not back). */
    importer: { queueScan(folderId: number): Promise<unknown> };
    availability: FolderAvailability;
  },
) {
  const { folders, importer, availability } = deps;

  app.get('/api/v3/ImportFolder', { schema: { tags, response: { 200: Type.Array(ImportFolder) } } }, () => folders.list());

  app.post(
    '/api/v3/ImportFolder',
    { config: { auth: 'admin' }, schema: { tags, body: ImportFolderInput, response: { 200: ImportFolder } } },
    (request) => folders.create(request.body),
  );

  app.put('/api/v3/ImportFolder', { config: { auth: 'admin' }, schema: { tags, body: ImportFolderInput } }, async (request, reply) => {
    await folders.replace(request.body);
    return reply.send();
  });

  app.get('/api/v3/ImportFolder/:folderID', { schema: { tags, params: ImportFolderParams, response: { 200: ImportFolder } } }, (request) =>
    folders.get(request.params.folderID),
  );

  app.patch(
    '/api/v3/ImportFolder/:folderID',
    {
      config: { auth: 'admin' },
      schema: { tags, params: ImportFolderParams, body: JsonPatchBody },
    },
    async (request, reply) => {
      const operations = request.body;
      if (!Array.isArray(operations)) throw validationError('Body', 'Invalid JSON Patch document.');
      const model = (await folders.asInput(request.params.folderID)) as Record<string, unknown>;
      for (const operation of operations) {
        const field = operation.path.replace(/^\//, '');
        const key = Object.keys(model).find((k) => k.toLowerCase() === field.toLowerCase());
        if (!key || key === 'ID' || !['replace', 'add'].includes(operation.op)) {
          throw validationError('ImportFolder', `The operation ${operation.op} ${operation.path} is not supported on an import folder.`);
        }
        model[key] = operation.value;
      }
      await folders.replace(model as never);
      return reply.send();
    },
  );

  app.delete(
    '/api/v3/ImportFolder/:folderID',
    {
      config: { auth: 'admin' },
      schema: {
        tags,
        params: ImportFolderParams,
        querystring: DeleteImportFolderQuery,
      },
    },
    async (request, reply) => {
      await folders.delete(request.params.folderID, { removeRecords: request.query.removeRecords });
      return reply.send();
    },
  );

  // Extension (issue 49): the records of an offline folder go only by this explicit call, after the admin confirmed the
  // count the GET reported. Remove Missing Files and scans never remove them.
  app.get(
    '/api/v3/ImportFolder/:folderID/OfflineRecords',
    { config: { auth: 'admin' }, schema: { tags, params: ImportFolderParams, response: { 200: OfflineFolderRecords } } },
    async (request) => {
      await availability.check(request.params.folderID);
      return folders.offlineRecords(request.params.folderID);
    },
  );

  app.delete(
    '/api/v3/ImportFolder/:folderID/OfflineRecords',
    {
      config: { auth: 'admin' },
      schema: {
        tags,
        params: ImportFolderParams,
        querystring: RemoveOfflineRecordsQuery,
        response: { 200: Type.Object({ Locations: Type.Integer(), Files: Type.Integer() }) },
      },
    },
    async (request) => {
      const { folderID } = request.params;
      const removed = await folders.removeOfflineRecords(folderID, request.query.locationCount, async () => {
        return (await availability.check(folderID))?.is_available === 1;
      });
      return { Locations: removed.locations, Files: removed.files };
    },
  );

  app.get('/api/v3/ImportFolder/:folderID/Scan', { schema: { tags, params: ImportFolderParams } }, async (request, reply) => {
    await importer.queueScan(request.params.folderID);
    return reply.send();
  });
}

/**
 * The server filesystem browser used to pick import folder paths. It lists folder names only, never file contents,
 * and is admin-only: in Shoko any user may browse the whole server.
 */
export function registerFolderRoutes(app: App, deps: { folders: ImportFoldersService }) {
  const { folders } = deps;
  const tags = ['Folder'];
  for (const route of ['/api/v3/Folder/Drives', '/api/v3/Folder/MountPoints']) {
    app.get(route, { config: { auth: 'admin' }, schema: { tags, response: { 200: Type.Array(Drive) } } }, () => folders.drives());
  }

  app.get(
    '/api/v3/Folder',
    { config: { auth: 'admin' }, schema: { tags, querystring: FolderQuery, response: { 200: Type.Array(Folder) } } },
    (request) => folders.childFolders(request.query.path ?? request.query.Path),
  );
}
