import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ShokoImportReport, ShokoImportRequest, ShokoImportStatus } from '@shoko-ts/contract';
import { api, isApiError } from './client';

/** Moving from Shoko Server (`/api/v3/ShokoImport/*`, our extension): open only while the install has no accounts. */
export const shokoImportKeys = {
  all: ['shoko-import'] as const,
  status: ['shoko-import', 'status'] as const,
};

/**
 * The running or last import. `null` when the server no longer shows it to us: once it has started, the status is for
 * admins only, and the first run's visitor has no key yet. `poll` gives the refetch interval for the status at hand.
 */
export function useShokoImportStatus(poll: (status: ShokoImportStatus | null | undefined) => number | false) {
  return useQuery({
    queryKey: shokoImportKeys.status,
    queryFn: async ({ signal }) => {
      try {
        return await api.get<ShokoImportStatus>('ShokoImport/Status', { signal });
      } catch (error) {
        if (isApiError(error, 401) || isApiError(error, 403)) return null;
        throw error;
      }
    },
    refetchInterval: (query) => poll(query.state.data),
    retry: false,
  });
}

/** What the import would bring over, without writing anything. Refusals are shown by the form, next to their field. */
export function useShokoImportDryRun() {
  return useMutation({
    mutationFn: (request: ShokoImportRequest) => api.post<ShokoImportReport>('ShokoImport/DryRun', request),
    meta: { inlineErrors: true },
  });
}

/** Starts the import in the background (202); its progress then comes from the status and the hub. */
export function useStartShokoImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: ShokoImportRequest) => api.post<ShokoImportStatus>('ShokoImport/Start', request),
    onSuccess: (status) => setShokoImportStatus(queryClient, status),
    meta: { inlineErrors: true },
  });
}

/** The hub's progress events land in the same cache entry as the polled status. */
export function setShokoImportStatus(queryClient: QueryClient, status: ShokoImportStatus) {
  queryClient.setQueryData(shokoImportKeys.status, status);
}
