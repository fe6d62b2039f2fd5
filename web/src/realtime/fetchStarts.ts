import type { Query, QueryCache } from '@tanstack/react-query';

const fetchStarts = new WeakMap<Query, number>();

/** Records when each query's fetch starts (performance.now()), to tell which answers the live feed already covers. */
export function trackFetchStarts(cache: QueryCache) {
  return cache.subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'fetch') fetchStarts.set(event.query, performance.now());
  });
}

/**
 * On connecting, the answers that may have missed an event: those asked for before the connection was established.
 * An answer asked for afterwards is kept current by the events; a query never fetched is fetched when needed.
 */
export function askedBeforeConnection(query: Query, connectedAt: number): boolean {
  const startedAt = fetchStarts.get(query);
  if (startedAt === undefined) return query.state.dataUpdatedAt > 0 || query.state.fetchStatus === 'fetching';
  return startedAt <= connectedAt;
}
