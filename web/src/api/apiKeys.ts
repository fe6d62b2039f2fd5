import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApikeyResult, DeviceOrKeyBody } from '@shoko-ts/contract';
import { api } from './client';

/** The signed-in user's API keys, one per device name (the server lists only the caller's own). */
export const apiKeyKeys = { all: ['api-keys'] as const };

export function useApiKeys() {
  return useQuery({ queryKey: apiKeyKeys.all, queryFn: ({ signal }) => api.get<ApikeyResult[]>('/api/auth', { signal }) });
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (device: DeviceOrKeyBody) => api.post<string>('/api/auth/apikey', device),
    meta: { inlineErrors: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}

export function useDeleteApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (device: DeviceOrKeyBody) => api.delete<void>('/api/auth', device),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}
