import { createReadStream } from 'node:fs';
import { Type } from '@sinclair/typebox';
import { Backup, BackupNameParams, BackupStatus } from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import type { BackupService } from './backup.service.js';

const tags = ['Backup'];
/**
 * Admin-only, and served while the server is not started too (a failed migration leaves it so, and a restore is how
 * an admin gets out of that).
 */
const config = { auth: 'admin', initFriendly: true } as const;

/** `/api/v3/Backup*`: our extension (Shoko has no backup routes). */
export function registerBackupRoutes(app: App, deps: { backups: BackupService }) {
  const { backups } = deps;

  app.get(
    '/api/v3/Backup',
    { config, schema: { tags, summary: 'Every backup in <home>/backups, newest first', response: { 200: Type.Array(Backup) } } },
    () => backups.list(),
  );

  app.post(
    '/api/v3/Backup',
    { config, schema: { tags, summary: 'Make a backup of the database and settings now', response: { 200: Backup } } },
    () => backups.create('Manual'),
  );

  app.get(
    '/api/v3/Backup/Status',
    {
      config,
      schema: {
        tags,
        summary: 'Whether backups work here, the schedule, and a restore waiting for the next start',
        response: { 200: BackupStatus },
      },
    },
    () => backups.status(),
  );

  app.delete(
    '/api/v3/Backup/Restore',
    { config, schema: { tags, summary: 'Cancel the restore scheduled for the next start', response: { 200: BackupStatus } } },
    () => backups.cancelRestore(),
  );

  app.get(
    '/api/v3/Backup/:name',
    { config, schema: { tags, summary: 'Download a backup (.tar.gz)', params: BackupNameParams } },
    async (request, reply) => {
      const file = await backups.file(request.params.name);
      return reply
        .header('Content-Type', 'application/gzip')
        .header('Content-Length', String(file.size))
        .header('Content-Disposition', `attachment; filename="${request.params.name}"`)
        .header('Cache-Control', 'no-store')
        .send(createReadStream(file.path));
    },
  );

  app.delete(
    '/api/v3/Backup/:name',
    { config, schema: { tags, summary: 'Delete a backup', params: BackupNameParams } },
    async (request, reply) => {
      await backups.remove(request.params.name);
      return reply.code(200).send();
    },
  );

  app.post(
    '/api/v3/Backup/:name/Restore',
    {
      config,
      schema: {
        tags,
        summary: 'Restore this backup when the server next starts (the current database is kept aside first)',
        params: BackupNameParams,
        response: { 200: BackupStatus },
      },
    },
    (request) => backups.scheduleRestore(request.params.name),
  );
}
