import type { Series } from '@shoko-ts/contract';
import type { RawBuilder } from 'kysely';
import type { Viewer } from '../../http/viewer.js';
import type { SeriesBrowseStore } from './series-browse.store.js';

/**
 * What other domains read of series: a viewer's restrictions, Series models of a page of ids, and the SQL condition a
 * list of theirs adds so that a viewer sees only the series they may. Built by the series wiring over its browse store,
 * so that no other domain holds the store itself.
 */
export interface SeriesModels {
  /** Who is asking: the user's restricted tags (none for user 0 / the first-run principal). */
  viewer(userId: number | null): Promise<Viewer>;
  /** Series models of these ids, in the order given, as the viewer sees them. */
  seriesModels(ids: number[], viewer: Viewer, options?: { includeAniDB?: boolean; includeTMDB?: boolean }): Promise<Series[]>;
  /** SQL condition: the series row `alias` is visible to the viewer. */
  seriesAllowed(viewer: Viewer, alias: string): RawBuilder<unknown>;
}

export function seriesModelsOver(browse: Pick<SeriesBrowseStore, 'viewer' | 'seriesModels' | 'seriesAllowed'>): SeriesModels {
  return {
    viewer: (userId) => browse.viewer(userId),
    seriesModels: (ids, viewer, options) => browse.seriesModels(ids, viewer, options),
    seriesAllowed: (viewer, alias) => browse.seriesAllowed(viewer, alias),
  };
}
