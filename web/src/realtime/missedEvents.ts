import type { Query, QueryClient, QueryKey } from '@tanstack/react-query';
import { answerRevision } from '@/api/client';
import { askedBeforeConnection } from './fetchStarts';

/** The lowest event revision an answer was read at (of each page, for a list loaded page by page); null when unknown. */
export function dataRevision(data: unknown): number | null {
  const own = answerRevision(data);
  if (own !== null) return own;
  const pages = (data as { pages?: unknown } | null | undefined)?.pages;
  if (!Array.isArray(pages) || !pages.length) return null;
  let lowest = Infinity;
  for (const page of pages) {
    const revision = answerRevision(page);
    if (revision === null) return null;
    lowest = Math.min(lowest, revision);
  }
  return lowest;
}

/**
 * When the live feed connects at event revision `revision`: the answers under `keys` asked for before that were read
 * at a lower revision may predate an event the feed never delivered, and are asked for again; the others are current.
 * An answer still on its way is judged when it arrives. The function returned stops waiting for those.
 */
export function refreshMissedEvents(queryClient: QueryClient, keys: readonly QueryKey[], revision: number): () => void {
  const connectedAt = performance.now();
  const cache = queryClient.getQueryCache();
  const missed = (query: Query) => {
    const read = dataRevision(query.state.data);
    return read === null || read < revision;
  };
  const stale = new Set<Query>();
  const arriving = new Set<Query>();
  for (const key of keys)
    for (const query of cache.findAll({ queryKey: key })) {
      if (!askedBeforeConnection(query, connectedAt)) continue;
      if (query.state.fetchStatus === 'fetching') arriving.add(query);
      else if (missed(query)) stale.add(query);
    }
  const refresh = (queries: Set<Query>) => {
    if (queries.size) void queryClient.invalidateQueries({ predicate: (query) => queries.has(query) });
  };
  refresh(stale);
  if (!arriving.size) return () => undefined;

  const unsubscribe = cache.subscribe((event) => {
    const { query } = event;
    if (event.type !== 'updated' || !arriving.has(query) || query.state.fetchStatus === 'fetching') return;
    arriving.delete(query);
    if (missed(query)) refresh(new Set([query]));
    if (!arriving.size) unsubscribe();
  });
  return unsubscribe;
}
