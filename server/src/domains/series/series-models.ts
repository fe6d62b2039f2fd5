import type { Series, SeriesSizes } from '@shoko-ts/contract';
import type { Kysely, RawBuilder } from 'kysely';
import type { AccountCache } from '../../db/account-cache.js';
import type { DialectName } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { Viewer } from '../../http/viewer.js';
import { SeriesBrowseStore, type SeriesRow } from './series-browse.store.js';

/**
 * What other domains read of series: a viewer's restrictions, Series models of a page of ids, the SQL condition a list
 * of theirs adds so that a viewer sees only the series they may, and the rows and sizes group models are made of.
 * Built by the series domain over its browse store, so that no other domain holds the store itself.
 */
export interface SeriesModels {
  readonly dialect: DialectName;
  /** Who is asking: the user's restricted tags (none for user 0 / the first-run principal). */
  viewer(userId: number | null): Promise<Viewer>;
  /** Series models of these ids, in the order given, as the viewer sees them. */
  seriesModels(ids: number[], viewer: Viewer, options?: { includeAniDB?: boolean; includeTMDB?: boolean }): Promise<Series[]>;
  /** SQL condition: the series row `alias` is visible to the viewer. */
  seriesAllowed(viewer: Viewer, alias: string): RawBuilder<unknown>;
  isSeriesAllowed(viewer: Viewer, animeId: number): Promise<boolean>;
  /** Those of these series ids the viewer may see. */
  allowedSeriesIds(ids: number[], viewer: Viewer): Promise<Set<number>>;
  /** Series rows (with their AniDB anime) by id or by group. */
  seriesRows(where: { ids?: number[]; groupIds?: number[] }): Promise<SeriesRow[]>;
  /** Per-series episode and file counts for one viewer. */
  sizes(seriesIds: number[], userId: number, today: string): Promise<Map<number, SeriesSizes>>;
}

/** The series read service over the series domain's browse store (one per server: the account cache is shared). */
export function createSeriesModels(deps: { db: Kysely<Database>; dialect: DialectName; accounts: AccountCache }): SeriesModels {
  const browse = new SeriesBrowseStore(deps.db, deps.dialect, deps.accounts);
  return {
    dialect: deps.dialect,
    viewer: (userId) => browse.viewer(userId),
    seriesModels: (ids, viewer, options) => browse.seriesModels(ids, viewer, options),
    seriesAllowed: (viewer, alias) => browse.seriesAllowed(viewer, alias),
    isSeriesAllowed: (viewer, animeId) => browse.isSeriesAllowed(viewer, animeId),
    allowedSeriesIds: (ids, viewer) => browse.allowedSeriesIds(ids, viewer),
    seriesRows: (where) => browse.seriesRows(where),
    sizes: (seriesIds, userId, today) => browse.sizes(seriesIds, userId, today),
  };
}
