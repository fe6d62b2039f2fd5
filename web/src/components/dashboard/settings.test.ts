import { describe, expect, it } from 'vitest';
import { DEFAULT_DASHBOARD_SETTINGS, parseDashboardSettings, withDashboardSettings } from './settings';

describe('dashboard settings', () => {
  it('falls back to the defaults for missing, unreadable or mistyped values', () => {
    expect(parseDashboardSettings(undefined)).toEqual(DEFAULT_DASHBOARD_SETTINGS);
    expect(parseDashboardSettings('{oops')).toEqual(DEFAULT_DASHBOARD_SETTINGS);
    const parsed = parseDashboardSettings(JSON.stringify({ dashboard: { hideNextUp: true, hideMediaType: 'yes', recentlyImportedView: 'grid', upcomingAnimeView: 'all' } }));
    expect(parsed).toEqual({ ...DEFAULT_DASHBOARD_SETTINGS, hideNextUp: true, upcomingAnimeView: 'all' });
  });

  it('caps the numeric options', () => {
    const parsed = parseDashboardSettings(JSON.stringify({ dashboard: { shokoNewsPostsCount: 500, recentlyImportedEpisodesCount: 5000, recentlyImportedSeriesCount: -3 } }));
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
  it('stores the widget order under layout.dashboard and reads it back; null restores the default', async () => {
    const { parseDashboardLayout, withDashboardLayout } = await import('./settings');
    const document = { WebUI_Settings: JSON.stringify({ layout: { collection: { x: 1 } }, dashboard: { hideNextUp: true } }) };
    const saved = withDashboardLayout(document, ['nextUp', 'queue']);
    expect(parseDashboardLayout(saved.WebUI_Settings)).toEqual(['nextUp', 'queue']);
    const stored = JSON.parse(saved.WebUI_Settings!);
    expect(stored.layout.collection).toEqual({ x: 1 });
    expect(stored.dashboard.hideNextUp).toBe(true);
    expect(parseDashboardLayout(withDashboardLayout(saved, null).WebUI_Settings)).toBeNull();
    expect(parseDashboardLayout(JSON.stringify({ layout: { dashboard: { order: [1, 2] } } }))).toBeNull();
  });
});
