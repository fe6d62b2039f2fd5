import { gunzipSync } from 'node:zlib';
import type { Logger } from 'pino';
import { backoffPauseMs } from '../udp/backoff.js';
import { systemClock } from '../udp/rate-limiter.js';
import { AnimeXmlCache } from './anime-cache.js';
import { parseAnimeXml } from './anime-xml.js';
import { HttpBanTracker, type AniDBHttpBanListener, type AniDBHttpBanState } from './ban-state.js';
import {
  AniDBAnimeTooSoonError,
  AniDBHttpBannedError,
  AniDBHttpError,
  AniDBHttpRequestError,
  AniDBInvalidAnimeXmlError,
} from './errors.js';
import type { AniDBAnime } from './model.js';
import { ANIDB_HTTP_PACING, HttpRateLimiter, type HttpPacing } from './rate-limit.js';
import { errorFromReply, errorReply, isBannedReply } from './replies.js';

/** Per-anime request times (ms since the epoch). */
export interface AnimeRequestLog {
  last(animeId: number): Promise<number | null>;
  record(animeId: number, at: number): Promise<void>;
}

/** A request log that lives as long as the object: for tests and clients without a database. */
export function memoryRequestLog(): AnimeRequestLog {
  const times = new Map<number, number>();
  return {
    last: async (animeId) => times.get(animeId) ?? null,
    record: async (animeId, at) => void times.set(animeId, at),
  };
}

export interface AniDBHttpClientOptions {
  /** Settings `AniDb.HTTPServerUrl`, e.g. `http://api.anidb.net:9001`; `/httpapi` is appended. */
  baseUrl: string;
  /** The registered client name and version; AniDB answers unregistered clients with error 302. */
  clientName: string;
  clientVersion: number;
  /** Where `AnimeDoc_<aid>.xml` files are kept. */
  cacheDir: string;
  logger: Logger;
  pacing?: HttpPacing;
  /** The process-wide HTTP pacing; clients rebuilt after a settings save pass the same one. */
  limiter?: HttpRateLimiter;
  /** The process-wide HTTP ban; survives rebuilt clients (and, through its owner, restarts). */
  ban?: HttpBanTracker;
  /**
   * A cached anime younger than this is returned without asking AniDB (settings `MinimumHoursToRedownloadAnimeInfo`).
   * Never less than 24 h, and `force` cannot go below 24 h either: AniDB allows one request per anime a day.
   */
  minimumHoursToRedownload?: number;
  /** When each anime was last requested; the owner keeps it across rebuilt clients and restarts. */
  requestLog?: AnimeRequestLog;
  /** Clock for cache ages, ban expiry and the rate limiter. */
  now?: () => number;
  /** How long a ban stops all requests (Shoko: 12 h). */
  banDurationMs?: number;
  /** Per attempt (Shoko: 20 s). */
  timeoutMs?: number;
}

/** AniDB: requesting the same anime more than once a day can get a client banned. */
export const ANIME_MIN_REQUEST_INTERVAL_MS = 24 * 60 * 60_000;
const DEFAULT_MINIMUM_HOURS_TO_REDOWNLOAD = 24;
const DEFAULT_BAN_DURATION_MS = 12 * 60 * 60_000;
const DEFAULT_TIMEOUT_MS = 20_000;
const GZIP_MAGIC = [0x1f, 0x8b];

/**
 * The AniDB HTTP API (anime records): one request at a time through the rate limiter, every record cached on disk,
 * and a ban turned into a long pause during which cached records are still served.
 */
export class AniDBHttpClient {
  private readonly limiter: HttpRateLimiter;
  private readonly ban: HttpBanTracker;
  private readonly cache: AnimeXmlCache;
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly ownsBan: boolean;
  private readonly requestLog: AnimeRequestLog;
  /** The lookup of each anime in flight, and whether it was forced. */
  private readonly inFlight = new Map<number, { force: boolean; lookup: Promise<AniDBAnime> }>();

  constructor(private readonly options: AniDBHttpClientOptions) {
    this.logger = options.logger;
    this.now = options.now ?? Date.now;
    this.limiter = options.limiter ?? new HttpRateLimiter(options.pacing ?? ANIDB_HTTP_PACING, { now: this.now, sleep: systemClock.sleep });
    this.ban = options.ban ?? new HttpBanTracker(this.now);
    this.ownsBan = !options.ban;
    this.cache = new AnimeXmlCache(options.cacheDir);
    this.requestLog = options.requestLog ?? memoryRequestLog();
  }

  get banState(): AniDBHttpBanState {
    return this.ban.state;
  }

  /** Every ban start and end; returns the function that unsubscribes. */
  onBanChange(listener: AniDBHttpBanListener): () => void {
    return this.ban.onChange(listener);
  }

  /**
   * The anime record: from the disk cache while it is fresh (unless `force`), otherwise from AniDB. During a ban
   * the cached copy is returned whatever its age; without one the call fails with `AniDBHttpBannedError`.
   */
  getAnime(animeId: number, options: { force?: boolean } = {}): Promise<AniDBAnime> {
    if (!Number.isInteger(animeId) || animeId <= 0) return Promise.reject(new RangeError(`Invalid AniDB anime id ${animeId}`));
    const force = options.force ?? false;
    // Whoever asks (a forced refresh, a queued import, an immediate one), one anime has one lookup in flight: asking
    // twice is exactly what gets clients banned. A forced call that meets an unforced lookup runs after it, and then
    // finds the copy it just downloaded (AniDB's day rule) unless that lookup used an older cached one.
    const pending = this.inFlight.get(animeId);
    if (pending && (pending.force || !force)) return pending.lookup;
    const after = pending ? pending.lookup.catch(() => undefined) : Promise.resolve();
    const entry = { force, lookup: after.then(() => this.lookUp(animeId, force)) };
    entry.lookup = entry.lookup.finally(() => {
      if (this.inFlight.get(animeId) === entry) this.inFlight.delete(animeId);
    });
    this.inFlight.set(animeId, entry);
    return entry.lookup;
  }

  /** Stops the ban timer and drops listeners, unless the ban tracker was handed in (its owner keeps it). */
  close(): void {
    if (this.ownsBan) this.ban.dispose();
  }

  private async lookUp(animeId: number, force: boolean): Promise<AniDBAnime> {
    const cached = await this.cache.read(animeId);
    const logged = (await this.requestLog.last(animeId)) ?? 0;
    const age = this.now() - Math.max(cached?.savedAt ?? 0, logged);
    const settingMs = (this.options.minimumHoursToRedownload ?? DEFAULT_MINIMUM_HOURS_TO_REDOWNLOAD) * 60 * 60_000;
    // `force` only shortens the wait to AniDB's one day; nothing goes below that.
    const maxAgeMs = force ? ANIME_MIN_REQUEST_INTERVAL_MS : Math.max(ANIME_MIN_REQUEST_INTERVAL_MS, settingMs);
    if (age < maxAgeMs) {
      const anime = cached ? this.parseCached(animeId, cached.xml) : null;
      if (anime) {
        if (force)
          this.logger.info(
            `Not asking AniDB for anime ${animeId} again: it was downloaded ${Math.round(age / 60_000)} min ago and AniDB allows one request a day; using the cached copy`,
          );
        return anime;
      }
      if (this.now() - logged < ANIME_MIN_REQUEST_INTERVAL_MS) {
        const next = new Date(logged + ANIME_MIN_REQUEST_INTERVAL_MS).toISOString();
        this.logger.warn(
          `AniDB anime ${animeId} was requested less than a day ago and there is no usable cached copy; next request after ${next}`,
        );
        throw new AniDBAnimeTooSoonError(`AniDB anime ${animeId} was requested less than a day ago; next request after ${next}`);
      }
    }
    if (this.ban.state.banned) return this.cachedDuringBan(animeId, cached?.xml);
    this.assertNotPaused(animeId);
    return this.serialised(() => this.download(animeId, cached?.xml));
  }

  private async download(animeId: number, cachedXml: string | undefined): Promise<AniDBAnime> {
    // A request queued before the ban must not go out after it.
    if (this.ban.state.banned) return this.cachedDuringBan(animeId, cachedXml);
    this.assertNotPaused(animeId);
    let body: string;
    try {
      body = await this.request(animeId);
    } catch (error) {
      if (error instanceof AniDBHttpRequestError) this.backOff(error.message);
      throw error;
    }
    this.ban.failureStreak = 0;
    if (isBannedReply(body)) {
      const reason = `AniDB HTTP ban: ${errorReply(body)?.message || 'banned'}`;
      const pauseMs = this.options.banDurationMs ?? DEFAULT_BAN_DURATION_MS;
      this.ban.raise(reason, pauseMs);
      this.logger.error(`AniDB banned this client's HTTP requests; none for ${Math.round(pauseMs / 60_000)} min`);
      return this.cachedDuringBan(animeId, cachedXml);
    }
    // AniDB counted this request, whatever it answered.
    await this.requestLog.record(animeId, this.now());
    const error = errorReply(body);
    if (error) throw errorFromReply(error, animeId);
    const anime = parseAnimeXml(body);
    if (anime.id !== animeId) throw new AniDBInvalidAnimeXmlError(`Asked AniDB for anime ${animeId}, got anime ${anime.id}`);
    await this.cache.write(animeId, body);
    this.logger.info(`Fetched AniDB anime ${animeId} (${anime.mainTitle})`);
    return anime;
  }

  /** GET with one retry on network failure or timeout; the ban check needs the body whatever the status. */
  private async request(animeId: number): Promise<string> {
    const url = this.animeUrl(animeId);
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    let lastError: unknown;
    for (let attempt = 0; attempt < 2; attempt++) {
      await this.limiter.beforeSend();
      try {
        const response = await fetch(url, {
          headers: { 'Accept-Encoding': 'gzip, deflate', 'User-Agent': `${this.options.clientName}/${this.options.clientVersion}` },
          signal: AbortSignal.timeout(timeoutMs),
        });
        const body = decodeBody(Buffer.from(await response.arrayBuffer()));
        if (!response.ok && !isBannedReply(body)) {
          throw new AniDBHttpRequestError(`AniDB answered HTTP ${response.status} for anime ${animeId}`, response.status);
        }
        return body;
      } catch (error) {
        if (error instanceof AniDBHttpError) throw error;
        lastError = error;
        this.logger.warn(`AniDB HTTP request for anime ${animeId} failed (${describe(error)})${attempt === 0 ? '; trying once more' : ''}`);
      } finally {
        // The next gap counts from the end of this request, answered or not.
        this.limiter.finished();
      }
    }
    throw new AniDBHttpRequestError(`AniDB HTTP request for anime ${animeId} failed: ${describe(lastError)}`);
  }

  /** Failed requests in a row pause every HTTP request for 30 s, 1 min, 2 min … up to 2 h, instead of each job retrying. */
  private backOff(reason: string): void {
    const streak = ++this.ban.failureStreak;
    const pauseMs = backoffPauseMs(streak);
    const until = this.now() + pauseMs;
    this.ban.pauseUntil(reason, until);
    this.logger.warn(
      `${reason}; pausing AniDB HTTP requests for ${Math.round(pauseMs / 1000)} s, until ${new Date(until).toISOString()} (failure ${streak} in a row)`,
    );
  }

  private assertNotPaused(animeId: number): void {
    const pause = this.ban.pause;
    if (pause)
      throw new AniDBHttpRequestError(
        `AniDB HTTP requests are paused after failures; anime ${animeId} can be asked for in ${Math.ceil((pause.until - this.now()) / 1000)} s`,
      );
  }

  private animeUrl(animeId: number): string {
    const query = new URLSearchParams({
      request: 'anime',
      client: this.options.clientName,
      clientver: String(this.options.clientVersion),
      protover: '1',
      aid: String(animeId),
    });
    return `${this.options.baseUrl.replace(/\/+$/, '')}/httpapi?${query}`;
  }

  private cachedDuringBan(animeId: number, cachedXml: string | undefined): AniDBAnime {
    const anime = cachedXml === undefined ? null : this.parseCached(animeId, cachedXml);
    const { reason, until } = this.ban.state;
    if (!anime)
      throw new AniDBHttpBannedError(
        `${reason ?? 'AniDB HTTP ban'}; no cached copy of anime ${animeId} (requests resume ${until?.toISOString() ?? 'later'})`,
      );
    this.logger.info(`AniDB HTTP is banned; using the cached copy of anime ${animeId}`);
    return anime;
  }

  /** A damaged cache file counts as no cache file. */
  private parseCached(animeId: number, xml: string): AniDBAnime | null {
    try {
      return parseAnimeXml(xml);
    } catch (error) {
      this.logger.warn(`Ignoring the unreadable cached copy of AniDB anime ${animeId}: ${describe(error)}`);
      return null;
    }
  }

  /** One request at a time, also across rebuilt clients: AniDB counts concurrent requests against the limit too. */
  private serialised<T>(work: () => Promise<T>): Promise<T> {
    return this.limiter.exclusive(work);
  }
}

/** fetch undoes `Content-Encoding: gzip`, but AniDB may send a gzip body without that header. */
export function decodeBody(bytes: Buffer): string {
  const gzipped = bytes.length > 2 && bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1];
  return (gzipped ? gunzipSync(bytes) : bytes).toString('utf8');
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
