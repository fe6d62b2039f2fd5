import { Type } from '@sinclair/typebox';
import {
  JsonPatchBody,
  RelocateBody,
  RelocateFileIdsBody,
  RelocateFlagsQuery,
  RelocateLocationParams,
  RelocateQuery,
  RelocationBatchParams,
  RelocationUndoResult,
  RelocationBatch,
  RelocationResult,
  Renamer,
  RenamerConfig,
  RenamerConfigBody,
  RenamerConfigParams,
  RenamerIDParams,
  RenamerPreviewBody,
  type JsonPatchOperation,
} from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { badRequest, validationError } from '../../http/problem.js';
import type { RenamerService } from './renamer.service.js';

const tags = ['Renamer'];
const admin = { auth: 'admin' } as const;
const Results = { 200: Type.Array(RelocationResult) };
/** Header naming the journal batch of a relocation, for `POST /api/v3/Renamer/Journal/{batchID}/Undo`. */
export const BATCH_HEADER = 'x-relocation-batch';

const requireIds = (ids: number[] | null | undefined): number[] => {
  if (!Array.isArray(ids)) throw validationError('Body', 'A JSON array of file ids is required.');
  return ids;
};

/** contract files.md §7 (RenamerController), plus the journal: list batches and undo one. */
export function registerRenamerRoutes(app: App, deps: { renamer: RenamerService }) {
  const { renamer } = deps;

  app.get('/api/v3/Renamer', { schema: { tags, response: { 200: Type.Array(Renamer) } } }, () => renamer.renamers());

  // Unknown or disabled renamers are 404 `Renamer not found` (files.md N2). `Renamer/Config` is a literal and wins.
  app.get('/api/v3/Renamer/:renamerID', { schema: { tags, params: RenamerIDParams, response: { 200: Renamer } } }, (request) =>
    renamer.renamer(request.params.renamerID),
  );

  app.get('/api/v3/Renamer/Config', { schema: { tags, response: { 200: Type.Array(RenamerConfig) } } }, () => renamer.configs());

  app.post(
    '/api/v3/Renamer/Config',
    { config: admin, schema: { tags, body: RenamerConfigBody, response: { 200: RenamerConfig } } },
    (request) => renamer.createConfig(request.body),
  );

  app.get(
    '/api/v3/Renamer/Config/:configName',
    { schema: { tags, params: RenamerConfigParams, response: { 200: RenamerConfig } } },
    (request) => renamer.config(request.params.configName),
  );

  app.get(
    '/api/v3/Renamer/Config/:configName/Renamer',
    { schema: { tags, params: RenamerConfigParams, response: { 200: Renamer } } },
    (request) => renamer.configRenamer(request.params.configName),
  );

  app.put(
    '/api/v3/Renamer/Config/:configName',
    {
      config: admin,
      schema: { tags, params: RenamerConfigParams, body: RenamerConfigBody, response: { 200: RenamerConfig } },
    },
    (request) => renamer.saveConfig(request.params.configName, request.body),
  );

  app.patch(
    '/api/v3/Renamer/Config/:configName',
    {
      config: admin,
      schema: {
        tags,
        params: RenamerConfigParams,
        body: JsonPatchBody,
        response: { 200: RenamerConfig },
      },
    },
    (request) => renamer.patchConfig(request.params.configName, request.body as JsonPatchOperation[] | null),
  );

  app.delete(
    '/api/v3/Renamer/Config/:configName',
    { config: admin, schema: { tags, params: RenamerConfigParams } },
    async (request, reply) => {
      await renamer.deleteConfig(request.params.configName);
      return reply.send();
    },
  );

  app.post(
    '/api/v3/Renamer/Preview',
    { config: admin, schema: { tags, querystring: RelocateFlagsQuery, body: RenamerPreviewBody, response: Results } },
    async (request) => {
      const body = request.body;
      if (!body) throw validationError('Body', 'A non-empty request body is required.');
      const config = body.Config
        ? renamer.adHocConfig(body.Config)
        : await renamer.defaultConfig({ config: 'Default Config not found', renamer: 'Renamer for Default Config not found' });
      return renamer.preview(body.FileIDs, config, renamer.flags(request.query));
    },
  );

  app.post(
    '/api/v3/Renamer/Config/:configName/Preview',
    {
      config: admin,
      schema: { tags, params: RenamerConfigParams, querystring: RelocateFlagsQuery, body: RelocateFileIdsBody, response: Results },
    },
    async (request) => {
      const ids = requireIds(request.body);
      const config = await renamer.savedConfig(request.params.configName, {
        config: 'Config not found',
        renamer: 'Renamer for Config not found',
      });
      return renamer.preview(ids, config, renamer.flags(request.query));
    },
  );

  app.post(
    '/api/v3/Renamer/Relocate/Location/:locationID',
    {
      config: admin,
      schema: {
        tags,
        params: RelocateLocationParams,
        body: RelocateBody,
        response: { 200: RelocationResult },
      },
    },
    (request) => renamer.relocateLocation(request.params.locationID, request.body),
  );

  app.post(
    '/api/v3/Renamer/Config/:configName/Relocate',
    {
      config: admin,
      schema: { tags, params: RenamerConfigParams, querystring: RelocateQuery, body: RelocateFileIdsBody, response: Results },
    },
    async (request, reply) => {
      const ids = requireIds(request.body);
      const config = await renamer.savedConfig(request.params.configName, { config: 'Config not found.', renamer: 'Renamer not found.' });
      const { batchId, results } = await renamer.relocate(ids, config, renamer.flags(request.query), {
        deleteEmptyDirectories: request.query.deleteEmptyDirectories,
      });
      return reply.header(BATCH_HEADER, batchId).send(results);
    },
  );

  app.post(
    '/api/v3/Renamer/Relocate',
    { config: admin, schema: { tags, querystring: RelocateQuery, body: RelocateFileIdsBody, response: Results } },
    async (request, reply) => {
      const ids = requireIds(request.body);
      const name = renamer.defaultConfigName();
      if (!name) throw badRequest('Default Config not set. Set it in Settings > Plugins > Renamer > DefaultRenamer');
      const config = await renamer.savedConfig(name, { config: 'Config not found.', renamer: 'Renamer not found.' });
      const { batchId, results } = await renamer.relocate(ids, config, renamer.flags(request.query), {
        deleteEmptyDirectories: request.query.deleteEmptyDirectories,
      });
      return reply.header(BATCH_HEADER, batchId).send(results);
    },
  );

  app.get('/api/v3/Renamer/Journal', { config: admin, schema: { tags, response: { 200: Type.Array(RelocationBatch) } } }, () =>
    renamer.batches(),
  );

  app.post(
    '/api/v3/Renamer/Journal/:batchID/Undo',
    {
      config: admin,
      schema: {
        tags,
        params: RelocationBatchParams,
        response: { 200: RelocationUndoResult },
      },
    },
    async (request) => {
      const result = await renamer.undo(request.params.batchID);
      return {
        BatchID: result.batchId,
        Restored: result.restored,
        Failed: result.failed.map((f) => ({ FileID: f.fileId, ErrorMessage: f.error })),
      };
    },
  );
}
