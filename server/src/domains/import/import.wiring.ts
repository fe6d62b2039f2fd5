import type { Logger } from 'pino';
import { HashPool } from '../../media/hashing/index.js';
import { readMediaInfo } from '../../media/mediainfo/index.js';
import { FolderWatcher } from './folder-watcher.js';
import { ImportService } from './import.service.js';

type ImportDeps = ConstructorParameters<typeof ImportService>[0];

export interface ImportDomain {
  /** The hash workers (closed when the server stops). */
  hashPool: HashPool;
  importer: ImportService;
  watcher: FolderWatcher;
}

/** Builds the importer over the hash workers and MediaInfo, and the watcher of the import folders. */
export function createImportDomain(
  deps: { logger: Logger } & Pick<ImportDeps, 'folders' | 'files' | 'queue' | 'settings' | 'bus' | 'availability'>,
): ImportDomain {
  const { folders, settings, availability, logger } = deps;
  const hashPool = new HashPool();
  const importer = new ImportService({
    folders,
    files: deps.files,
    queue: deps.queue,
    settings,
    hasher: hashPool,
    media: { read: (path, options) => readMediaInfo(path, options) },
    bus: deps.bus,
    logger: logger.child({ name: 'Import' }),
    availability,
  });
  // A folder that is back is scanned (locations seen again, new files imported).
  availability.onChange(({ folder, available }) => {
    if (available)
      importer.queueScan(folder.id).catch((error) => logger.warn({ err: error }, `Could not queue the scan of ${folder.path}`));
  });
  const watcher = new FolderWatcher(folders, importer, settings, logger.child({ name: 'Watcher' }), availability);
  return { hashPool, importer, watcher };
}
