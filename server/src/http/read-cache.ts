import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EventBus } from '../events/bus.js';
import type { App } from './types.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's answers are kept by the read cache (below): a read whose result changes only with the collection. */
    readCache?: boolean;
  }
}

/** A serialized answer, sent again as it is. */
export interface CachedAnswer {
  payload: string;
  contentType: string;
}

/** What `claim` gives: the answer kept or being computed by another request, or the duty to compute it. */
export type CacheClaim = { answer: Promise<CachedAnswer | null> } | { finish: (answer: CachedAnswer | null) => void };

/**
 * Serialized answers of read routes (collection pages, group and series pages, dashboard widgets), kept for a few
 * seconds and shared by concurrent callers: a page opened by many clients at once is computed and serialized once, and
 * a repeat skips validation, the handler and serialization. Every change clears it: a successful write request of any
 * kind, every collection or watch-state event and the end of every background job. A lifetime of 0 keeps nothing
 * (`SHOKO_READ_CACHE=off`): every request computes its own answer.
 */
export class ReadCache {
  private readonly entries = new Map<string, { expires: number; answer: Promise<CachedAnswer | null> }>();
  private readonly clearListeners: Array<() => void> = [];

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    private readonly sweepAbove = 2000,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** The kept answer of `key`, or — when there is none, or it expired — the duty to compute it and call `finish`. */
  claim(key: string): CacheClaim {
    const now = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return { answer: hit.answer };
    if (this.entries.size >= this.sweepAbove) this.sweep(now);
    let resolve!: (answer: CachedAnswer | null) => void;
    const answer = new Promise<CachedAnswer | null>((r) => (resolve = r));
    const entry = { expires: now + this.ttlMs, answer };
    this.entries.set(key, entry);
    let finished = false;
    return {
      finish: (result) => {
        if (finished) return;
        finished = true;
        resolve(result);
        // A failure is not kept: the next caller computes again.
        if (!result && this.entries.get(key) === entry) this.entries.delete(key);
      },
    };
  }

  clear(): void {
    this.entries.clear();
    for (const listener of this.clearListeners) listener();
  }

  /** Also told of every clear (even with a lifetime of 0): what else keeps figures that change with the collection. */
  onClear(listener: () => void): void {
    this.clearListeners.push(listener);
  }

  get size(): number {
    return this.entries.size;
  }

  private sweep(now: number): void {
    for (const [key, entry] of this.entries) if (entry.expires <= now) this.entries.delete(key);
  }
}

/** Requests answered from the cache: per user, per path and query, per body (live filters are POSTed). */
export function readCacheKey(request: FastifyRequest): string {
  const user = request.principal?.kind === 'user' ? request.principal.userId : 0;
  return `${user}|${request.method} ${request.url}|${request.body === undefined ? '' : JSON.stringify(request.body)}`;
}

const computing = new WeakMap<FastifyRequest, (answer: CachedAnswer | null) => void>();

/**
 * Serves routes marked `config.readCache` from `cache` (after authentication and validation, before the handler),
 * keeps their 200 answers, and clears the cache after every successful write and on every change event;
 * `readOnlyPost` names POSTs that only read (they neither clear the cache nor are refused by it).
 */
export function registerReadCache(app: App, cache: ReadCache, bus: EventBus, readOnlyPost: (url: string) => boolean): void {
  bus.on('shoko', () => cache.clear());
  bus.on('watched:changed', () => cache.clear());
  bus.on('playback', () => cache.clear());
  // Background work that changes the collection without an event of its own (metadata, images, links) runs as jobs;
  // one that failed without writing (an AniDB lookup while AniDB is unreachable) changed nothing.
  bus.on('job:finished', (job) => job.changed !== false && cache.clear());

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!cache.enabled || request.routeOptions.config?.readCache !== true) return;
    if (request.method !== 'GET' && request.method !== 'POST') return;
    const claim = cache.claim(readCacheKey(request));
    if ('finish' in claim) {
      computing.set(request, claim.finish);
      return;
    }
    const answer = await claim.answer;
    // The request that computed it failed: this one answers on its own (and is not kept either).
    if (!answer) return;
    reply.header('content-type', answer.contentType);
    return reply.send(answer.payload);
  });

  const finish = (request: FastifyRequest, answer: CachedAnswer | null) => {
    const done = computing.get(request);
    if (!done) return;
    computing.delete(request);
    done(answer);
  };
  app.addHook('onSend', async (request, reply, payload) => {
    const readOnly =
      request.method === 'GET' ||
      request.method === 'HEAD' ||
      request.method === 'OPTIONS' ||
      (request.method === 'POST' && readOnlyPost(request.routeOptions.url ?? ''));
    // Before the answer leaves: a client that reloads right after its write must not get the old page.
    if (!readOnly && reply.statusCode < 400) cache.clear();
    const contentType = reply.getHeader('content-type');
    finish(
      request,
      reply.statusCode === 200 && typeof payload === 'string' && typeof contentType === 'string' ? { payload, contentType } : null,
    );
    return payload;
  });
  // Waiters never hang on a request that ended without an answer (an aborted connection).
  app.addHook('onResponse', async (request) => finish(request, null));
}
