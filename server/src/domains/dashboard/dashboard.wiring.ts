import type { Kysely } from 'kysely';
import type { DialectName } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { DashboardService } from './dashboard.service.js';
import { DashboardStore } from './dashboard.store.js';

/** Builds the dashboard's aggregates over the collection's read models (what a viewer may see of the series). */
export function createDashboardDomain(deps: {
  db: Kysely<Database>;
  dialect: DialectName;
  browse: ConstructorParameters<typeof DashboardService>[1] & { seriesAllowed: ConstructorParameters<typeof DashboardStore>[1] };
  tagAncestry: ConstructorParameters<typeof DashboardStore>[3];
}): DashboardService {
  const { browse } = deps;
  const store = new DashboardStore(deps.db, (viewer, alias) => browse.seriesAllowed(viewer, alias), deps.dialect, deps.tagAncestry);
  return new DashboardService(store, browse);
}
