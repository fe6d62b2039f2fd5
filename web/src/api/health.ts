import { useQuery } from '@tanstack/react-query';
import type { HealthReport } from '@shoko-ts/contract';
import { api, isApiError } from './client';

export const healthKeys = {
  report: ['health', 'report'] as const,
};

/**
 * `GET /healthz`. An unhealthy server (its database does not answer) answers 503 with the report itself, which is
 * what the console shows then; any other failure is thrown.
 */
export async function fetchServerHealth(signal?: AbortSignal): Promise<HealthReport> {
  try {
    return await api.get<HealthReport>('/healthz', { signal });
  } catch (error) {
    const body = isApiError(error, 503) ? (error.body as Partial<HealthReport> | undefined) : undefined;
    if (body && typeof body === 'object' && body.Status === 'Unhealthy' && body.Database) return body as HealthReport;
    throw error;
  }
}

/**
 * The server's health: asked every 30 s, every 5 s while its data disk is full or its database does not answer; the
 * first time once `enabled`.
 */
export function useServerHealth(enabled = true) {
  return useQuery({
    queryKey: healthKeys.report,
    queryFn: ({ signal }) => fetchServerHealth(signal),
    enabled,
    refetchInterval: (query) => (query.state.data?.DataDisk.Full || query.state.data?.Database.Reachable === false ? 5_000 : 30_000),
    retry: false,
  });
}
