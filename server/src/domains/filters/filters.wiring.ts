import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { FiltersService } from './filters.service.js';
import { FiltersStore } from './filters.store.js';

/** Builds the filters over the collection's read models. */
export function createFiltersDomain(deps: {
  db: Kysely<Database>;
  browse: ConstructorParameters<typeof FiltersService>[0];
}): FiltersService {
  return new FiltersService(deps.browse, new FiltersStore(deps.db, deps.browse));
}
