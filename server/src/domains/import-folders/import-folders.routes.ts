import { Type } from '@sinclair/typebox';
import { ImportFolder, ImportFolderInput, JsonPatchOperation } from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { validationError } from '../../http/problem.js';
import type { ImportService } from '../import/import.service.js';
import type { ImportFoldersService } from './import-folders.service.js';

const FolderParams = Type.Object({ folderID: Type.Integer({ minimum: 1 }) });
const tags = ['ImportFolder'];

export function registerImportFolderRoutes(app: App, deps: { folders: ImportFoldersService; importer: ImportService }) {
  const { folders, importer } = deps;

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

  app.get('/api/v3/ImportFolder/:folderID', { schema: { tags, params: FolderParams, response: { 200: ImportFolder } } }, (request) =>
    folders.get(request.params.folderID),
  );

  app.patch(
    '/api/v3/ImportFolder/:folderID',
    { config: { auth: 'admin' }, schema: { tags, params: FolderParams, body: Type.Union([Type.Array(JsonPatchOperation), Type.Null()]) } },
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
        params: FolderParams,
        querystring: Type.Object({ removeRecords: Type.Boolean({ default: true }), updateMyList: Type.Boolean({ default: true }) }),
      },
    },
    async (request, reply) => {
      await folders.delete(request.params.folderID, { removeRecords: request.query.removeRecords });
      return reply.send();
    },
  );

  app.get('/api/v3/ImportFolder/:folderID/Scan', { schema: { tags, params: FolderParams } }, async (request, reply) => {
    await importer.queueScan(request.params.folderID);
    return reply.send();
  });
}
