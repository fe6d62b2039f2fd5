import { useQueryClient } from '@tanstack/react-query';
import { parseWebUISettings, settingsKeys, useSaveSettings, useSettings, withSetting, type SettingsDocument } from '@/api/settings';

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
    (result as unknown as Record<string, unknown>)[key] = key in COUNT_LIMITS ? clampCount(key as keyof typeof COUNT_LIMITS, value as number) : value;
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
  return withSetting(document, 'WebUI_Settings', JSON.stringify({ ...parseWebUISettings(undefined), ...storedWebUISettings(document), ...patch }));
}

export const withDashboardSettings = (document: SettingsDocument, dashboard: DashboardSettings) => withWebUISettings(document, { dashboard });

/** `WebUI_Settings.layout.dashboard`: the widget order the user arranged, or null for the default order. */
export function parseDashboardLayout(webuiSettingsText: string | undefined): string[] | null {
  const layout = (parseWebUISettings(webuiSettingsText) as { layout?: { dashboard?: { order?: unknown } } }).layout;
  const order = layout?.dashboard?.order;
  return Array.isArray(order) && order.every((id) => typeof id === 'string') ? order : null;
}

export function withDashboardLayout(document: SettingsDocument, order: string[] | null): SettingsDocument {
  const current = storedWebUISettings(document).layout;
  const layout = current && typeof current === 'object' ? (current as Record<string, unknown>) : {};
  return withWebUISettings(document, { layout: { ...layout, dashboard: order ? { order } : null } });
}

export function useDashboardSettings() {
  const settings = useSettings();
  const save = useSaveSettings();
  const queryClient = useQueryClient();
  const update = async (change: (document: SettingsDocument) => SettingsDocument) => {
    const original = (settings.data ?? (await queryClient.fetchQuery({ queryKey: settingsKeys.all }))) as SettingsDocument;
    await save.mutateAsync({ original, changed: change(original) });
  };
  return {
    settings: parseDashboardSettings(settings.data?.WebUI_Settings),
    loaded: settings.isSuccess,
    saving: save.isPending,
    layout: parseDashboardLayout(settings.data?.WebUI_Settings),
    save: (dashboard: DashboardSettings) => update((document) => withDashboardSettings(document, dashboard)),
    saveLayout: (order: string[] | null) => update((document) => withDashboardLayout(document, order)),
  };
}
