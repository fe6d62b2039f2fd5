import { AVDumpUpdateQuery, DumpFilesBody, FileIDParams, FileAVDumpQuery } from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { notFound, validationError } from '../../http/problem.js';
import type { AVDumpService } from './avdump.service.js';

/** AVDumpController (files.md §9) and `POST File/{id}/AVDump` (F30). */
export function registerAVDumpRoutes(app: App, avdump: AVDumpService) {
  app.get('/api/v3/AVDump/Status', { schema: { tags: ['AVDump'] } }, () => avdump.status());

  // Installing AVDump means downloading it from AniDB; this server only uses one the owner installed, so nothing changes.
  app.post(
    '/api/v3/AVDump/Update',
    { config: { auth: 'admin' }, schema: { tags: ['AVDump'], querystring: AVDumpUpdateQuery } },
    () => false,
  );

  app.post('/api/v3/AVDump/DumpFiles', { schema: { tags: ['AVDump'], body: DumpFilesBody } }, async (request, reply) => {
    const ids = [...new Set(request.body.FileIDs)];
    if (!ids.length) throw validationError('FileIDs', 'Provide at least one file id.');
    await avdump.validate(ids, {
      unknown: (id) => ['FileIDs', `No file with id ${id}`],
      noPath: (id) => ['FileIDs', `Unable to find a valid path for file with id ${id}`],
    });
    await avdump.queue(ids);
    return reply.send();
  });

  app.post(
    '/api/v3/File/:fileID/AVDump',
    {
      schema: {
        tags: ['File'],
        params: FileIDParams,
        querystring: FileAVDumpQuery,
      },
    },
    async (request, reply) => {
      const id = request.params.fileID;
      if (!(await avdump.fileExists(id))) throw notFound('No File entry for the given fileID');
      await avdump.validate([id], {
        unknown: () => ['File', 'No File entry for the given fileID'],
        noPath: () => ['File', 'Unable to resolve file location.'],
      });
      if (request.query.immediate) await avdump.dump([id]);
      else await avdump.queue([id]);
      return reply.send();
    },
  );
}
