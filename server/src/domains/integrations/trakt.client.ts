import { send, serviceUrl, type OutboundReply } from './outbound.js';
import { retryAfterMs, TraktLimiter } from './trakt.limiter.js';

export const DEFAULT_TRAKT_URL = 'https://api.trakt.tv';
/** Trakt's out-of-band redirect, required on the refresh grant. */
const OOB_REDIRECT = 'urn:ietf:wg:oauth:2.0:oob';
const TIMEOUT_MS = 120_000;

export interface TraktDeviceCode {
  deviceCode: string;
  userCode: string;
  verificationUrl: string;
  /** Seconds. */
  expiresIn: number;
  /** Seconds between polls. */
  interval: number;
}

export interface TraktTokens {
  accessToken: string;
  refreshToken: string;
  /** Unix seconds when the access token stops working (created_at + expires_in). */
  expiresAt: number;
}

/** What one poll of the device token told us (Trakt's status codes, external-services.md §3.2). */
export type TraktPollResult =
  | { kind: 'authorized'; tokens: TraktTokens }
  | { kind: 'pending' }
  | { kind: 'slow-down' }
  | { kind: 'invalid' | 'used' | 'expired' | 'denied' };

export interface TraktClientOptions {
  baseUrl?: string;
  clientId?: string;
  clientSecret?: string;
  limiter?: TraktLimiter;
}

/** The ids Trakt accepts for an item; only the known ones are sent. */
export interface TraktIds {
  trakt?: number;
  tmdb?: number;
  tvdb?: number;
}

/** A show or movie Trakt found by id. */
export interface TraktItem {
  traktId: number;
  slug: string;
  title: string;
}

export interface TraktHistoryItems {
  episodes: Array<{ ids: TraktIds; watched_at?: string }>;
  movies: Array<{ ids: TraktIds; watched_at?: string }>;
}

/** One show of `GET /sync/watched/shows`: its ids and the watched episodes by season and number. */
export interface TraktWatchedShow {
  ids: TraktIds;
  episodes: Array<{ season: number; number: number; watchedAt: string | null }>;
}

export interface TraktWatchedMovie {
  ids: TraktIds;
  watchedAt: string | null;
}

export type TraktScrobbleAction = 'start' | 'pause' | 'stop';

/** Trakt refused the access token (401/403): the service refreshes it once and tries again. */
export class TraktAuthError extends Error {}

/** How many times one request is sent again after a 429. */
const RATE_LIMIT_RETRIES = 3;

const idsOf = (value: unknown): TraktIds => {
  const ids = (value ?? {}) as Record<string, unknown>;
  const pick = (key: string) => (typeof ids[key] === 'number' ? (ids[key] as number) : undefined);
  return { trakt: pick('trakt'), tmdb: pick('tmdb'), tvdb: pick('tvdb') };
};

/** Our Trakt application's credentials come from the environment (Shoko compiles its own into the binary). */
export function traktClientFromEnv(env: NodeJS.ProcessEnv = process.env): TraktClient {
  return new TraktClient({
    baseUrl: serviceUrl('SHOKO_TRAKT_URL', DEFAULT_TRAKT_URL, env),
    clientId: env.SHOKO_TRAKT_CLIENT_ID?.trim() ?? '',
    clientSecret: env.SHOKO_TRAKT_CLIENT_SECRET?.trim() ?? '',
  });
}

function tokensOf(text: string): TraktTokens {
  const body = JSON.parse(text) as { access_token?: unknown; refresh_token?: unknown; created_at?: unknown; expires_in?: unknown };
  if (typeof body.access_token !== 'string' || typeof body.refresh_token !== 'string')
    throw new Error('Trakt answered a token without access_token/refresh_token');
  const createdAt = Number(body.created_at);
  const expiresIn = Number(body.expires_in);
  if (!Number.isFinite(createdAt) || !Number.isFinite(expiresIn)) throw new Error('Trakt answered a token without created_at/expires_in');
  return { accessToken: body.access_token, refreshToken: body.refresh_token, expiresAt: createdAt + expiresIn };
}

/** The OAuth part of the Trakt API. OAuth calls carry only Content-Type, as Shoko sends them. */
export class TraktClient {
  readonly baseUrl: string;
  private readonly clientId: string;
  private readonly clientSecret: string;
  private readonly limiter: TraktLimiter;

  constructor(options: TraktClientOptions = {}) {
    this.baseUrl = (options.baseUrl ?? DEFAULT_TRAKT_URL).replace(/\/+$/, '');
    this.clientId = options.clientId ?? '';
    this.clientSecret = options.clientSecret ?? '';
    this.limiter = options.limiter ?? new TraktLimiter();
  }

  /** Without our application's credentials Trakt cannot be asked for anything. */
  get configured(): boolean {
    return this.clientId !== '' && this.clientSecret !== '';
  }

  private post(path: string, body: Record<string, unknown>) {
    return send(`${this.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'shoko-ts' },
      body: JSON.stringify(body),
      timeoutMs: TIMEOUT_MS,
    });
  }

  async requestDeviceCode(): Promise<TraktDeviceCode> {
    const reply = await this.post('/oauth/device/code', { client_id: this.clientId });
    if (reply.status !== 200) throw new Error(`Trakt refused the device code request (HTTP ${reply.status})`);
    const body = JSON.parse(reply.text) as Record<string, unknown>;
    return {
      deviceCode: String(body.device_code ?? ''),
      userCode: String(body.user_code ?? ''),
      verificationUrl: String(body.verification_url ?? ''),
      expiresIn: Number(body.expires_in) || 600,
      interval: Number(body.interval) || 5,
    };
  }

  async pollDeviceToken(deviceCode: string): Promise<TraktPollResult> {
    const reply = await this.post('/oauth/device/token', { code: deviceCode, client_id: this.clientId, client_secret: this.clientSecret });
    switch (reply.status) {
      case 200:
        return { kind: 'authorized', tokens: tokensOf(reply.text) };
      case 404:
        return { kind: 'invalid' };
      case 409:
        return { kind: 'used' };
      case 410:
        return { kind: 'expired' };
      case 418:
        return { kind: 'denied' };
      case 429:
        return { kind: 'slow-down' };
      // 400 is "pending"; anything else (5xx, a proxy's page) is treated the same and tried again.
      default:
        return { kind: 'pending' };
    }
  }

  /** A new token pair, or `null` when Trakt refused the refresh token (the link is gone). Network trouble throws. */
  async refresh(refreshToken: string): Promise<TraktTokens | null> {
    const reply = await this.post('/oauth/token', {
      refresh_token: refreshToken,
      client_id: this.clientId,
      client_secret: this.clientSecret,
      redirect_uri: OOB_REDIRECT,
      grant_type: 'refresh_token',
    });
    if (reply.status === 200 || reply.status === 201) return tokensOf(reply.text);
    if (reply.status >= 400 && reply.status < 500 && reply.status !== 429) return null;
    throw new Error(`Trakt could not refresh the token (HTTP ${reply.status})`);
  }

  /**
   * One call of the account API with the user's token, within Trakt's limits; a 429 pauses every request for its
   * `Retry-After` and is sent again (up to 3 times). 401/403 throw TraktAuthError, other failures an Error.
   */
  private async api(method: 'GET' | 'POST', path: string, token: string, body?: unknown): Promise<OutboundReply> {
    for (let attempt = 0; ; attempt++) {
      const reply = await this.limiter.run(method === 'GET' ? 'read' : 'write', () =>
        send(`${this.baseUrl}${path}`, {
          method,
          headers: {
            'Content-Type': 'application/json',
            'User-Agent': 'shoko-ts',
            'trakt-api-key': this.clientId,
            'trakt-api-version': '2',
            Authorization: `Bearer ${token}`,
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          timeoutMs: TIMEOUT_MS,
        }),
      );
      if (reply.status === 429 && attempt < RATE_LIMIT_RETRIES) {
        this.limiter.pause(retryAfterMs(reply.retryAfter));
        continue;
      }
      if (reply.status === 401 || reply.status === 403) throw new TraktAuthError(`Trakt refused the token (HTTP ${reply.status})`);
      return reply;
    }
  }

  private async json(method: 'GET' | 'POST', path: string, token: string, body?: unknown): Promise<unknown> {
    const reply = await this.api(method, path, token, body);
    if (reply.status < 200 || reply.status >= 300)
      throw new Error(`Trakt answered HTTP ${reply.status} to ${method} ${path.split('?')[0]}`);
    return JSON.parse(reply.text || 'null') as unknown;
  }

  /** `GET /search/{tmdb|tvdb}/{id}?type=show|movie`: the item Trakt has under that id, or null. */
  async findById(token: string, idType: 'tmdb' | 'tvdb', id: number, type: 'show' | 'movie'): Promise<TraktItem | null> {
    const results = await this.json('GET', `/search/${idType}/${id}?type=${type}`, token);
    if (!Array.isArray(results)) return null;
    for (const result of results as Array<Record<string, unknown>>) {
      const item = result[type] as { title?: unknown; ids?: { trakt?: unknown; slug?: unknown } } | undefined;
      if (result.type !== type || typeof item?.ids?.trakt !== 'number') continue;
      return { traktId: item.ids.trakt, slug: String(item.ids.slug ?? ''), title: String(item.title ?? '') };
    }
    return null;
  }

  /** `POST /sync/history`: how many plays Trakt added. */
  async addToHistory(token: string, items: TraktHistoryItems): Promise<{ episodes: number; movies: number }> {
    const body = (await this.json('POST', '/sync/history', token, items)) as { added?: { episodes?: number; movies?: number } } | null;
    return { episodes: Number(body?.added?.episodes ?? 0), movies: Number(body?.added?.movies ?? 0) };
  }

  /** `POST /sync/history/remove`: how many plays Trakt removed. */
  async removeFromHistory(token: string, items: TraktHistoryItems): Promise<{ episodes: number; movies: number }> {
    const body = (await this.json('POST', '/sync/history/remove', token, items)) as {
      deleted?: { episodes?: number; movies?: number };
    } | null;
    return { episodes: Number(body?.deleted?.episodes ?? 0), movies: Number(body?.deleted?.movies ?? 0) };
  }

  async watchedShows(token: string): Promise<TraktWatchedShow[]> {
    const body = await this.json('GET', '/sync/watched/shows', token);
    if (!Array.isArray(body)) return [];
    return (
      body as Array<{ show?: { ids?: unknown }; seasons?: Array<{ number?: unknown; episodes?: Array<Record<string, unknown>> }> }>
    ).map((entry) => ({
      ids: idsOf(entry.show?.ids),
      episodes: (entry.seasons ?? []).flatMap((season) =>
        (season.episodes ?? []).map((episode) => ({
          season: Number(season.number),
          number: Number(episode.number),
          watchedAt: typeof episode.last_watched_at === 'string' ? episode.last_watched_at : null,
        })),
      ),
    }));
  }

  async watchedMovies(token: string): Promise<TraktWatchedMovie[]> {
    const body = await this.json('GET', '/sync/watched/movies', token);
    if (!Array.isArray(body)) return [];
    return (body as Array<{ movie?: { ids?: unknown }; last_watched_at?: unknown }>).map((entry) => ({
      ids: idsOf(entry.movie?.ids),
      watchedAt: typeof entry.last_watched_at === 'string' ? entry.last_watched_at : null,
    }));
  }

  /**
   * `POST /scrobble/{action}` for an episode or movie at `progress` percent: what Trakt did (`start`, `pause`,
   * `scrobble`), or null when it does not know the item (404) or just scrobbled it (409).
   */
  async scrobble(
    token: string,
    action: TraktScrobbleAction,
    item: { episode: TraktIds } | { movie: TraktIds },
    progress: number,
  ): Promise<string | null> {
    const target = 'episode' in item ? { episode: { ids: item.episode } } : { movie: { ids: item.movie } };
    const reply = await this.api('POST', `/scrobble/${action}`, token, { ...target, progress: Math.round(progress * 100) / 100 });
    if (reply.status === 404 || reply.status === 409) return null;
    if (reply.status !== 201 && reply.status !== 200) throw new Error(`Trakt answered HTTP ${reply.status} to a scrobble ${action}`);
    return String((JSON.parse(reply.text || '{}') as { action?: unknown }).action ?? action);
  }
}
