import { fileListQuery, fileSearchParams, kindListParams, UNRECOGNIZED_PAGE_SIZE } from '@/api/files';
import { serverStatusQuery, serverVersionQuery } from '@/api/init';
import { releaseSeriesQuery, releaseTogglesOf } from '@/api/releaseManagement';
import { episodeFiltersOf, seriesEpisodesQuery, seriesExtraQuery, seriesOverviewQuery, seriesQuery, seriesTagsQuery } from '@/api/series';
import { settingsQuery } from '@/api/settings';
import { currentUserQuery } from '@/api/users';
import { prefetchCollectionFirstPage, prefetchGroupSeries } from '@/pages/collection/prefetch';
import { itemTypeOf } from '@/pages/utilities/release-management/selection';
import { getSession } from '@/lib/session';
import { queryClient } from './queryClient';

// The pages a login lands on, loaded by the router and, ahead of it, by the login page while the user types.
export const loadMainLayout = () => import('@/app/layout/MainLayout');
export const loadDashboardPage = () => import('@/pages/dashboard/DashboardPage');

/** Fetches the landing page's code before the login is sent, so the click waits for data only. */
export function preloadLanding() {
  for (const load of [loadMainLayout, loadDashboardPage]) load().catch(() => undefined);
}

/** The dashboard route's loader: the widgets' requests leave while the page's code is still on its way. */
export function prefetchDashboardRoute() {
  if (getSession())
    import('@/pages/dashboard/prefetch').then(({ prefetchDashboardData }) => prefetchDashboardData(queryClient)).catch(() => undefined);
  return null;
}

/**
 * What every page waits for before it draws (the version and status gates, the user and the settings), asked at
 * start-up beside the route's code instead of one after another once the code has arrived.
 */
export function startGateRequests() {
  void queryClient.prefetchQuery(serverVersionQuery());
  void queryClient.prefetchQuery(serverStatusQuery());
  if (!getSession()) return;
  void queryClient.prefetchQuery(currentUserQuery());
  void queryClient.prefetchQuery(settingsQuery());
}

/** A whole number from a route parameter, or null. */
const idParam = (value: string | undefined) => (value && /^\d+$/.test(value) ? Number(value) : null);

/** What a route's loader is given: its parameters and the request (whose URL holds the page's search parameters). */
interface LoaderArgs {
  params: Record<string, string | undefined>;
  request: Request;
}

const searchOf = (request: Request) => new URL(request.url).searchParams;

/*
 * The series pages' loaders ask at once, like the utility pages' below: the series queries are part of the entry, so
 * the requests leave when the router starts instead of after the layout's and the tab's chunks have arrived.
 */

/** The Overview tab, which a series link without a tab opens. */
const opensOverview = (request: Request) => /\/series\/\d+\/?(?:overview\/?)?$/.test(new URL(request.url).pathname);

/**
 * The series pages' loader: the series and its header's extras, tags and (once the series names it) group; on the
 * Overview tab the header's panels come with the tab's in one call (its loader below).
 */
export function prefetchSeriesRoute({ params, request }: LoaderArgs) {
  const id = idParam(params.seriesId);
  if (id === null || !getSession()) return null;
  if (opensOverview(request)) {
    void queryClient.prefetchQuery(seriesQuery(id));
    return prefetchSeriesOverviewRoute({ params });
  }
  void queryClient
    .fetchQuery(seriesQuery(id))
    .then((series) => import('@/api/collection').then(({ groupQuery }) => queryClient.prefetchQuery(groupQuery(series.IDs.ParentGroup))))
    .catch(() => undefined);
  void queryClient.prefetchQuery(seriesExtraQuery(id));
  void queryClient.prefetchQuery(seriesTagsQuery(id));
  return null;
}

/**
 * The Overview tab's loader: the header's and the tab's panels (extras, tags, group, next up, related, similar, cast)
 * in one call beside the series' (seven requests queued behind the page's scripts on the browser's six connections).
 * Not the import folders: the Play button reads them only when pressed (at 400,000 files their sizes took 0.15-0.4 s
 * on SQLite, holding the server, and 0.6 s on PostgreSQL, the page's last answer).
 */
export function prefetchSeriesOverviewRoute({ params }: Pick<LoaderArgs, 'params'>) {
  const id = idParam(params.seriesId);
  if (id !== null && getSession()) void queryClient.prefetchQuery(seriesOverviewQuery(id));
  return null;
}

/**
 * The group page's loader: the group, and its series when no saved or live filter narrows them (a filter's series
 * need the filter first), are asked for while the page's code loads.
 */
export function prefetchGroupRoute({ params, request }: LoaderArgs) {
  const id = idParam(params.groupId);
  if (id === null || !getSession()) return null;
  import('@/api/collection').then(({ groupQuery }) => queryClient.prefetchQuery(groupQuery(id))).catch(() => undefined);
  if (!params.filterId) {
    const search = (searchOf(request).get('qs') ?? '').trim();
    prefetchGroupSeries(queryClient, id, search).catch(() => undefined);
  }
  return null;
}

/** The Episodes tab's loader: the first episodes under the filters in its URL. */
export function prefetchEpisodesRoute({ params, request }: LoaderArgs) {
  const id = idParam(params.seriesId);
  if (id !== null && getSession()) void queryClient.prefetchInfiniteQuery(seriesEpisodesQuery(id, episodeFiltersOf(searchOf(request))));
  return null;
}

/*
 * The utility pages' loaders ask at once: their queries are part of the entry (a few kB), so the request leaves when
 * the router starts instead of after the page's chunks and everything they share have arrived (measured 250-600 ms
 * later on a loaded machine, the browser's six connections busy with the layout's scripts).
 */

/** Release management's loader: the first page of the category's series under the toggles in its URL. */
export function prefetchReleaseRoute({ params, request }: LoaderArgs) {
  if (getSession())
    void queryClient.prefetchQuery(releaseSeriesQuery(itemTypeOf(params.itemType).api, releaseTogglesOf(searchOf(request)), 1));
  return null;
}

/** File Search's loader: the newest files, the list the page shows before anything is typed. */
export function prefetchFileSearchRoute() {
  if (getSession()) void queryClient.prefetchInfiniteQuery(fileListQuery(fileSearchParams(null, '')));
  return null;
}

/** The unrecognized files' loader: the list's first page in its default order. */
export function prefetchUnrecognizedRoute() {
  if (getSession()) void queryClient.prefetchInfiniteQuery(fileListQuery(kindListParams(UNRECOGNIZED_PAGE_SIZE, 'Unrecognized', null, '')));
  return null;
}

/**
 * The collection's loader: its first page of groups is asked for at once, beside the start-up requests (its code is
 * part of the entry, about 1 kB: as a chunk of its own it arrived with the page's chunks and waited for their
 * evaluation, 150-200 ms later on a loaded machine).
 */
export function prefetchCollectionRoute() {
  if (getSession()) prefetchCollectionFirstPage(queryClient).catch(() => undefined);
  return null;
}

/**
 * A collection link's data asked for ahead of the click (the pointer resting on it, or the keyboard's focus): the
 * series or group its route's loader would ask for.
 */
export function prefetchLink(to: string) {
  const series = /^\/collection\/series\/(\d+)(?:\/|$)/.exec(to);
  const request = () => new Request(new URL(to, window.location.origin));
  if (series) prefetchSeriesRoute({ params: { seriesId: series[1] }, request: request() });
  const group = /^\/collection\/group\/(\d+)(?:\?|$)/.exec(to);
  if (group) prefetchGroupRoute({ params: { groupId: group[1] }, request: request() });
}
