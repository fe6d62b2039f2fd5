import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PlexDirectory, PlexLibrariesBody, PlexMediaDevice, PlexServerBody, TraktCode } from '@shoko-ts/contract';
import { api } from './client';
import { settingsKeys, useSaveSettings, type SettingsDocument } from './settings';

export const integrationKeys = {
  traktCode: ['trakt', 'code'] as const,
  plex: ['plex'] as const,
  plexLoginUrl: ['plex', 'loginurl'] as const,
  plexStatus: ['plex', 'status'] as const,
  plexServers: ['plex', 'servers'] as const,
  plexLibraries: ['plex', 'libraries'] as const,
};

/** A Trakt device code; fetched only when asked for (`refetch`), then kept until reset. */
export function useTraktCode() {
  return useQuery({
    queryKey: integrationKeys.traktCode,
    queryFn: ({ signal }) => api.get<TraktCode>('/api/trakt/code', { signal }),
    enabled: false,
    staleTime: Infinity,
    retry: false,
  });
}

/** The app.plex.tv page where the user approves this server; fetched only when asked for. */
export function usePlexLoginUrl() {
  return useQuery({
    queryKey: integrationKeys.plexLoginUrl,
    queryFn: ({ signal }) => api.get<string>('/plex/loginurl', { signal }),
    enabled: false,
    staleTime: Infinity,
    retry: false,
  });
}

/** Whether the signed-in user has a working Plex token; `pollMs` > 0 polls while a login is pending. */
export function usePlexStatus(pollMs = 0) {
  return useQuery({
    queryKey: integrationKeys.plexStatus,
    queryFn: ({ signal }) => api.get<boolean>('/plex/pin/authenticated', { signal }),
    refetchInterval: pollMs > 0 ? pollMs : false,
  });
}

export function usePlexServers(enabled: boolean) {
  return useQuery({
    queryKey: integrationKeys.plexServers,
    queryFn: ({ signal }) => api.get<PlexMediaDevice[]>('/plex/server/list', { signal }),
    enabled,
  });
}

export function usePlexLibraries(enabled: boolean) {
  return useQuery({
    queryKey: integrationKeys.plexLibraries,
    queryFn: ({ signal }) => api.get<PlexDirectory[]>('/plex/libraries', { signal }),
    enabled,
    retry: false,
  });
}

/** Selecting a server is saved at once (the libraries list depends on it). */
export function useSelectPlexServer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (clientIdentifier: PlexServerBody) => api.post<void>('/plex/server', clientIdentifier),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: settingsKeys.all });
      await queryClient.invalidateQueries({ queryKey: integrationKeys.plexLibraries });
    },
  });
}

export function useSetPlexLibraries() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keys: PlexLibrariesBody) => api.post<void>('/plex/libraries', keys),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.all }),
  });
}

/** Unlink: the server forgets the user's token; the console clears the selected server and libraries itself. */
export function useUnlinkPlex() {
  const queryClient = useQueryClient();
  const save = useSaveSettings();
  return useMutation({
    mutationFn: async (saved: SettingsDocument) => {
      await api.get<boolean>('/plex/token/invalidate');
      const plex = (saved.Plex ?? {}) as Record<string, unknown>;
      await save.mutateAsync({ original: saved, changed: { ...saved, Plex: { ...plex, Libraries: [], Server: '' } } });
    },
    // Back to the start: no login URL, status asked again, no servers or libraries.
    onSettled: () => queryClient.resetQueries({ queryKey: integrationKeys.plex }),
  });
}

/** Unlink Trakt: one settings save resetting `TraktTv` (the server then drops the stored tokens). */
export function useUnlinkTrakt() {
  const queryClient = useQueryClient();
  const save = useSaveSettings();
  return useMutation({
    mutationFn: (saved: SettingsDocument) =>
      save.mutateAsync({
        original: saved,
        changed: {
          ...saved,
          TraktTv: {
            ...(saved.TraktTv as object),
            Enabled: false,
            TokenExpirationDate: '',
            SyncFrequency: 1,
            AuthToken: '',
            RefreshToken: '',
            AutoLink: false,
            UpdateFrequency: 4,
          },
        },
      }),
    onSuccess: () => queryClient.resetQueries({ queryKey: integrationKeys.traktCode }),
  });
}
