import { useMutation, useQuery } from '@tanstack/react-query';
import type { ComponentVersion } from '@shoko-ts/contract';
import { api } from './client';

export function useForceStableUpdate() {
  return useMutation({
    mutationFn: () => api.post<void>('WebUI/Update', undefined, { query: { channel: 'Stable' } }),
    meta: { inlineErrors: true },
  });
}

/** Latest console release on a channel; quietly empty when the server cannot tell (offline, not implemented). */
export function useLatestWebUIVersion(channel: string, enabled: boolean) {
  return useQuery({
    queryKey: ['webui', 'latest', { channel }],
    queryFn: async ({ signal }) => {
      try {
        return await api.get<ComponentVersion>('WebUI/LatestVersion', { query: { channel }, signal });
      } catch {
        return null;
      }
    },
    enabled,
    staleTime: 60 * 60_000,
    retry: false,
  });
}
