import { ShokoImportReport, ShokoImportRequest, ShokoImportStatus } from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { isAdminPrincipal } from '../../http/principal.js';
import { emptyError, problemError, validationError } from '../../http/problem.js';
import { ShokoImportRefused, ShokoSourceError, type ShokoImportService } from './shoko-import.service.js';

const tags = ['ShokoImport'];

/** A refusal names what to fix: the folder, the path map, or (409) the database that is not empty. */
function asHttpError(error: unknown): unknown {
  if (error instanceof ShokoSourceError) return validationError('Folder', error.message);
  if (error instanceof ShokoImportRefused) {
    if (/path map|absolute path|import folder/i.test(error.message)) return validationError('PathMap', error.message);
    return problemError(409, error.message);
  }
  return error;
}

/**
 * `/api/v3/ShokoImport/*`: our extension for moving from Shoko Server. Dry run and start belong to the first run (the
 * first-run principal exists only while the install has no accounts); the status is open during the first run and for
 * a quarter of an hour after an import completed (the wizard shows its report while the server starts and before its
 * user could log in with an imported account), and to admins afterwards.
 */
export function registerShokoImportRoutes(
  app: App,
  deps: { shokoImport: ShokoImportService; isStarted: () => boolean; startServer: () => void },
) {
  const { shokoImport } = deps;

  app.post(
    '/api/v3/ShokoImport/DryRun',
    {
      config: { auth: 'init', initFriendly: true },
      schema: {
        tags,
        summary: 'What importing this Shoko Server data folder would bring over, without writing anything',
        body: ShokoImportRequest,
        response: { 200: ShokoImportReport },
      },
    },
    async (request) => {
      try {
        return await shokoImport.dryRun(request.body);
      } catch (error) {
        throw asHttpError(error);
      }
    },
  );

  app.post(
    '/api/v3/ShokoImport/Start',
    {
      config: { auth: 'init', initFriendly: true },
      schema: {
        tags,
        summary:
          'Import a Shoko Server data folder into this empty server; progress in Status and on the hub. The server starts when it is done.',
        body: ShokoImportRequest,
        response: { 202: ShokoImportStatus },
      },
    },
    async (request, reply) => {
      try {
        await shokoImport.start(request.body, () => {
          if (!deps.isStarted()) deps.startServer();
        });
      } catch (error) {
        throw asHttpError(error);
      }
      return reply.code(202).send(shokoImport.status());
    },
  );

  app.get(
    '/api/v3/ShokoImport/Status',
    {
      config: { auth: 'none', initFriendly: true },
      schema: { tags, summary: 'The running or last import and its report', response: { 200: ShokoImportStatus } },
    },
    async (request) => {
      const open = !deps.isStarted() || shokoImport.justCompleted();
      if (!open && !isAdminPrincipal(request.principal)) throw emptyError(request.principal ? 403 : 401);
      return shokoImport.status();
    },
  );
}
