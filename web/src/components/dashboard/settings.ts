import { useMemo } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { fetchConsoleSettings, parseWebUISettings, useConsoleSettings, withSetting, type SettingsDocument } from '@/api/settings';
import { parseDashboardLayouts, SAVED_BREAKPOINTS, type DashboardLayouts } from './layout';

/** `WebUI_Settings.dashboard` (SPEC.md §3): which widgets show and how many entries the lists hold. */
export interface DashboardSettings {
  combineContinueWatching: boolean;
  hideCollectionStats: boolean;
  hideContinueWatching: boolean;
  hideImportFolders: boolean;
  hideMediaType: boolean;
  hideNextUp: boolean;
  hideQueueProcessor: boolean;
  hideRecentlyImported: boolean;
  hideRecommendedAnime: boolean;
  hideShokoNews: boolean;
  hideUnrecognizedFiles: boolean;
  hideUpcomingAnime: boolean;
  hideR18Content: boolean;
  recentlyImportedEpisodesCount: number;
  recentlyImportedSeriesCount: number;
  recentlyImportedView: 'episodes' | 'series';
  shokoNewsPostsCount: number;
  upcomingAnimeView: 'collection' | 'all';
  useThumbnailsForEpisodes: boolean;
}

export const DEFAULT_DASHBOARD_SETTINGS: DashboardSettings = {
  combineContinueWatching: false,
  hideCollectionStats: false,
  hideContinueWatching: false,
  hideImportFolders: false,
  hideMediaType: false,
  hideNextUp: false,
  hideQueueProcessor: false,
  hideRecentlyImported: false,
  hideRecommendedAnime: false,
  hideShokoNews: false,
  hideUnrecognizedFiles: false,
  hideUpcomingAnime: false,
  hideR18Content: true,
  recentlyImportedEpisodesCount: 30,
  recentlyImportedSeriesCount: 20,
  recentlyImportedView: 'episodes',
  shokoNewsPostsCount: 4,
  upcomingAnimeView: 'collection',
  useThumbnailsForEpisodes: false,
};

/** Numeric options are capped (SPEC.md §9: 100; the recently imported lists take up to 1000, the server's page limit). */
export const COUNT_LIMITS = { recentlyImportedEpisodesCount: 1000, recentlyImportedSeriesCount: 1000, shokoNewsPostsCount: 100 } as const;

export function clampCount(key: keyof typeof COUNT_LIMITS, value: number): number {
  if (!Number.isFinite(value)) return DEFAULT_DASHBOARD_SETTINGS[key];
  return Math.min(COUNT_LIMITS[key], Math.max(1, Math.round(value)));
}

/** The stored dashboard settings over the defaults; unknown or mistyped values fall back to the default. */
export function parseDashboardSettings(webuiSettingsText: string | undefined): DashboardSettings {
  const stored = (parseWebUISettings(webuiSettingsText) as { dashboard?: unknown }).dashboard;
  const result: DashboardSettings = { ...DEFAULT_DASHBOARD_SETTINGS };
  if (!stored || typeof stored !== 'object') return result;
  for (const [key, fallback] of Object.entries(DEFAULT_DASHBOARD_SETTINGS) as Array<[keyof DashboardSettings, unknown]>) {
    const value = (stored as Record<string, unknown>)[key];
    if (typeof value !== typeof fallback) continue;
    if (key === 'recentlyImportedView' && value !== 'episodes' && value !== 'series') continue;
    if (key === 'upcomingAnimeView' && value !== 'collection' && value !== 'all') continue;
    (result as unknown as Record<string, unknown>)[key] =
      key in COUNT_LIMITS ? clampCount(key as keyof typeof COUNT_LIMITS, value as number) : value;
  }
  return result;
}

function storedWebUISettings(document: SettingsDocument): Record<string, unknown> {
  try {
    const parsed = document.WebUI_Settings ? (JSON.parse(document.WebUI_Settings) as unknown) : {};
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The settings document with top-level keys of the `WebUI_Settings` JSON text replaced, other console settings kept. */
export function withWebUISettings(document: SettingsDocument, patch: Record<string, unknown>): SettingsDocument {
  return withSetting(
    document,
    'WebUI_Settings',
    JSON.stringify({ ...parseWebUISettings(undefined), ...storedWebUISettings(document), ...patch }),
  );
}

export const withDashboardSettings = (document: SettingsDocument, dashboard: DashboardSettings) =>
  withWebUISettings(document, { dashboard });

/** `WebUI_Settings.layout.dashboard`: the grid the user arranged (see layout.ts), or null for the default one. */
export function parseDashboardLayout(webuiSettingsText: string | undefined): DashboardLayouts | null {
  const layout = (parseWebUISettings(webuiSettingsText) as { layout?: unknown }).layout;
  return layout && typeof layout === 'object' ? parseDashboardLayouts((layout as { dashboard?: unknown }).dashboard) : null;
}

/** The settings document with `layout.dashboard` replaced by `layouts` (`{ lg, md, sm }`), other layouts kept. */
export function withDashboardLayout(document: SettingsDocument, layouts: DashboardLayouts): SettingsDocument {
  const current = storedWebUISettings(document).layout;
  const layout = current && typeof current === 'object' ? (current as Record<string, unknown>) : {};
  const dashboard = Object.fromEntries(SAVED_BREAKPOINTS.map((breakpoint) => [breakpoint, layouts[breakpoint]]));
  return withWebUISettings(document, { layout: { ...layout, dashboard } });
}

/** The dashboard's settings and layout, saved with the console settings (the server's for admins, else the account's). */
export function useDashboardSettings() {
  const settings = useConsoleSettings();
  const queryClient = useQueryClient();
  const update = async (change: (document: SettingsDocument) => SettingsDocument) => {
    const original = settings.data ?? (await fetchConsoleSettings(queryClient));
    await settings.save({ original, changed: change(original) });
  };
  const text = settings.data?.WebUI_Settings;
  // Parsed once per stored text, so the grid gets the same object until the layout really changes.
  const layout = useMemo(() => parseDashboardLayout(text), [text]);
  return {
    settings: parseDashboardSettings(text),
    loaded: settings.isSuccess,
    saving: settings.saving,
    layout,
    save: (dashboard: DashboardSettings) => update((document) => withDashboardSettings(document, dashboard)),
    saveLayout: (layouts: DashboardLayouts) => update((document) => withDashboardLayout(document, layouts)),
  };
}
