/**
 * DESIGN — utilities domain: the series lists only the Utilities pages use, series without any local file and series
 * with files linked by hand (contract collection.md §5.1, files.md S8/S9). Routes: utilities.routes.ts
 * (`Series/WithoutFiles`, `Series/WithManuallyLinkedFiles`); SQL: utilities.store.ts. Series models and the viewer's
 * tag restrictions come from the series domain's SeriesModels; the manual links themselves are the metadata domain's.
 */
import type { Series } from '@shoko-ts/contract';
import type { SeriesModels } from '../series/index.js';
import { titleScore } from '../../providers/anidb/titles/titles-dump.js';
import { normaliseTitle } from '../../providers/tmdb/index.js';
import type { SeriesUtilityKind, UtilitiesStore } from './utilities.store.js';

export type { SeriesUtilityKind } from './utilities.store.js';

export interface SeriesUtilityQuery {
  page: number;
  pageSize: number;
  search?: string;
  fuzzy: boolean;
}

/** A utility list ordered by name, or by title relevance when searching, one page at a time. */
export class SeriesUtilities {
  constructor(
    private readonly store: UtilitiesStore,
    private readonly series: Pick<SeriesModels, 'viewer' | 'seriesModels'>,
  ) {}

  async list(kind: SeriesUtilityKind, userId: number | null, query: SeriesUtilityQuery): Promise<{ Total: number; List: Series[] }> {
    const viewer = await this.series.viewer(userId);
    const rows = await this.store.seriesOfList(kind, viewer);
    const named = rows.map((row) => ({ id: row.id, animeId: row.anime_id, name: row.title_override ?? row.main_title ?? '' }));
    const byName = (a: { name: string; id: number }, b: { name: string; id: number }) =>
      a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id - b.id;

    let ordered: typeof named;
    const needle = query.search ? normaliseTitle(query.search) : '';
    if (needle) {
      const scores = await this.titleScores(named, needle, query.fuzzy);
      ordered = named.filter((s) => (scores.get(s.id) ?? 0) > 0).sort((a, b) => scores.get(b.id)! - scores.get(a.id)! || byName(a, b));
    } else {
      ordered = named.sort(byName);
    }
    const page = query.pageSize === 0 ? ordered : ordered.slice((query.page - 1) * query.pageSize, query.page * query.pageSize);
    return {
      Total: ordered.length,
      List: await this.series.seriesModels(
        page.map((s) => s.id),
        viewer,
      ),
    };
  }

  /** Best score of each series over its AniDB titles and its own name. */
  private async titleScores(
    series: Array<{ id: number; animeId: number; name: string }>,
    needle: string,
    fuzzy: boolean,
  ): Promise<Map<number, number>> {
    const scores = new Map<number, number>();
    const bySeries = new Map<number, string[]>(series.map((s) => [s.id, [s.name]]));
    const seriesOfAnime = new Map(series.map((s) => [s.animeId, s.id]));
    for (const title of await this.store.animeTitles([...seriesOfAnime.keys()])) {
      bySeries.get(seriesOfAnime.get(title.anime_id)!)!.push(title.value);
    }
    for (const [id, titles] of bySeries)
      scores.set(id, Math.max(0, ...titles.map((title) => titleScore(normaliseTitle(title), needle, fuzzy))));
    return scores;
  }
}
