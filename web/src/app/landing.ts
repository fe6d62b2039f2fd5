import { serverStatusQuery, serverVersionQuery } from '@/api/init';
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
  import('@/api/users').then(({ currentUserQuery }) => queryClient.prefetchQuery(currentUserQuery())).catch(() => undefined);
  import('@/api/settings').then(({ settingsQuery }) => queryClient.prefetchQuery(settingsQuery())).catch(() => undefined);
}

/** A whole number from a route parameter, or null. */
const idParam = (value: string | undefined) => (value && /^\d+$/.test(value) ? Number(value) : null);

/** The series pages' loader: the series and its header's extras are asked for while the tab's code loads. */
export function prefetchSeriesRoute({ params }: { params: Record<string, string | undefined> }) {
  const id = idParam(params.seriesId);
  if (id !== null && getSession())
    import('@/api/series')
      .then(({ seriesQuery, seriesExtraQuery }) =>
        Promise.all([queryClient.prefetchQuery(seriesQuery(id)), queryClient.prefetchQuery(seriesExtraQuery(id))]),
      )
      .catch(() => undefined);
  return null;
}

/** The group page's loader: the group is asked for while the page's code loads. */
export function prefetchGroupRoute({ params }: { params: Record<string, string | undefined> }) {
  const id = idParam(params.groupId);
  if (id !== null && getSession())
    import('@/api/collection').then(({ groupQuery }) => queryClient.prefetchQuery(groupQuery(id))).catch(() => undefined);
  return null;
}

/** The collection's loader: its first page of groups is asked for while the page's code loads. */
export function prefetchCollectionRoute() {
  if (getSession())
    import('@/pages/collection/prefetch')
      .then(({ prefetchCollectionFirstPage }) => prefetchCollectionFirstPage(queryClient))
      .catch(() => undefined);
  return null;
}
