import path from 'node:path';
import type { Db } from '../../db/database.js';
import { BackupService } from './backup.service.js';
import { BackupStore } from './backup.store.js';

type BackupDeps = ConstructorParameters<typeof BackupService>[0];

/** Builds the backups of the database and settings, kept under `<home>/backups`. */
export function createBackupDomain(deps: { db: Db; home: string } & Pick<BackupDeps, 'settings' | 'schedule' | 'logger'>): BackupService {
  return new BackupService({
    store: new BackupStore(deps.db, path.join(deps.home, 'backups')),
    dialect: deps.db.dialect,
    settings: deps.settings,
    schedule: deps.schedule,
    logger: deps.logger,
  });
}
