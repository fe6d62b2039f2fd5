import type { Db } from '../../db/database.js';
import { ShokoImportService, type ShokoImportDeps } from './shoko-import.service.js';
import { ShokoImportStore } from './shoko-import.store.js';

/** Builds the import of a Shoko Server data folder into this server's database. */
export function createShokoImportDomain(deps: { db: Db } & Omit<ShokoImportDeps, 'store'>): ShokoImportService {
  const { db, ...rest } = deps;
  return new ShokoImportService({ store: new ShokoImportStore(db.kysely, db.dialect), ...rest });
}
