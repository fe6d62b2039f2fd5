import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { QueueOperation } from '@shoko-ts/contract';
import { api } from './client';

export const queueKeys = {
  items: ['queue', 'items'] as const,
};

export function useQueueOperation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (operation: QueueOperation) => api.post<void>(`Queue/${operation}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queueKeys.items }),
  });
}
