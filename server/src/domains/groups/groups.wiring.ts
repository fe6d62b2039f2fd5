import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
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
