import {
  DashboardAniDBCalendarQuery,
  DashboardCalendarEpisodesQuery,
  DashboardEpisodeListQuery,
  DashboardNextUpQuery,
  DashboardRecentlyAddedEpisodesQuery,
  DashboardRecentlyAddedSeriesQuery,
  DashboardTopTagsQuery,
  RecommendedForYouQuery,
} from '@shoko-ts/contract';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../http/types.js';
import { readCacheKey, type ReadCache } from '../../http/read-cache.js';
import type { DashboardService } from './dashboard.service.js';

const tags = ['Dashboard'];

/** Whose view of the collection (restrictions, watch state) applies; null for the first-run principal. */
const callerId = (request: FastifyRequest): number | null => (request.principal?.kind === 'user' ? request.principal.userId : null);

/** `GET /api/v3/Dashboard/*` (contract collection.md §10) and the recommendations the dashboard shows (§5.3). */
export function registerDashboardRoutes(app: App, deps: { dashboard: DashboardService; cache: ReadCache }) {
  // The whole-collection aggregates come from the read cache (cleared by every change).
  const { dashboard, cache } = deps;

  app.get('/api/v3/Dashboard/Stats', { schema: { tags } }, async (request) =>
    cache.get(readCacheKey(request), () => dashboard.stats(callerId(request))),
  );

  app.get('/api/v3/Dashboard/SeriesSummary', { schema: { tags } }, async (request) => dashboard.seriesSummary(callerId(request)));

  app.get(
    '/api/v3/Dashboard/RecentlyAddedEpisodes',
    { schema: { tags, querystring: DashboardRecentlyAddedEpisodesQuery } },
    async (request) => cache.get(readCacheKey(request), () => dashboard.recentlyAddedEpisodes(callerId(request), request.query)),
  );

  app.get('/api/v3/Dashboard/RecentlyAddedSeries', { schema: { tags, querystring: DashboardRecentlyAddedSeriesQuery } }, async (request) =>
    dashboard.recentlyAddedSeries(callerId(request), request.query),
  );

  app.get('/api/v3/Dashboard/ContinueWatchingEpisodes', { schema: { tags, querystring: DashboardEpisodeListQuery } }, async (request) =>
    dashboard.continueWatching(callerId(request), request.query),
  );

  app.get('/api/v3/Dashboard/NextUpEpisodes', { schema: { tags, querystring: DashboardNextUpQuery } }, async (request) =>
    dashboard.nextUp(callerId(request), request.query),
  );

  app.get('/api/v3/Dashboard/AniDBCalendar', { schema: { tags, querystring: DashboardAniDBCalendarQuery } }, async (request) =>
    dashboard.anidbCalendar(callerId(request), request.query),
  );

  app.get('/api/v3/Dashboard/CalendarEpisodes', { schema: { tags, querystring: DashboardCalendarEpisodesQuery } }, async (request) =>
    dashboard.calendarEpisodes(callerId(request), request.query),
  );

  app.get('/api/v3/Dashboard/TopTags', { schema: { tags, querystring: DashboardTopTagsQuery } }, async (request) =>
    dashboard.topTags(callerId(request), request.query),
  );

  const recommendedPath = '/api/v3/Series/AniDB/RecommendedForYou';
  // The series domain owns /Series; it may add this route itself one day, so only fill the gap.
  if (!app.hasRoute({ method: 'GET', url: recommendedPath })) {
    app.get(recommendedPath, { schema: { tags: ['Series'], querystring: RecommendedForYouQuery } }, async (request) =>
      dashboard.recommended(callerId(request), request.query),
    );
  }
}
