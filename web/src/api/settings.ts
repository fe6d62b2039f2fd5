import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type {
  Credentials,
  SettingsPatchQuery,
  SupportedLanguage,
  User,
  UserWebUISettings,
  UserWebUISettingsBody,
  WebUISettings,
} from '@shoko-ts/contract';
import { api } from './client';
import { currentUserQuery, useCurrentUser } from './users';

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
  const copy = JSON.parse(JSON.stringify(settings)) as SettingsDocument;
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

async function saveServerSettings({ original, changed, skipValidation = false }: SaveSettings): Promise<void> {
  // Loaded when saving (the settings pages load it with their own code): it is not needed to show a page.
  const { compare } = await import('fast-json-patch');
  const operations = compare(original, changed);
  if (!operations.length) return;
  await api.patch<void>('Settings', operations, { query: { skipValidation } satisfies SettingsPatchQuery });
}

export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveServerSettings,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.all }),
  });
}

/**
 * Whose console settings (`WebUI_Settings`) an account reads and saves: an admin the server's, which Shoko's own
 * console shares; any other account its own (`User/Current/WebUISettings`), as it may not read the server settings.
 */
export type ConsoleSettingsSource = 'server' | 'own';

/**
 * By the account, once known. Before that, server settings already at hand (start-up asks for them) mean an admin, as
 * no one else can read them: the dashboard then starts from its stored layout as it did before accounts had their own.
 */
export const consoleSettingsSource = (user: Pick<User, 'IsAdmin'> | undefined, haveServerSettings = false): ConsoleSettingsSource | null =>
  user ? (user.IsAdmin ? 'server' : 'own') : haveServerSettings ? 'server' : null;

export const ownWebUISettingsQuery = () =>
  queryOptions({
    queryKey: ['users', 'current', 'webui-settings'] as const,
    queryFn: ({ signal }) => api.get<UserWebUISettings>('User/Current/WebUISettings', { signal }),
    staleTime: Infinity,
    retry: false,
  });

/** The account's own settings as a settings document holding only `WebUI_Settings`, so the same readers serve both. */
export const ownDocument = (own: UserWebUISettings): SettingsDocument => ({ WebUI_Settings: own.WebUI_Settings });

/** The console settings document of the signed-in account (see ConsoleSettingsSource), fetched or from the cache. */
export async function fetchConsoleSettings(queryClient: QueryClient): Promise<SettingsDocument> {
  const user = await queryClient.fetchQuery(currentUserQuery());
  if (consoleSettingsSource(user) === 'server') return queryClient.fetchQuery(settingsQuery());
  return ownDocument(await queryClient.fetchQuery(ownWebUISettingsQuery()));
}

/** Saves `changed` where `source` keeps the console settings and brings the cached document up to date. */
export async function saveConsoleSettings(
  queryClient: QueryClient,
  source: ConsoleSettingsSource,
  save: Pick<SaveSettings, 'original' | 'changed'>,
): Promise<void> {
  if (source === 'server') {
    await saveServerSettings(save);
    await queryClient.invalidateQueries({ queryKey: settingsKeys.all });
    return;
  }
  const body: UserWebUISettingsBody = { WebUI_Settings: save.changed.WebUI_Settings || '{}' };
  queryClient.setQueryData(ownWebUISettingsQuery().queryKey, await api.put<UserWebUISettings>('User/Current/WebUISettings', body));
}

/**
 * The console settings document of the signed-in account and its saver: the server settings for an admin, exactly as
 * before; the account's own for anyone else. Nothing is asked until the account is known.
 */
export function useConsoleSettings(enabled = true) {
  const queryClient = useQueryClient();
  const user = useCurrentUser(enabled).data;
  const role = consoleSettingsSource(user);
  const server = useQuery({ ...settingsQuery(), enabled: enabled && role === 'server' });
  const own = useQuery({ ...ownWebUISettingsQuery(), enabled: enabled && role === 'own', select: ownDocument });
  const source = consoleSettingsSource(user, server.data !== undefined);
  const saver = useMutation({
    mutationFn: async (save: Pick<SaveSettings, 'original' | 'changed'>) => {
      if (!source) throw new Error('The console settings cannot be saved before the account is known.');
      await saveConsoleSettings(queryClient, source, save);
    },
  });
  const document = source === 'server' ? server : source === 'own' ? own : null;
  return {
    data: document?.data,
    isSuccess: document?.isSuccess ?? false,
    saving: saver.isPending,
    save: saver.mutateAsync,
  };
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

/** The console's own settings: the server's for admins, the account's own for anyone else (defaults until loaded). */
export function useWebUISettings(enabled = true): WebUISettings {
  const { data } = useConsoleSettings(enabled);
  return parseWebUISettings(data?.WebUI_Settings);
}
