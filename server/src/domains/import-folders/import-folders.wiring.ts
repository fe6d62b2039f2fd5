import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { FolderAvailability } from './folder-availability.js';
import { ImportFoldersService } from './import-folders.service.js';
import { ImportFoldersStore } from './import-folders.store.js';

type AvailabilityDeps = ConstructorParameters<typeof FolderAvailability>[0];

export interface ImportFoldersDomain {
  store: ImportFoldersStore;
  service: ImportFoldersService;
  /** The periodic check of which import folders are reachable. */
  availability: FolderAvailability;
}

/** Builds the import folders (none may lie inside the data folder) and their availability check. */
export function createImportFoldersDomain(
  deps: {
    db: Kysely<Database>;
    home: string;
    /** Tests drive the periodic check themselves. */
    availability?: Pick<AvailabilityDeps, 'timer' | 'intervalMs' | 'probe'>;
  } & Pick<AvailabilityDeps, 'bus' | 'logger'>,
): ImportFoldersDomain {
  const store = new ImportFoldersStore(deps.db);
  const service = new ImportFoldersService(store, { dataDirectory: deps.home });
  const availability = new FolderAvailability({ store, bus: deps.bus, logger: deps.logger, ...deps.availability });
  // A folder saved is looked at at once.
  service.onChange((change) => {
    if (change.kind !== 'removed') void availability.check(change.folder.id).catch(() => undefined);
  });
  return { store, service, availability };
}
