import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { EventBus } from '../../events/bus.js';
import { announceRelocation } from './relocation-events.js';
import { RenamerService } from './renamer.service.js';
import { RenamerStore } from './renamer.store.js';

type RenamerDeps = ConstructorParameters<typeof RenamerService>[0];

/** Builds the renamer (configs, previews, journaled relocations) and announces each relocation on the bus. */
export function createRenamerDomain(
  deps: { db: Kysely<Database>; bus: EventBus } & Pick<RenamerDeps, 'settings' | 'folders' | 'logger' | 'jobs'>,
): RenamerService {
  const renamer = new RenamerService({
    store: new RenamerStore(deps.db),
    settings: deps.settings,
    folders: deps.folders,
    logger: deps.logger,
    jobs: deps.jobs,
  });
  renamer.onRelocated = (file) => announceRelocation(deps.bus, file);
  return renamer;
}
