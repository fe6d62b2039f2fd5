import type { FastifyRequest } from 'fastify';
import type { EventBus } from '../events/bus.js';
import type { App } from './types.js';

/**
 * Answers of expensive read endpoints (collection pages, dashboard aggregates), kept for a few seconds and shared by
 * concurrent callers: a page opened by many clients at once costs one query, not one per client. Every change clears
 * it: a successful write request of any kind, and every collection event of the background work. A lifetime of 0 keeps
 * nothing (`SHOKO_READ_CACHE=off`): every request computes its own answer.
 */
export class ReadCache {
  private readonly entries = new Map<string, { expires: number; value: Promise<unknown> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get<T>(key: string, compute: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return compute();
    const hit = this.entries.get(key);
    if (hit && hit.expires > this.now()) return hit.value as Promise<T>;
    const value = compute();
    this.entries.set(key, { expires: this.now() + this.ttlMs, value });
    // A failure is not kept: the next caller asks again.
    value.catch(() => this.entries.delete(key));
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}

/** Requests answered from the cache: per user, per path and query, per body (live filters are POSTed). */
export function readCacheKey(request: FastifyRequest): string {
  const user = request.principal?.kind === 'user' ? request.principal.userId : 0;
  return `${user}|${request.method} ${request.url}|${request.body === undefined ? '' : JSON.stringify(request.body)}`;
}

/** Clears the cache after every successful write and on every collection event; `readOnlyPost` names POSTs that only read. */
export function clearReadCacheOnChanges(app: App, cache: ReadCache, bus: EventBus, readOnlyPost: (url: string) => boolean): void {
  bus.on('shoko', () => cache.clear());
  // Before the answer leaves: a client that reloads right after its write must not get the old page.
  app.addHook('onSend', async (request, reply, payload) => {
    const readOnly =
      request.method === 'GET' ||
      request.method === 'HEAD' ||
      request.method === 'OPTIONS' ||
      (request.method === 'POST' && readOnlyPost(request.routeOptions.url ?? ''));
    if (!readOnly && reply.statusCode < 400) cache.clear();
    return payload;
  });
}
