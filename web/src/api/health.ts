import { useQuery } from '@tanstack/react-query';
import type { HealthReport } from '@shoko-ts/contract';
import { api } from './client';

export const healthKeys = {
  report: ['health', 'report'] as const,
};

/** `GET /healthz`: the data disk's free space and whether it is full; asked every 30 s, every 5 s while it is full. */
export function useServerHealth() {
  return useQuery({
    queryKey: healthKeys.report,
    queryFn: ({ signal }) => api.get<HealthReport>('/healthz', { signal }),
    refetchInterval: (query) => (query.state.data?.DataDisk.Full ? 5_000 : 30_000),
    retry: false,
  });
}
