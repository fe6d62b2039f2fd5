import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { SeriesModels } from '../series/index.js';
import { BrowseStore } from './browse.store.js';
import { GroupsService } from './groups.service.js';
import { GroupsStore } from './groups.store.js';

type GroupsParameters = ConstructorParameters<typeof GroupsService>;

/** Builds the groups over the collection's read models, with the filters and tag ancestry they answer with. */
export function createGroupsDomain(deps: {
  db: Kysely<Database>;
  browse: GroupsParameters[0];
  filters: GroupsParameters[2];
  bus: GroupsParameters[3];
  tagAncestry: GroupsParameters[4];
}): GroupsService {
  return new GroupsService(deps.browse, new GroupsStore(deps.db), deps.filters, deps.bus, deps.tagAncestry);
}

/** The collection's read models (group trees over the series' models), which the filters and the groups both read. */
export function createCollectionBrowse(deps: { db: Kysely<Database>; series: SeriesModels }): BrowseStore {
  return new BrowseStore(deps.db, deps.series);
}
