import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AniDBQueueEstimate, QueueOperation } from '@shoko-ts/contract';
import { api } from './client';

export const queueKeys = {
  items: ['queue', 'items'] as const,
  anidbEstimate: ['queue', 'anidb-estimate'] as const,
};

/** How long the AniDB work in the queue takes at the server's pacing; the pace is slow, so every 30 s is plenty. */
export function useAniDBQueueEstimate() {
  return useQuery({
    queryKey: queueKeys.anidbEstimate,
    queryFn: ({ signal }) => api.get<AniDBQueueEstimate>('Queue/AniDBEstimate', { signal }),
    refetchInterval: 30_000,
  });
}

export function useQueueOperation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (operation: QueueOperation) => api.post<void>(`Queue/${operation}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queueKeys.items }),
  });
}
