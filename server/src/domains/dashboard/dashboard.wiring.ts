import type { Kysely } from 'kysely';
import type { DialectName } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { SeriesModels } from '../series/index.js';
import { DashboardService } from './dashboard.service.js';
import { DashboardStore } from './dashboard.store.js';

/** Builds the dashboard's aggregates over the collection's read models (what a viewer may see of the series). */
export function createDashboardDomain(deps: {
  db: Kysely<Database>;
  dialect: DialectName;
  series: SeriesModels;
  tagAncestry: ConstructorParameters<typeof DashboardStore>[3];
}): DashboardService {
  const { series } = deps;
  const store = new DashboardStore(deps.db, series.seriesAllowed, deps.dialect, deps.tagAncestry);
  return new DashboardService(store, series);
}
