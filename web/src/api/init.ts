import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { ComponentVersionSet, ConnectivityDetails, Credentials, ServerStatus } from '@shoko-ts/contract';
import { api } from './client';
import { PREFETCHED_FRESH_MS } from './fresh';

export const initKeys = {
  version: ['init', 'version'] as const,
  status: ['init', 'status'] as const,
  defaultUser: ['init', 'default-user'] as const,
};

/**
 * Startup state; polls every 500 ms while `poll(state)` says so (unknown or still starting, by default). The answer
 * asked for at start-up stays fresh a moment, so the gate drawn once the page's code is in does not ask again.
 */
export const serverStatusQuery = () =>
  queryOptions({
    queryKey: initKeys.status,
    queryFn: ({ signal }) => api.get<ServerStatus>('Init/Status', { signal }),
    retry: false,
    staleTime: PREFETCHED_FRESH_MS,
  });

export function useServerStatus(poll: (status: ServerStatus | undefined) => boolean = (s) => !s || s.State === 'Starting') {
  return useQuery({ ...serverStatusQuery(), refetchInterval: (query) => (poll(query.state.data) ? 500 : false) });
}

export const serverVersionQuery = () =>
  queryOptions({
    queryKey: initKeys.version,
    queryFn: ({ signal }) => api.get<ComponentVersionSet>('Init/Version', { signal }),
    staleTime: Infinity,
  });

export function useServerVersion() {
  return useQuery(serverVersionQuery());
}

export function useDefaultUser() {
  return useQuery({
    queryKey: initKeys.defaultUser,
    queryFn: ({ signal }) => api.get<Credentials>('Init/DefaultUser', { signal }),
    retry: false,
    staleTime: Infinity,
  });
}

export function useSaveDefaultUser() {
  return useMutation({
    mutationFn: (credentials: Credentials) => api.post<void>('Init/DefaultUser', credentials),
    meta: { inlineErrors: true },
  });
}

export function useStartServer() {
  return useMutation({ mutationFn: () => api.get<void>('Init/StartServer') });
}

export function useCheckConnectivity() {
  return useMutation({ mutationFn: () => api.post<ConnectivityDetails>('Init/Connectivity') });
}
