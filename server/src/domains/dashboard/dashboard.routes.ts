import {
  DashboardAniDBCalendarQuery,
  DashboardCalendarEpisodesQuery,
  DashboardEpisodeListQuery,
  DashboardNextUpQuery,
  DashboardRecentlyAddedEpisodesQuery,
  DashboardRecentlyAddedSeriesQuery,
  DashboardSummaryQuery,
  DashboardTopTagsQuery,
  File,
  ListResult,
  RecommendedForYouQuery,
} from '@shoko-ts/contract';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../http/types.js';
import type { FilesService } from '../files/index.js';
import { DashboardSummaryService } from './dashboard-summary.service.js';
import type { DashboardService } from './dashboard.service.js';

const tags = ['Dashboard'];
// Every widget is a whole-collection read: kept by the read cache until the collection or a watch state changes.
const config = { readCache: true };

/** Whose view of the collection (restrictions, watch state) applies; null for the first-run principal. */
const callerId = (request: FastifyRequest): number | null => (request.principal?.kind === 'user' ? request.principal.userId : null);

/** `GET /api/v3/Dashboard/*` (contract collection.md §10) and the recommendations the dashboard shows (§5.3). */
export function registerDashboardRoutes(app: App, deps: { dashboard: DashboardService; files: Pick<FilesService, 'listFromQuery'> }) {
  const { dashboard } = deps;
  const summary = new DashboardSummaryService(dashboard, deps.files);

  app.get('/api/v3/Dashboard/Stats', { schema: { tags }, config }, async (request) => dashboard.stats(callerId(request)));

  app.get('/api/v3/Dashboard/SeriesSummary', { schema: { tags }, config }, async (request) => dashboard.seriesSummary(callerId(request)));

  app.get(
    '/api/v3/Dashboard/RecentlyAddedEpisodes',
    { schema: { tags, querystring: DashboardRecentlyAddedEpisodesQuery }, config },
    async (request) => dashboard.recentlyAddedEpisodes(callerId(request), request.query),
  );

  app.get(
    '/api/v3/Dashboard/RecentlyAddedSeries',
    { schema: { tags, querystring: DashboardRecentlyAddedSeriesQuery }, config },
    async (request) => dashboard.recentlyAddedSeries(callerId(request), request.query),
  );

  app.get(
    '/api/v3/Dashboard/ContinueWatchingEpisodes',
    { schema: { tags, querystring: DashboardEpisodeListQuery }, config },
    async (request) => dashboard.continueWatching(callerId(request), request.query),
  );

  app.get('/api/v3/Dashboard/NextUpEpisodes', { schema: { tags, querystring: DashboardNextUpQuery }, config }, async (request) =>
    dashboard.nextUp(callerId(request), request.query),
  );

  app.get('/api/v3/Dashboard/AniDBCalendar', { schema: { tags, querystring: DashboardAniDBCalendarQuery }, config }, async (request) =>
    dashboard.anidbCalendar(callerId(request), request.query),
  );

  app.get(
    '/api/v3/Dashboard/CalendarEpisodes',
    { schema: { tags, querystring: DashboardCalendarEpisodesQuery }, config },
    async (request) => dashboard.calendarEpisodes(callerId(request), request.query),
  );

  app.get('/api/v3/Dashboard/TopTags', { schema: { tags, querystring: DashboardTopTagsQuery }, config }, async (request) =>
    dashboard.topTags(callerId(request), request.query),
  );

  // Our addition: the dashboard's widgets in one round trip. The files are serialized as `GET File` serializes them (its
  // response schema); the other keys, like their own routes, as they are.
  app.get(
    '/api/v3/Dashboard/Summary',
    {
      schema: {
        tags,
        querystring: DashboardSummaryQuery,
        response: { 200: Type.Object({ UnrecognizedFiles: Type.Optional(ListResult(File)) }, { additionalProperties: true }) },
      },
      config,
    },
    async (request) => summary.summary(callerId(request), request.query),
  );

  const recommendedPath = '/api/v3/Series/AniDB/RecommendedForYou';
  // The series domain owns /Series; it may add this route itself one day, so only fill the gap.
  if (!app.hasRoute({ method: 'GET', url: recommendedPath })) {
    app.get(recommendedPath, { schema: { tags: ['Series'], querystring: RecommendedForYouQuery }, config }, async (request) =>
      dashboard.recommended(callerId(request), request.query),
    );
  }
}
