import type { Kysely } from 'kysely';
import type { DialectName } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { ReleaseManagementService } from './release-management.service.js';
import { ReleaseManagementStore } from './release-management.store.js';

type ReleaseManagementDeps = ConstructorParameters<typeof ReleaseManagementService>[0];

/** Builds multiple releases, duplicate files and missing episodes over the collection's read models. */
export function createReleaseManagementDomain(
  deps: { db: Kysely<Database>; dialect: DialectName } & Omit<ReleaseManagementDeps, 'store'>,
): ReleaseManagementService {
  const { db, dialect, ...rest } = deps;
  return new ReleaseManagementService({ store: new ReleaseManagementStore(db, dialect), ...rest });
}
