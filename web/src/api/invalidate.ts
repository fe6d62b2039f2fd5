import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';

/** Marks every query under these keys stale (those on screen fetch again); resolves once they all have. */
export async function invalidateAll(queryClient: QueryClient, queryKeys: readonly QueryKey[]): Promise<void> {
  await Promise.all(queryKeys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

/**
 * invalidateAll for these keys, as a function: a mutation that returns it from onSuccess stays pending until the
 * lists it changed are fresh.
 */
export function useInvalidate(...queryKeys: readonly QueryKey[]): () => Promise<void> {
  const queryClient = useQueryClient();
  return () => invalidateAll(queryClient, queryKeys);
}
