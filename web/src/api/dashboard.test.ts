import { describe, expect, it } from 'vitest';
import { DEFAULT_DASHBOARD_SETTINGS } from '@/components/dashboard/settings';
import { dashboardKeys, dashboardQueries } from './dashboard';

const keys = (settings: Parameters<typeof dashboardQueries>[0]) => dashboardQueries(settings).map((query) => query.queryKey);

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
