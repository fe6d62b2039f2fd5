import { NullableTmdbExportBody, TMDB_XREF_CSV_FILE_NAME, TmdbImportQuery } from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { validationError } from '../../http/problem.js';
import { acceptMultipart, MultipartForm } from '../webui/index.js';
import type { TmdbXrefTransfer } from './tmdb-xref-transfer.service.js';

const tags = ['TMDB'];

/** Import files: the cross-references of a very large collection fit many times over. */
export const MAX_XREF_IMPORT_BYTES = 16 * 1024 * 1024;

/**
 * `POST Tmdb/Export` (any user, as in Shoko: the links are no secret) and `POST Tmdb/Import` (admin-only here: it
 * rewrites links for everyone and queues downloads, which Shoko lets any user do).
 */
export function registerTmdbXrefTransferRoutes(app: App, deps: { transfer: TmdbXrefTransfer }) {
  const { transfer } = deps;

  app.post('/api/v3/Tmdb/Export', { schema: { tags, body: NullableTmdbExportBody } }, async (request, reply) => {
    const csv = await transfer.exportCsv(request.body);
    return reply
      .header('content-type', 'text/csv')
      .header('content-disposition', `attachment; filename=${TMDB_XREF_CSV_FILE_NAME}; filename*=UTF-8''${TMDB_XREF_CSV_FILE_NAME}`)
      .send(Buffer.from(csv, 'utf8'));
  });

  // Multipart bodies are parsed only inside this scope, so no other route accepts them.
  void app.register(async (plugin) => {
    const scope = plugin as unknown as App;
    acceptMultipart(plugin, MAX_XREF_IMPORT_BYTES + 64 * 1024);
    scope.post(
      '/api/v3/Tmdb/Import',
      { config: { auth: 'admin' }, bodyLimit: MAX_XREF_IMPORT_BYTES + 64 * 1024, schema: { tags, querystring: TmdbImportQuery } },
      async (request, reply) => {
        if (request.body === undefined || request.body === null) throw validationError('Body', 'Body cannot be empty.');
        const form = request.body instanceof MultipartForm ? request.body : null;
        if (!form) throw validationError('Body', 'Send the CSV file as multipart/form-data in the form field `file`.');
        // The field name is matched as ASP.NET binds it (any case); a part without a file name is taken too.
        const file = form.parts.find((part) => part.name.toLowerCase() === 'file');
        if (!file) {
          const other = form.parts.find((part) => part.fileName !== undefined);
          throw validationError('Body', other ? 'The CSV file must be sent in the form field `file`.' : 'Body cannot be empty.');
        }
        if (!file.data.length) throw validationError('Body', 'Body cannot be empty.');
        await transfer.importCsv(new TextDecoder('utf-8').decode(file.data), request.query);
        return reply.code(204).send();
      },
    );
  });
}
