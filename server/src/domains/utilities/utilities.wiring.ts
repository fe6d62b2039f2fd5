import type { Kysely } from 'kysely';
import type { DialectName } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { SeriesModels } from '../series/index.js';
import { SeriesUtilities } from './utilities.service.js';
import { UtilitiesStore } from './utilities.store.js';

/** Builds the Utilities pages' series lists over what the series domain lends of its models and visibility. */
export function createUtilitiesDomain(deps: { db: Kysely<Database>; dialect: DialectName; series: SeriesModels }): SeriesUtilities {
  return new SeriesUtilities(new UtilitiesStore(deps.db, deps.dialect, deps.series.seriesAllowed), deps.series);
}
