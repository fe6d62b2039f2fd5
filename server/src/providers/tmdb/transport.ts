import type { Logger } from 'pino';
import { TmdbAuthError, TmdbError, TmdbNetworkError, TmdbNotFoundError, TmdbRateLimitError } from './errors.js';
import { systemClock, TmdbRateLimiter, type TmdbClock } from './rate-limiter.js';
import type { TmdbErrorBody } from './types.js';

/** v3 keys go into the `api_key` query parameter; v4 read access tokens into `Authorization: Bearer`. */
export type TmdbAuthMode = 'api_key' | 'bearer';

export type QueryValue = string | number | boolean | undefined;

export interface TmdbTransportOptions {
  baseUrl: string;
  apiKey: string;
  authMode: TmdbAuthMode;
  logger: Logger;
  limiter?: TmdbRateLimiter;
  clock?: TmdbClock;
  /** Whole request, body included. */
  timeoutMs?: number;
  /** How many 429 answers are waited out (each for its Retry-After) before giving up. */
  maxRateLimitRetries?: number;
}

/** Retry-After is honoured up to this long; anything larger is treated as this long so a job cannot hang for hours. */
const MAX_RETRY_AFTER_MS = 120_000;
/** A connection failure or timeout is tried once more; a second failure is reported. */
const NETWORK_RETRIES = 1;

interface RawAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
}

/** Seconds or an HTTP date; missing, zero or unreadable means 1 s (what TMDB's own client library assumes). */
export function retryAfterMs(header: string | null, now: number): number {
  const fallback = 1_000;
  if (!header) return fallback;
  const seconds = Number(header.trim());
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now;
  if (!Number.isFinite(ms) || ms <= 0) return fallback;
  return Math.min(ms, MAX_RETRY_AFTER_MS);
}

/**
 * HTTP for the TMDB API: authentication, rate limiting, timeouts, retries, and TMDB's error bodies turned into
 * typed errors. It knows nothing about individual endpoints.
 */
export class TmdbTransport {
  private readonly limiter: TmdbRateLimiter;
  private readonly clock: TmdbClock;
  private readonly baseUrl: string;

  constructor(private readonly options: TmdbTransportOptions) {
    this.clock = options.clock ?? systemClock;
    this.limiter = options.limiter ?? new TmdbRateLimiter(undefined, this.clock);
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  async getJson<T>(path: string, query: Record<string, QueryValue> = {}): Promise<T> {
    const url = new URL(this.baseUrl + path);
    for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.options.authMode === 'bearer') headers.Authorization = `Bearer ${this.options.apiKey}`;
    else url.searchParams.set('api_key', this.options.apiKey);

    let rateLimitRetriesLeft = this.options.maxRateLimitRetries ?? 3;
    let networkRetriesLeft = NETWORK_RETRIES;
    for (;;) {
      const release = await this.limiter.acquire();
      let answer: RawAnswer;
      try {
        answer = await this.fetchRaw(url, headers);
      } catch (error) {
        if (networkRetriesLeft-- > 0) {
          this.options.logger.warn(`TMDB ${path} failed (${describe(error)}); retrying once`);
          continue;
        }
        throw new TmdbNetworkError(`TMDB ${path} failed: ${describe(error)}`);
      } finally {
        release();
      }

      if (answer.status === 429) {
        if (rateLimitRetriesLeft-- <= 0) throw errorFrom(answer, path, TmdbRateLimitError);
        const waitMs = retryAfterMs(answer.headers.get('retry-after'), this.clock.now());
        this.options.logger.warn(`TMDB rate limit hit on ${path}; waiting ${waitMs} ms`);
        await this.clock.sleep(waitMs);
        continue;
      }
      if (answer.status === 401) throw errorFrom(answer, path, TmdbAuthError);
      if (answer.status === 404) throw errorFrom(answer, path, TmdbNotFoundError);
      if (answer.status < 200 || answer.status > 299) throw errorFrom(answer, path, TmdbError);
      // TMDB always answers JSON; anything else is a proxy or captive portal page, not data.
      if (!/^application\/json\b/i.test(answer.headers.get('content-type') ?? '')) {
        throw new TmdbError(`TMDB ${path} answered ${answer.headers.get('content-type') ?? 'no content type'}, not JSON`, answer.status);
      }
      this.options.logger.debug(`TMDB ${path} -> ${answer.status}`);
      return JSON.parse(answer.body.toString('utf8')) as T;
    }
  }

  /** A file from the image host (no API key, no API rate limit); one retry on network failure. */
  async getBytes(url: string): Promise<{ bytes: Buffer; contentType: string | null }> {
    for (let attempt = 0; ; attempt++) {
      let answer: RawAnswer;
      try {
        answer = await this.fetchRaw(new URL(url), {});
      } catch (error) {
        if (attempt < NETWORK_RETRIES) continue;
        throw new TmdbNetworkError(`TMDB image ${url} failed: ${describe(error)}`);
      }
      if (answer.status === 404) throw new TmdbNotFoundError(`TMDB image ${url} not found`, 404);
      if (answer.status < 200 || answer.status > 299) throw new TmdbError(`TMDB image ${url} answered ${answer.status}`, answer.status);
      return { bytes: answer.body, contentType: answer.headers.get('content-type') };
    }
  }

  private async fetchRaw(url: URL, headers: Record<string, string>): Promise<RawAnswer> {
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000) });
    const body = Buffer.from(await response.arrayBuffer());
    return { status: response.status, headers: response.headers, body };
  }
}

type TmdbErrorKind = new (message: string, httpStatus: number, tmdbStatusCode: number | null) => TmdbError;

function errorFrom(answer: RawAnswer, path: string, Kind: TmdbErrorKind): TmdbError {
  let body: Partial<TmdbErrorBody> = {};
  try {
    body = JSON.parse(answer.body.toString('utf8')) as Partial<TmdbErrorBody>;
  } catch {
    // Not TMDB's JSON error body (e.g. a proxy page); the HTTP status alone has to do.
  }
  // TMDB's own wording is kept as the message: it is what the user needs to see (e.g. "Invalid API key: ...").
  const message = typeof body.status_message === 'string' ? body.status_message : `TMDB ${path} answered HTTP ${answer.status}`;
  const code = typeof body.status_code === 'number' ? body.status_code : null;
  return new Kind(message, answer.status, code);
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
  }
  return String(error);
}
