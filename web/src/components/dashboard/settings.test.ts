import { describe, expect, it } from 'vitest';
import { DEFAULT_DASHBOARD_SETTINGS, parseDashboardSettings, withDashboardSettings } from './settings';

describe('dashboard settings', () => {
  it('falls back to the defaults for missing, unreadable or mistyped values', () => {
    expect(parseDashboardSettings(undefined)).toEqual(DEFAULT_DASHBOARD_SETTINGS);
    expect(parseDashboardSettings('{oops')).toEqual(DEFAULT_DASHBOARD_SETTINGS);
    const parsed = parseDashboardSettings(
      JSON.stringify({ dashboard: { hideNextUp: true, hideMediaType: 'yes', recentlyImportedView: 'grid', upcomingAnimeView: 'all' } }),
    );
    expect(parsed).toEqual({ ...DEFAULT_DASHBOARD_SETTINGS, hideNextUp: true, upcomingAnimeView: 'all' });
  });

  it('caps the numeric options', () => {
    const parsed = parseDashboardSettings(
      JSON.stringify({ dashboard: { shokoNewsPostsCount: 500, recentlyImportedEpisodesCount: 5000, recentlyImportedSeriesCount: -3 } }),
    );
    expect([parsed.shokoNewsPostsCount, parsed.recentlyImportedEpisodesCount, parsed.recentlyImportedSeriesCount]).toEqual([100, 1000, 1]);
  });

  it('writes the dashboard into WebUI_Settings and keeps the other console settings', () => {
    const document = { WebUI_Settings: JSON.stringify({ theme: 'theme-custom', welcomeDismissed: true }), Other: 1 };
    const changed = withDashboardSettings(document, { ...DEFAULT_DASHBOARD_SETTINGS, hideQueueProcessor: true });
    const stored = JSON.parse(changed.WebUI_Settings!);
    expect(stored.theme).toBe('theme-custom');
    expect(stored.welcomeDismissed).toBe(true);
    expect(stored.dashboard.hideQueueProcessor).toBe(true);
    expect(changed.Other).toBe(1);
    expect(document.WebUI_Settings).not.toContain('dashboard');
  });
});

describe('dashboard layout', () => {
  it("stores the grid in Shoko's shape under layout.dashboard, keeps the other settings, and reads it back", async () => {
    const { parseDashboardLayout, withDashboardLayout } = await import('./settings');
    const { DEFAULT_DASHBOARD_LAYOUTS } = await import('./layout');
    const document = {
      WebUI_Settings: JSON.stringify({
        layout: { collection: { x: 1 }, dashboard: { order: ['nextUp'] } },
        dashboard: { hideNextUp: true },
      }),
    };
    // The old `{ order: [...] }` value is not a grid: the defaults apply.
    expect(parseDashboardLayout(document.WebUI_Settings)).toBeNull();
    const moved = {
      ...DEFAULT_DASHBOARD_LAYOUTS,
      lg: DEFAULT_DASHBOARD_LAYOUTS.lg.map((item) => (item.i === 'queueProcessor' ? { ...item, y: 100, w: 6 } : item)),
    };
    const saved = withDashboardLayout(document, moved);
    const stored = JSON.parse(saved.WebUI_Settings!);
    expect(Object.keys(stored.layout.dashboard)).toEqual(['lg', 'md', 'sm']);
    expect(stored.layout.dashboard.lg.find((item: { i: string }) => item.i === 'queueProcessor')).toEqual({
      i: 'queueProcessor',
      x: 0,
      y: 100,
      w: 6,
      h: 18,
      minW: 2,
      minH: 7,
      moved: false,
      static: false,
    });
    expect(stored.layout.collection).toEqual({ x: 1 });
    expect(stored.dashboard.hideNextUp).toBe(true);
    expect(parseDashboardLayout(saved.WebUI_Settings)).toEqual(moved);
  });
});
