import { SeriesUtilityListQuery } from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import type { SeriesUtilities } from './utilities.service.js';

/**
 * `Series/WithoutFiles` and `Series/WithManuallyLinkedFiles`: series paths, but lists that only the Utilities pages
 * use, so they live here rather than in the series domain.
 */
export function registerSeriesUtilityRoutes(app: App, deps: { utilities: SeriesUtilities }) {
  for (const kind of ['WithoutFiles', 'WithManuallyLinkedFiles'] as const) {
    app.get(`/api/v3/Series/${kind}`, { schema: { tags: ['Series'], querystring: SeriesUtilityListQuery } }, async (request) => {
      const q = request.query;
      return deps.utilities.list(kind, request.principal?.kind === 'user' ? request.principal.userId : null, {
        page: q.page,
        pageSize: q.pageSize,
        search: q.search?.trim() || undefined,
        fuzzy: q.fuzzy,
      });
    });
  }
}
