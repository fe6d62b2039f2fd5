import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../http/types.js';
import { validationError } from '../../http/problem.js';
import type { BrowseStore, Viewer } from '../collection/browse.store.js';
import { readCacheKey, type ReadCache } from '../../http/read-cache.js';
import { TagFilterBits } from '../series/tags.store.js';
import type { DashboardStore, IncludeOnly } from './dashboard.store.js';

const tags = ['Dashboard'];
const IncludeOnlyParam = Type.Optional(Type.String());
const paged = (maxPageSize: number, defaultPageSize: number, minPage = 1) => ({
  pageSize: Type.Integer({ minimum: 0, maximum: maxPageSize, default: defaultPageSize }),
  page: Type.Integer({ minimum: minPage, default: minPage }),
  includeRestricted: IncludeOnlyParam,
});
const EpisodeListQuery = Type.Object({
  ...paged(100, 20, 0),
  includeSpecials: Type.Boolean({ default: true }),
  includeOthers: Type.Boolean({ default: false }),
});

/** IncludeOnlyFilter (`true`, `false`, `only`, any casing); anything else is a 400 naming the parameter. */
function includeOnly(value: string | undefined, field: string): IncludeOnly {
  if (value === undefined || value === '') return 'false';
  const lower = value.toLowerCase();
  if (lower === 'true' || lower === 'false' || lower === 'only') return lower;
  throw validationError(field, `The value '${value}' is not valid for ${field}; use true, false or only.`);
}

const todayUtc = () => new Date().toISOString().slice(0, 10);
const DateOnly = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

/** TagFilter.Filter: a number or flag names joined with commas; the default drops AniDB-internal, misc and source tags. */
function tagFilterValue(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return TagFilterBits.AnidbInternal + TagFilterBits.Misc + TagFilterBits.Source;
  let value = 0;
  for (const item of raw.split(',').map((part) => part.trim())) {
    const flag = Object.entries(TagFilterBits).find(([name]) => name.toLowerCase() === item.toLowerCase());
    if (/^\d+$/.test(item)) value += Number(item);
    else if (flag) value += flag[1];
    else throw validationError('filter', `The value '${item}' is not a tag filter flag.`);
  }
  return value;
}

/** `GET /api/v3/Dashboard/*` (contract collection.md §10) and the recommendations the dashboard shows (§5.3). */
export function registerDashboardRoutes(app: App, deps: { dashboard: DashboardStore; browse: BrowseStore; cache: ReadCache }) {
  const { dashboard, browse } = deps;
  const viewerOf = (request: FastifyRequest): Promise<Viewer> =>
    browse.viewer(request.principal?.kind === 'user' ? request.principal.userId : null);
  // The whole-collection aggregates come from the read cache (cleared by every change).
  const { cache } = deps;

  app.get('/api/v3/Dashboard/Stats', { schema: { tags } }, async (request) => {
    const viewer = await viewerOf(request);
    return cache.get(readCacheKey(request), () => dashboard.stats(viewer, todayUtc()));
  });

  app.get('/api/v3/Dashboard/SeriesSummary', { schema: { tags } }, async (request) => dashboard.seriesSummary(await viewerOf(request)));

  app.get('/api/v3/Dashboard/RecentlyAddedEpisodes', { schema: { tags, querystring: Type.Object(paged(1000, 30)) } }, async (request) => {
    const { page, pageSize, includeRestricted } = request.query;
    const viewer = await viewerOf(request);
    const restricted = includeOnly(includeRestricted, 'includeRestricted');
    return cache.get(readCacheKey(request), () => dashboard.recentlyAddedEpisodes(viewer, { page, pageSize }, restricted));
  });

  app.get('/api/v3/Dashboard/RecentlyAddedSeries', { schema: { tags, querystring: Type.Object(paged(1000, 20)) } }, async (request) => {
    const { page, pageSize, includeRestricted } = request.query;
    const viewer = await viewerOf(request);
    const { Total, ids } = await dashboard.recentlyAddedSeriesIds(
      viewer,
      { page, pageSize },
      includeOnly(includeRestricted, 'includeRestricted'),
    );
    return { Total, List: await browse.seriesModels(ids, viewer) };
  });

  const episodeListOptions = (query: { includeSpecials: boolean; includeOthers: boolean; includeRestricted?: string }) => ({
    includeSpecials: query.includeSpecials,
    includeOthers: query.includeOthers,
    restricted: includeOnly(query.includeRestricted, 'includeRestricted'),
  });

  // Built from the resume positions players report through File/{id}/Scrobble.
  app.get('/api/v3/Dashboard/ContinueWatchingEpisodes', { schema: { tags, querystring: EpisodeListQuery } }, async (request) => {
    const { page, pageSize } = request.query;
    return dashboard.continueWatching(await viewerOf(request), { page: Math.max(page, 1), pageSize }, episodeListOptions(request.query));
  });

  app.get(
    '/api/v3/Dashboard/NextUpEpisodes',
    {
      schema: {
        tags,
        querystring: Type.Object({
          ...EpisodeListQuery.properties,
          onlyUnwatched: Type.Boolean({ default: true }),
          includeMissing: Type.Boolean({ default: false }),
          includeRewatching: Type.Boolean({ default: false }),
        }),
      },
    },
    async (request) => {
      const query = request.query;
      return dashboard.nextUp(
        await viewerOf(request),
        { page: Math.max(query.page, 1), pageSize: query.pageSize },
        {
          ...episodeListOptions(query),
          includeMissing: query.includeMissing,
          onlyUnwatched: query.onlyUnwatched,
        },
      );
    },
  );

  app.get(
    '/api/v3/Dashboard/AniDBCalendar',
    {
      schema: {
        tags,
        querystring: Type.Object({
          numberOfDays: Type.Integer({ minimum: 0, maximum: 3650, default: 7 }),
          showAll: Type.Boolean({ default: false }),
          includeRestricted: Type.Boolean({ default: false }),
        }),
      },
    },
    async (request) => {
      const { numberOfDays, showAll, includeRestricted } = request.query;
      const from = todayUtc();
      const to = new Date(Date.parse(`${from}T00:00:00Z`) + numberOfDays * 86_400_000).toISOString().slice(0, 10);
      return dashboard.calendar(await viewerOf(request), { from, to }, showAll ? 'true' : 'false', includeRestricted ? 'true' : 'false');
    },
  );

  app.get(
    '/api/v3/Dashboard/CalendarEpisodes',
    {
      schema: {
        tags,
        querystring: Type.Object({
          startDate: DateOnly,
          endDate: DateOnly,
          includeMissing: IncludeOnlyParam,
          includeRestricted: IncludeOnlyParam,
        }),
      },
    },
    async (request) => {
      const { startDate, endDate, includeMissing, includeRestricted } = request.query;
      for (const [field, value] of [
        ['startDate', startDate],
        ['endDate', endDate],
      ] as const)
        if (Number.isNaN(Date.parse(`${value}T00:00:00Z`))) throw validationError(field, `The value '${value}' is not a valid date.`);
      if (startDate > endDate) throw validationError('startDate', 'Start date cannot be after the end date.');
      return dashboard.calendar(
        await viewerOf(request),
        { from: startDate, to: endDate },
        includeOnly(includeMissing, 'includeMissing'),
        includeOnly(includeRestricted, 'includeRestricted'),
      );
    },
  );

  app.get(
    '/api/v3/Dashboard/TopTags',
    {
      schema: {
        tags,
        querystring: Type.Object({
          pageSize: Type.Integer({ minimum: 0, maximum: 100, default: 10 }),
          page: Type.Integer({ minimum: 1, default: 1 }),
          filter: Type.Optional(Type.String()),
        }),
      },
    },
    async (request) => {
      const { page, pageSize, filter } = request.query;
      return dashboard.topTags(await viewerOf(request), { page, pageSize }, tagFilterValue(filter));
    },
  );

  const RecommendedQuery = Type.Object({
    ...paged(100, 30),
    showAll: Type.Boolean({ default: false }),
    startDate: Type.Optional(Type.String({ format: 'date-time' })),
    endDate: Type.Optional(Type.String({ format: 'date-time' })),
    approval: Type.Number({ minimum: 0, maximum: 1, default: 0 }),
  });
  const recommendedPath = '/api/v3/Series/AniDB/RecommendedForYou';
  // The collection domain owns /Series; it may add this route itself one day, so only fill the gap.
  if (!app.hasRoute({ method: 'GET', url: recommendedPath })) {
    app.get(recommendedPath, { schema: { tags: ['Series'], querystring: RecommendedQuery } }, async (request) => {
      const { page, pageSize, showAll, startDate, endDate, approval, includeRestricted } = request.query;
      if (endDate && !startDate) throw validationError('startDate', 'Missing start date.');
      if (endDate && Date.parse(endDate) > Date.now()) throw validationError('endDate', 'End date cannot be set into the future.');
      if (startDate && endDate && Date.parse(startDate) > Date.parse(endDate))
        throw validationError('startDate', 'Start date cannot be newer than the end date.');
      return dashboard.recommended(
        await viewerOf(request),
        { page, pageSize },
        {
          showAll,
          restricted: includeOnly(includeRestricted, 'includeRestricted'),
          start: startDate ? new Date(startDate).toISOString() : null,
          end: endDate ? new Date(endDate).toISOString() : null,
          approval,
        },
      );
    });
  }
}
