import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { compare, deepClone } from 'fast-json-patch';
import type { Credentials, SettingsPatchQuery, SupportedLanguage, WebUISettings } from '@shoko-ts/contract';
import { api } from './client';

/**
 * The server settings document (`GET /api/v3/Settings`). The console only edits a handful of its fields, which it
 * reaches by dotted path (`AniDb.Username`), and always writes back a JSON-Patch diff of the whole document.
 */
export type SettingsDocument = { WebUI_Settings?: string } & Record<string, unknown>;

export const settingsKeys = {
  all: ['settings'] as const,
  languages: ['settings', 'languages'] as const,
};

export const settingsQuery = () =>
  queryOptions({
    queryKey: settingsKeys.all,
    queryFn: ({ signal }) => api.get<SettingsDocument>('Settings', { signal }),
    staleTime: Infinity,
    retry: false,
  });

export function useSettings(enabled = true) {
  return useQuery({ ...settingsQuery(), enabled });
}

export function useSupportedLanguages() {
  return useQuery({
    queryKey: settingsKeys.languages,
    queryFn: ({ signal }) => api.get<SupportedLanguage[]>('Settings/SupportedLanguages', { signal }),
    staleTime: Infinity,
  });
}

export function getSetting<T>(settings: SettingsDocument | undefined, path: string): T | undefined {
  let node: unknown = settings;
  for (const key of path.split('.')) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node as T | undefined;
}

/** A copy of `settings` with `path` set to `value` (intermediate objects created as needed). */
export function withSetting(settings: SettingsDocument, path: string, value: unknown): SettingsDocument {
  const copy = deepClone(settings) as SettingsDocument;
  const keys = path.split('.');
  let node = copy as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) {
    if (!node[key] || typeof node[key] !== 'object') node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1]] = value;
  return copy;
}

interface SaveSettings {
  original: SettingsDocument;
  changed: SettingsDocument;
  /** The first run saves before AniDB credentials are validated, so it skips server validation. */
  skipValidation?: boolean;
}

export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ original, changed, skipValidation = false }: SaveSettings) => {
      const operations = compare(original, changed);
      if (!operations.length) return;
      await api.patch<void>('Settings', operations, { query: { skipValidation } satisfies SettingsPatchQuery });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.all }),
  });
}

export function useTestAniDBLogin() {
  return useMutation({
    mutationFn: (credentials: Credentials) => api.post<void>('Settings/AniDB/TestLogin', credentials),
    meta: { inlineErrors: true },
  });
}

export const DEFAULT_WEBUI_SETTINGS: WebUISettings = {
  settingsRevision: 10,
  theme: 'theme-shoko-gray',
  notifications: true,
  toastPosition: 'bottom-right',
  updateChannel: 'Stable',
};

/** `WebUI_Settings` is JSON text inside the settings; empty or unreadable text means defaults. */
export function parseWebUISettings(text: string | undefined): WebUISettings {
  if (!text) return DEFAULT_WEBUI_SETTINGS;
  try {
    const parsed = JSON.parse(text) as Partial<WebUISettings>;
    if (!parsed || typeof parsed !== 'object') return DEFAULT_WEBUI_SETTINGS;
    return { ...DEFAULT_WEBUI_SETTINGS, ...parsed };
  } catch {
    return DEFAULT_WEBUI_SETTINGS;
  }
}

/** The console's own settings; defaults for users who cannot read server settings (non-admins). */
export function useWebUISettings(enabled = true): WebUISettings {
  const { data } = useSettings(enabled);
  return parseWebUISettings(data?.WebUI_Settings);
}
