import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from '@/api/client';
import { clearSession } from '@/lib/session';

declare module '@tanstack/react-query' {
  interface Register {
    /** `inlineErrors`: the page shows the failure itself, so no toast. */
    mutationMeta: { inlineErrors?: boolean };
  }
}

/** Queries whose 401 means the stored key is no longer valid. */
function ownsSession(queryKey: readonly unknown[]): boolean {
  return queryKey[0] === 'settings' && queryKey.length === 1 ? true : queryKey[0] === 'users' && queryKey[1] === 'current';
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (isApiError(error, 401) && ownsSession(query.queryKey)) clearSession();
      },
    }),
    // The one place failed mutations become toasts.
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (mutation.meta?.inlineErrors) return;
        // react-toastify is not in the entry (app/Toasts.tsx); by the time a mutation fails a page has loaded it.
        void import('react-toastify').then(({ toast }) => toast.error(error.message));
      },
    }),
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        retry: (count, error) => !isApiError(error) || (error.status >= 500 && error.status !== 503 && count < 3),
      },
    },
  });
}

/** The console's one client: the router's loaders start requests in it before a page is drawn. */
export const queryClient = createQueryClient();
