import { useState } from 'react';
import { parseWebUISettings, useConsoleSettings, withSetting } from '@/api/settings';

/** WebUI_Settings.collection (SPEC §3): how groups and series are shown. */
export interface CollectionSettings {
  view: 'poster' | 'list';
  poster: { showEpisodeCount: boolean; showGroupIndicator: boolean; showUnwatchedCount: boolean };
  list: { showItemType: boolean; showGroupIndicator: boolean; showTopTags: boolean; showCustomTags: boolean };
  image: { showRandomPoster: boolean; showRandomBackdrop: boolean; useThumbnailFallback: boolean };
  anidb: { filterDescription: boolean };
  tmdb: { includeRestricted: boolean };
}

export const DEFAULT_COLLECTION_SETTINGS: CollectionSettings = {
  view: 'poster',
  poster: { showEpisodeCount: true, showGroupIndicator: true, showUnwatchedCount: true },
  list: { showItemType: true, showGroupIndicator: true, showTopTags: true, showCustomTags: true },
  image: { showRandomPoster: false, showRandomBackdrop: false, useThumbnailFallback: true },
  anidb: { filterDescription: true },
  tmdb: { includeRestricted: false },
};

export function mergeCollectionSettings(stored: unknown): CollectionSettings {
  const value = (stored && typeof stored === 'object' ? stored : {}) as Partial<Record<keyof CollectionSettings, unknown>>;
  const section = <K extends Exclude<keyof CollectionSettings, 'view'>>(key: K): CollectionSettings[K] => ({
    ...DEFAULT_COLLECTION_SETTINGS[key],
    ...((value[key] && typeof value[key] === 'object' ? value[key] : {}) as Partial<CollectionSettings[K]>),
  });
  return {
    view: value.view === 'list' ? 'list' : 'poster',
    poster: section('poster'),
    list: section('list'),
    image: section('image'),
    anidb: section('anidb'),
    tmdb: section('tmdb'),
  };
}

function storedWebUI(text: string | undefined): Record<string, unknown> {
  try {
    const parsed = JSON.parse(text || '{}') as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The collection settings stored in a settings document (the defaults without one). */
export function collectionSettingsOf(document: { WebUI_Settings?: string } | undefined): CollectionSettings {
  return document ? mergeCollectionSettings(storedWebUI(document.WebUI_Settings).collection) : DEFAULT_COLLECTION_SETTINGS;
}

/** Read-only: whether AniDB descriptions are shown filtered (`anidb.filterDescription`). */
export function useFilterDescription(): boolean {
  const { data } = useConsoleSettings();
  return collectionSettingsOf(data).anidb.filterDescription;
}

/**
 * The collection settings and a setter that saves them into WebUI_Settings: the server's for admins, the account's own
 * for anyone else (useConsoleSettings). A choice shows at once, before the save comes back.
 */
export function useCollectionSettings() {
  const { data, save } = useConsoleSettings();
  const [local, setLocal] = useState<CollectionSettings | null>(null);
  const stored = data ? collectionSettingsOf(data) : null;
  const settings = local ?? stored ?? DEFAULT_COLLECTION_SETTINGS;
  const update = (next: CollectionSettings) => {
    setLocal(next);
    if (!data) return;
    const webui = { ...parseWebUISettings(data.WebUI_Settings), ...storedWebUI(data.WebUI_Settings), collection: next };
    save({ original: data, changed: withSetting(data, 'WebUI_Settings', JSON.stringify(webui)) }).catch(() => undefined);
  };
  return { settings, update };
}
