import { queryOptions, useQuery, type FetchQueryOptions, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type {
  AnidbAnimeRecommendedForYou,
  DashboardAniDBCalendarQuery,
  DashboardCollectionStats,
  DashboardEpisode,
  DashboardEpisodeListQuery,
  DashboardNextUpQuery,
  DashboardRecentlyAddedEpisodesQuery,
  DashboardRecentlyAddedSeriesQuery,
  DashboardSeriesSummary,
  DashboardSummary,
  DashboardSummaryQuery,
  DashboardSummaryWidget,
  File,
  ListResult,
  QueueItem,
  QueueItemsQuery,
  RecommendedForYouQuery,
  Series,
} from '@shoko-ts/contract';
import { api, partOf, type Query } from './client';
import { PREFETCHED_FRESH_MS } from './fresh';
import { fileKeys } from './keys';
import { queueKeys } from './queue';

/** Dashboard lists show 20 entries (SPEC.md §9); the queue panel up to 100 items. */
export const DASHBOARD_PAGE_SIZE = 20;
export const QUEUE_PAGE_SIZE = 100;

export const dashboardKeys = {
  all: ['dashboard'] as const,
  stats: ['dashboard', 'stats'] as const,
  summary: ['dashboard', 'series-summary'] as const,
  recentEpisodes: (pageSize: number, restricted: boolean) => ['dashboard', 'recent-episodes', { pageSize, restricted }] as const,
  recentSeries: (pageSize: number, restricted: boolean) => ['dashboard', 'recent-series', { pageSize, restricted }] as const,
  continueWatching: (restricted: boolean) => ['dashboard', 'continue-watching', { restricted }] as const,
  nextUp: (onlyUnwatched: boolean, restricted: boolean) => ['dashboard', 'next-up', { onlyUnwatched, restricted }] as const,
  calendar: (showAll: boolean, restricted: boolean) => ['dashboard', 'calendar', { showAll, restricted }] as const,
  recommended: (restricted: boolean) => ['dashboard', 'recommended', { restricted }] as const,
};

type Options = { enabled?: boolean; includeRestricted: boolean };
/** The dashboard lists take `includeRestricted` as an IncludeOnlyFilter (`true`, `false` or `only`). */
const includeOnly = (include: boolean) => String(include);

const statsQuery = () =>
  queryOptions({
    queryKey: dashboardKeys.stats,
    staleTime: PREFETCHED_FRESH_MS,
    queryFn: ({ signal }) => api.get<DashboardCollectionStats>('Dashboard/Stats', { signal }),
  });

const summaryQuery = () =>
  queryOptions({
    queryKey: dashboardKeys.summary,
    staleTime: PREFETCHED_FRESH_MS,
    queryFn: ({ signal }) => api.get<DashboardSeriesSummary>('Dashboard/SeriesSummary', { signal }),
  });

const recentEpisodesQuery = (pageSize: number, includeRestricted: boolean) =>
  queryOptions({
    queryKey: dashboardKeys.recentEpisodes(pageSize, includeRestricted),
    staleTime: PREFETCHED_FRESH_MS,
    queryFn: ({ signal }) =>
      api.get<ListResult<DashboardEpisode>>('Dashboard/RecentlyAddedEpisodes', {
        query: { pageSize, includeRestricted: includeOnly(includeRestricted) } satisfies Partial<DashboardRecentlyAddedEpisodesQuery>,
        signal,
      }),
  });

const recentSeriesQuery = (pageSize: number, includeRestricted: boolean) =>
  queryOptions({
    queryKey: dashboardKeys.recentSeries(pageSize, includeRestricted),
    staleTime: PREFETCHED_FRESH_MS,
    queryFn: ({ signal }) =>
      api.get<ListResult<Series>>('Dashboard/RecentlyAddedSeries', {
        query: { pageSize, includeRestricted: includeOnly(includeRestricted) } satisfies Partial<DashboardRecentlyAddedSeriesQuery>,
        signal,
      }),
  });

const continueWatchingQuery = (includeRestricted: boolean) =>
  queryOptions({
    queryKey: dashboardKeys.continueWatching(includeRestricted),
    staleTime: PREFETCHED_FRESH_MS,
    queryFn: ({ signal }) =>
      api.get<ListResult<DashboardEpisode>>('Dashboard/ContinueWatchingEpisodes', {
        query: {
          pageSize: DASHBOARD_PAGE_SIZE,
          includeRestricted: includeOnly(includeRestricted),
        } satisfies Partial<DashboardEpisodeListQuery>,
        signal,
      }),
  });

const nextUpQuery = (onlyUnwatched: boolean, includeRestricted: boolean) =>
  queryOptions({
    queryKey: dashboardKeys.nextUp(onlyUnwatched, includeRestricted),
    staleTime: PREFETCHED_FRESH_MS,
    queryFn: ({ signal }) =>
      api.get<ListResult<DashboardEpisode>>('Dashboard/NextUpEpisodes', {
        query: {
          pageSize: DASHBOARD_PAGE_SIZE,
          onlyUnwatched,
          includeRestricted: includeOnly(includeRestricted),
        } satisfies Partial<DashboardNextUpQuery>,
        signal,
      }),
  });

const calendarQuery = (showAll: boolean, includeRestricted: boolean) =>
  queryOptions({
    queryKey: dashboardKeys.calendar(showAll, includeRestricted),
    staleTime: PREFETCHED_FRESH_MS,
    queryFn: ({ signal }) =>
      api.get<DashboardEpisode[]>('Dashboard/AniDBCalendar', {
        query: { showAll, includeRestricted } satisfies Partial<DashboardAniDBCalendarQuery>,
        signal,
      }),
  });

const recommendedQuery = (includeRestricted: boolean) =>
  queryOptions({
    queryKey: dashboardKeys.recommended(includeRestricted),
    staleTime: PREFETCHED_FRESH_MS,
    queryFn: ({ signal }) =>
      api.get<ListResult<AnidbAnimeRecommendedForYou>>('Series/AniDB/RecommendedForYou', {
        query: {
          pageSize: DASHBOARD_PAGE_SIZE,
          includeRestricted: includeOnly(includeRestricted),
        } satisfies Partial<RecommendedForYouQuery>,
        signal,
      }),
  });

/** Newest unrecognized files first (file ID descending); under the file keys so file events refresh it. */
const newestUnrecognizedQuery = () =>
  queryOptions({
    queryKey: [...fileKeys.all, 'dashboard-unrecognized'],
    staleTime: PREFETCHED_FRESH_MS,
    queryFn: ({ signal }) =>
      api.get<ListResult<File>>('File', {
        query: { pageSize: DASHBOARD_PAGE_SIZE, include_only: ['Unrecognized'], sortOrder: ['-FileID'], include: ['AbsolutePaths'] },
        signal,
      }),
  });

export function useDashboardStats(enabled = true) {
  return useQuery({ ...statsQuery(), enabled });
}

export function useSeriesSummary(enabled = true) {
  return useQuery({ ...summaryQuery(), enabled });
}

export function useRecentlyAddedEpisodes(pageSize: number, { enabled = true, includeRestricted }: Options) {
  return useQuery({ ...recentEpisodesQuery(pageSize, includeRestricted), enabled });
}

export function useRecentlyAddedSeries(pageSize: number, { enabled = true, includeRestricted }: Options) {
  return useQuery({ ...recentSeriesQuery(pageSize, includeRestricted), enabled });
}

export function useContinueWatching({ enabled = true, includeRestricted }: Options) {
  return useQuery({ ...continueWatchingQuery(includeRestricted), enabled });
}

export function useNextUp(onlyUnwatched: boolean, { enabled = true, includeRestricted }: Options) {
  return useQuery({ ...nextUpQuery(onlyUnwatched, includeRestricted), enabled });
}

export function useUpcomingAnime(showAll: boolean, { enabled = true, includeRestricted }: Options) {
  return useQuery({ ...calendarQuery(showAll, includeRestricted), enabled });
}

export function useRecommendedAnime({ enabled = true, includeRestricted }: Options) {
  return useQuery({ ...recommendedQuery(includeRestricted), enabled });
}

export function useNewestUnrecognizedFiles(enabled = true) {
  return useQuery({ ...newestUnrecognizedQuery(), enabled });
}

/** What the dashboard's widgets will ask for, by the stored dashboard settings (see components/dashboard/settings.ts). */
export interface DashboardPrefetchSettings {
  hideR18Content: boolean;
  hideCollectionStats: boolean;
  hideMediaType: boolean;
  hideUnrecognizedFiles: boolean;
  hideRecentlyImported: boolean;
  recentlyImportedView: 'episodes' | 'series';
  recentlyImportedEpisodesCount: number;
  recentlyImportedSeriesCount: number;
  hideContinueWatching: boolean;
  combineContinueWatching: boolean;
  hideNextUp: boolean;
  hideUpcomingAnime: boolean;
  upcomingAnimeView: 'collection' | 'all';
  hideRecommendedAnime: boolean;
}

/** A widget's own query, and the key of its answer in `Dashboard/Summary`. */
export interface WidgetQuery {
  widget: DashboardSummaryWidget;
  query: FetchQueryOptions<unknown, Error, unknown, QueryKey> & { queryKey: QueryKey };
}

/**
 * The visible widgets' queries (their own keys and requests), each with the key of its answer in
 * `Dashboard/Summary`, by the stored dashboard settings.
 */
export function dashboardQueries(settings: DashboardPrefetchSettings): WidgetQuery[] {
  const restricted = !settings.hideR18Content;
  const widget = (name: DashboardSummaryWidget, query: object): WidgetQuery => ({ widget: name, query: query as WidgetQuery['query'] });
  return [
    !settings.hideCollectionStats && widget('Stats', statsQuery()),
    !settings.hideMediaType && widget('SeriesSummary', summaryQuery()),
    !settings.hideUnrecognizedFiles && widget('UnrecognizedFiles', newestUnrecognizedQuery()),
    !settings.hideRecentlyImported &&
      (settings.recentlyImportedView === 'series'
        ? widget('RecentlyAddedSeries', recentSeriesQuery(settings.recentlyImportedSeriesCount, restricted))
        : widget('RecentlyAddedEpisodes', recentEpisodesQuery(settings.recentlyImportedEpisodesCount, restricted))),
    !settings.hideContinueWatching &&
      !settings.combineContinueWatching &&
      widget('ContinueWatchingEpisodes', continueWatchingQuery(restricted)),
    !settings.hideNextUp && widget('NextUpEpisodes', nextUpQuery(!settings.combineContinueWatching, restricted)),
    !settings.hideUpcomingAnime && widget('AniDBCalendar', calendarQuery(settings.upcomingAnimeView === 'all', restricted)),
    !settings.hideRecommendedAnime && widget('RecommendedForYou', recommendedQuery(restricted)),
  ].filter((entry) => entry !== false);
}

/** What `Dashboard/Summary` is given: the same page sizes and switches the widgets give their own routes. */
function summaryParams(settings: DashboardPrefetchSettings, widgets: DashboardSummaryWidget[]): DashboardSummaryQuery {
  return {
    widgets,
    pageSize: DASHBOARD_PAGE_SIZE,
    recentlyAddedEpisodesPageSize: settings.recentlyImportedEpisodesCount,
    recentlyAddedSeriesPageSize: settings.recentlyImportedSeriesCount,
    onlyUnwatched: !settings.combineContinueWatching,
    showAll: settings.upcomingAnimeView === 'all',
    includeRestricted: !settings.hideR18Content,
  };
}

/**
 * Asks for the visible widgets' data in one `Dashboard/Summary` request and seeds each widget's own query with its
 * part: the widgets find their queries under way or answered, and later refresh on their own (their own requests).
 * Widgets whose answer is fresh or already being fetched are not asked for again; with `missingOnly`, neither are
 * those that have an answer at all (a widget already shown refreshes on its own events, not when another one changes).
 */
export function prefetchDashboard(queryClient: QueryClient, settings: DashboardPrefetchSettings, { missingOnly = false } = {}) {
  const wanted = dashboardQueries(settings).filter(({ query }) => {
    const state = queryClient.getQueryState(query.queryKey);
    if (state?.fetchStatus === 'fetching') return false;
    if (state?.data === undefined) return true;
    return !missingOnly && (state.isInvalidated || Date.now() - state.dataUpdatedAt >= PREFETCHED_FRESH_MS);
  });
  if (!wanted.length) return;
  const summary = api.get<DashboardSummary>('Dashboard/Summary', {
    query: summaryParams(
      settings,
      wanted.map(({ widget }) => widget),
    ) as unknown as Query,
  });
  // An answer the widgets never read must not be reported as unhandled; each widget's query gets the failure itself.
  summary.catch(() => undefined);
  for (const { widget, query } of wanted) {
    void queryClient.prefetchQuery({ ...query, queryFn: () => summary.then((answer) => partOf(answer, answer[widget])) });
  }
}

/** Queue items including blocked ones; the aggregate hub invalidates them on every queue change. */
export function useQueueItems(enabled = true) {
  return useQuery({
    queryKey: queueKeys.items,
    queryFn: ({ signal }) =>
      api.get<ListResult<QueueItem>>('Queue/Items', {
        query: { pageSize: QUEUE_PAGE_SIZE, showAll: true } satisfies Partial<QueueItemsQuery>,
        signal,
      }),
    enabled,
  });
}
