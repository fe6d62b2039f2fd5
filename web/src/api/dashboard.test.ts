import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_DASHBOARD_SETTINGS } from '@/components/dashboard/settings';
import { prefetchDashboardData } from '@/pages/dashboard/prefetch';
import { dashboardKeys, dashboardQueries, prefetchDashboard } from './dashboard';
import { answerRevision } from './client';

const keys = (settings: Parameters<typeof dashboardQueries>[0]) => dashboardQueries(settings).map(({ query }) => query.queryKey);

describe('dashboardQueries', () => {
  it('asks for what each visible widget of the default dashboard shows, under the keys the widgets use', () => {
    const asked = keys(DEFAULT_DASHBOARD_SETTINGS);
    expect(asked).toContainEqual(dashboardKeys.stats);
    expect(asked).toContainEqual(dashboardKeys.summary);
    expect(asked).toContainEqual(dashboardKeys.recentEpisodes(30, false));
    expect(asked).toContainEqual(dashboardKeys.continueWatching(false));
    expect(asked).toContainEqual(dashboardKeys.nextUp(true, false));
    expect(asked).toContainEqual(dashboardKeys.calendar(false, false));
    expect(asked).toContainEqual(dashboardKeys.recommended(false));
    expect(asked).toContainEqual(['files', 'dashboard-unrecognized']);
    expect(asked).toHaveLength(8);
  });

  it('leaves out hidden widgets and follows the views and the R18 setting', () => {
    const asked = keys({
      ...DEFAULT_DASHBOARD_SETTINGS,
      hideCollectionStats: true,
      hideRecommendedAnime: true,
      recentlyImportedView: 'series',
      recentlyImportedSeriesCount: 12,
      combineContinueWatching: true,
      upcomingAnimeView: 'all',
      hideR18Content: false,
    });
    expect(asked).not.toContainEqual(dashboardKeys.stats);
    expect(asked).not.toContainEqual(dashboardKeys.recommended(true));
    expect(asked).toContainEqual(dashboardKeys.recentSeries(12, true));
    expect(asked).not.toContainEqual(dashboardKeys.recentEpisodes(30, true));
    // Continue Watching folds into Next Up, which then lists watched-in-progress episodes too.
    expect(asked).not.toContainEqual(dashboardKeys.continueWatching(true));
    expect(asked).toContainEqual(dashboardKeys.nextUp(false, true));
    expect(asked).toContainEqual(dashboardKeys.calendar(true, true));
  });
});

describe("the dashboard route's loader", () => {
  afterEach(() => vi.unstubAllGlobals());

  /** A server holding an admin whose stored dashboard hides two widgets and shows series, 18+ included. */
  function serve() {
    const dashboard = { hideCollectionStats: true, hideRecommendedAnime: true, recentlyImportedView: 'series', hideR18Content: false };
    const parts = {
      SeriesSummary: { Series: 3 },
      UnrecognizedFiles: { Total: 1, List: [{ ID: 9 }] },
      RecentlyAddedSeries: { Total: 2, List: [{ IDs: { ID: 1 } }] },
      ContinueWatchingEpisodes: { Total: 0, List: [] },
      NextUpEpisodes: { Total: 1, List: [{ Title: 'Next' }] },
      AniDBCalendar: [],
    };
    const urls: URL[] = [];
    const fetch = vi.fn((url: string) => {
      const asked = new URL(url, 'http://console.test');
      urls.push(asked);
      const body = asked.pathname.endsWith('/User/Current')
        ? { ID: 1, IsAdmin: true }
        : asked.pathname.endsWith('/Settings')
          ? { WebUI_Settings: JSON.stringify({ dashboard }) }
          : asked.pathname.endsWith('/Dashboard/Summary')
            ? parts
            : null;
      return Promise.resolve(
        new Response(JSON.stringify(body), {
          status: body ? 200 : 404,
          headers: { 'content-type': 'application/json', 'x-event-revision': '42' },
        }),
      );
    });
    vi.stubGlobal('fetch', fetch);
    return { urls, parts };
  }

  it("asks for the visible widgets in one Dashboard/Summary call and seeds each widget's own query with its part", async () => {
    const { urls, parts } = serve();
    const queryClient = new QueryClient();
    await prefetchDashboardData(queryClient);
    await vi.waitFor(() => expect(queryClient.getQueryData(dashboardKeys.summary)).toBeDefined());

    const dashboardCalls = urls.filter((url) => !/\/(User\/Current|Settings)$/.test(url.pathname));
    expect(dashboardCalls.map((url) => url.pathname)).toEqual(['/api/v3/Dashboard/Summary']);
    const params = dashboardCalls[0]!.searchParams;
    // Hidden widgets (Collection Statistics, Recommended Anime) are not asked for.
    expect(params.getAll('widgets').sort()).toEqual(Object.keys(parts).sort());
    expect(Object.fromEntries([...params].filter(([name]) => name !== 'widgets'))).toEqual({
      pageSize: '20',
      recentlyAddedEpisodesPageSize: '30',
      recentlyAddedSeriesPageSize: '20',
      onlyUnwatched: 'true',
      showAll: 'false',
      includeRestricted: 'true',
    });

    expect(queryClient.getQueryData(dashboardKeys.summary)).toEqual(parts.SeriesSummary);
    expect(queryClient.getQueryData(['files', 'dashboard-unrecognized'])).toEqual(parts.UnrecognizedFiles);
    expect(queryClient.getQueryData(dashboardKeys.recentSeries(20, true))).toEqual(parts.RecentlyAddedSeries);
    expect(queryClient.getQueryData(dashboardKeys.continueWatching(true))).toEqual(parts.ContinueWatchingEpisodes);
    expect(queryClient.getQueryData(dashboardKeys.nextUp(true, true))).toEqual(parts.NextUpEpisodes);
    expect(queryClient.getQueryData(dashboardKeys.calendar(false, true))).toEqual(parts.AniDBCalendar);
    expect(queryClient.getQueryData(dashboardKeys.stats)).toBeUndefined();
    // Each part was read when the summary was: the live feed does not ask for it again on connecting (missedEvents).
    expect(answerRevision(queryClient.getQueryData(['files', 'dashboard-unrecognized']))).toBe(42);
    expect(answerRevision(queryClient.getQueryData(dashboardKeys.nextUp(true, true)))).toBe(42);

    // Asked again while the answers are fresh (the page mounting after its loader): nothing leaves.
    const before = urls.length;
    await prefetchDashboardData(queryClient);
    expect(urls).toHaveLength(before);
  });

  it('asks again only for the widget whose answer was invalidated', async () => {
    const { urls } = serve();
    const queryClient = new QueryClient();
    await prefetchDashboardData(queryClient);
    await vi.waitFor(() => expect(queryClient.getQueryData(dashboardKeys.summary)).toBeDefined());
    await queryClient.invalidateQueries({ queryKey: dashboardKeys.nextUp(true, true) });
    await prefetchDashboardData(queryClient);
    const summaries = urls.filter((url) => url.pathname.endsWith('/Dashboard/Summary'));
    expect(summaries).toHaveLength(2);
    expect(summaries[1]!.searchParams.getAll('widgets')).toEqual(['NextUpEpisodes']);
  });

  it('asks the page for the widgets a changed setting left without an answer, not for those already shown', async () => {
    const { urls } = serve();
    const queryClient = new QueryClient();
    const settings = { ...DEFAULT_DASHBOARD_SETTINGS, hideCollectionStats: true, hideRecommendedAnime: true, hideR18Content: false };
    prefetchDashboard(queryClient, { ...settings, recentlyImportedView: 'series' });
    await vi.waitFor(() => expect(queryClient.getQueryData(dashboardKeys.summary)).toBeDefined());
    // Shown and stale: left to their own refreshes. The episodes view, never asked for: asked now, alone.
    await queryClient.invalidateQueries({ queryKey: dashboardKeys.all });
    prefetchDashboard(queryClient, { ...settings, recentlyImportedView: 'episodes' }, { missingOnly: true });
    const summaries = urls.filter((url) => url.pathname.endsWith('/Dashboard/Summary'));
    expect(summaries).toHaveLength(2);
    expect(summaries[1]!.searchParams.getAll('widgets')).toEqual(['RecentlyAddedEpisodes']);
  });
});
