import { Type } from '@sinclair/typebox';
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { FastifyRequest } from 'fastify';
import type { Series } from '@shoko-ts/contract';
import type { Database } from '../../db/schema.js';
import type { App } from '../../http/types.js';
import type { BrowseStore, Viewer } from '../collection/browse.store.js';
import { titleScore } from '../../providers/anidb/titles/titles-dump.js';
import { normaliseTitle } from '../../providers/tmdb/index.js';

/** Which series a utility list holds. */
export type SeriesUtilityKind = 'WithoutFiles' | 'WithManuallyLinkedFiles';

export interface SeriesUtilityQuery {
  page: number;
  pageSize: number;
  search?: string;
  fuzzy: boolean;
}

/**
 * The series lists of the Utilities pages (contract collection.md §5.1, files.md S8/S9): series without any local
 * file, and series with at least one file linked by hand. Ordered by name, or by title relevance when searching.
 */
export class SeriesUtilities {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly browse: BrowseStore,
  ) {}

  async list(kind: SeriesUtilityKind, viewer: Viewer, query: SeriesUtilityQuery): Promise<{ Total: number; List: Series[] }> {
    // A link counts only when its file exists; the episode joins the link to the series as the sizes do.
    const linkedFile = (userOnly: boolean) =>
      sql<SqlBool>`exists (select 1 from episodes e join file_episode_links l on l.episode_id = e.anidb_episode_id
        join files f on f.ed2k = l.ed2k and f.size = l.size
        where e.series_id = s.id${userOnly ? sql` and l.source = 'User'` : sql``})`;
    const rows = await this.db
      .selectFrom('series as s')
      .leftJoin('anidb_anime as a', 'a.id', 's.anime_id')
      .select(['s.id', 's.anime_id', 's.title_override', 'a.main_title'])
      .where(kind === 'WithoutFiles' ? sql<SqlBool>`not ${linkedFile(false)}` : linkedFile(true))
      .where(this.browse.seriesAllowed(viewer, 's') as RawBuilder<SqlBool>)
      .execute();
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
      List: await this.browse.seriesModels(
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
    const animeIds = [...seriesOfAnime.keys()];
    for (let i = 0; i < animeIds.length; i += 1000) {
      const titles = await this.db
        .selectFrom('anidb_anime_titles')
        .select(['anime_id', 'value'])
        .where('anime_id', 'in', animeIds.slice(i, i + 1000))
        .execute();
      for (const title of titles) bySeries.get(seriesOfAnime.get(title.anime_id)!)!.push(title.value);
    }
    for (const [id, titles] of bySeries)
      scores.set(id, Math.max(0, ...titles.map((title) => titleScore(normaliseTitle(title), needle, fuzzy))));
    return scores;
  }
}

const UtilityListQuery = Type.Object({
  pageSize: Type.Integer({ minimum: 0, maximum: 100, default: 50 }),
  page: Type.Integer({ minimum: 1, default: 1 }),
  search: Type.Optional(Type.String()),
  fuzzy: Type.Boolean({ default: true }),
});

export function registerSeriesUtilityRoutes(app: App, deps: { browse: BrowseStore; utilities: SeriesUtilities }) {
  const viewerOf = (request: FastifyRequest) => deps.browse.viewer(request.principal?.kind === 'user' ? request.principal.userId : null);
  for (const kind of ['WithoutFiles', 'WithManuallyLinkedFiles'] as const) {
    app.get(`/api/v3/Series/${kind}`, { schema: { tags: ['Series'], querystring: UtilityListQuery } }, async (request) => {
      const q = request.query;
      return deps.utilities.list(kind, await viewerOf(request), {
        page: q.page,
        pageSize: q.pageSize,
        search: q.search?.trim() || undefined,
        fuzzy: q.fuzzy,
      });
    });
  }
}
