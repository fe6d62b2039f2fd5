import { useQuery } from '@tanstack/react-query';
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
  File,
  ListResult,
  QueueItem,
  QueueItemsQuery,
  RecommendedForYouQuery,
  Series,
} from '@shoko-ts/contract';
import { api } from './client';
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

export function useDashboardStats(enabled = true) {
  return useQuery({
    queryKey: dashboardKeys.stats,
    queryFn: ({ signal }) => api.get<DashboardCollectionStats>('Dashboard/Stats', { signal }),
    enabled,
  });
}

export function useSeriesSummary(enabled = true) {
  return useQuery({
    queryKey: dashboardKeys.summary,
    queryFn: ({ signal }) => api.get<DashboardSeriesSummary>('Dashboard/SeriesSummary', { signal }),
    enabled,
  });
}

export function useRecentlyAddedEpisodes(pageSize: number, { enabled = true, includeRestricted }: Options) {
  return useQuery({
    queryKey: dashboardKeys.recentEpisodes(pageSize, includeRestricted),
    queryFn: ({ signal }) =>
      api.get<ListResult<DashboardEpisode>>('Dashboard/RecentlyAddedEpisodes', {
        query: { pageSize, includeRestricted: includeOnly(includeRestricted) } satisfies Partial<DashboardRecentlyAddedEpisodesQuery>,
        signal,
      }),
    enabled,
  });
}

export function useRecentlyAddedSeries(pageSize: number, { enabled = true, includeRestricted }: Options) {
  return useQuery({
    queryKey: dashboardKeys.recentSeries(pageSize, includeRestricted),
    queryFn: ({ signal }) =>
      api.get<ListResult<Series>>('Dashboard/RecentlyAddedSeries', {
        query: { pageSize, includeRestricted: includeOnly(includeRestricted) } satisfies Partial<DashboardRecentlyAddedSeriesQuery>,
        signal,
      }),
    enabled,
  });
}

export function useContinueWatching({ enabled = true, includeRestricted }: Options) {
  return useQuery({
    queryKey: dashboardKeys.continueWatching(includeRestricted),
    queryFn: ({ signal }) =>
      api.get<ListResult<DashboardEpisode>>('Dashboard/ContinueWatchingEpisodes', {
        query: {
          pageSize: DASHBOARD_PAGE_SIZE,
          includeRestricted: includeOnly(includeRestricted),
        } satisfies Partial<DashboardEpisodeListQuery>,
        signal,
      }),
    enabled,
  });
}

export function useNextUp(onlyUnwatched: boolean, { enabled = true, includeRestricted }: Options) {
  return useQuery({
    queryKey: dashboardKeys.nextUp(onlyUnwatched, includeRestricted),
    queryFn: ({ signal }) =>
      api.get<ListResult<DashboardEpisode>>('Dashboard/NextUpEpisodes', {
        query: {
          pageSize: DASHBOARD_PAGE_SIZE,
          onlyUnwatched,
          includeRestricted: includeOnly(includeRestricted),
        } satisfies Partial<DashboardNextUpQuery>,
        signal,
      }),
    enabled,
  });
}

export function useUpcomingAnime(showAll: boolean, { enabled = true, includeRestricted }: Options) {
  return useQuery({
    queryKey: dashboardKeys.calendar(showAll, includeRestricted),
    queryFn: ({ signal }) =>
      api.get<DashboardEpisode[]>('Dashboard/AniDBCalendar', {
        query: { showAll, includeRestricted } satisfies Partial<DashboardAniDBCalendarQuery>,
        signal,
      }),
    enabled,
  });
}

export function useRecommendedAnime({ enabled = true, includeRestricted }: Options) {
  return useQuery({
    queryKey: dashboardKeys.recommended(includeRestricted),
    queryFn: ({ signal }) =>
      api.get<ListResult<AnidbAnimeRecommendedForYou>>('Series/AniDB/RecommendedForYou', {
        query: {
          pageSize: DASHBOARD_PAGE_SIZE,
          includeRestricted: includeOnly(includeRestricted),
        } satisfies Partial<RecommendedForYouQuery>,
        signal,
      }),
    enabled,
  });
}

/** Newest unrecognized files first (file ID descending); under the file keys so file events refresh it. */
export function useNewestUnrecognizedFiles(enabled = true) {
  return useQuery({
    queryKey: [...fileKeys.all, 'dashboard-unrecognized'],
    queryFn: ({ signal }) =>
      api.get<ListResult<File>>('File', {
        query: { pageSize: DASHBOARD_PAGE_SIZE, include_only: ['Unrecognized'], sortOrder: ['-FileID'], include: ['AbsolutePaths'] },
        signal,
      }),
    enabled,
  });
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
