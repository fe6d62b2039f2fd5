import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { closeNow, listenOnLoopback } from './loopback.js';
import {
  defaultTraktCatalogue,
  FakeTraktLibrary,
  type FakeTraktCatalogue,
  type FakeTraktPlay,
  type FakeTraktScrobble,
} from './trakt-library.js';

export { defaultTraktCatalogue } from './trakt-library.js';
export type { FakeTraktCatalogue, FakeTraktPlay, FakeTraktScrobble } from './trakt-library.js';

/**
 * A loopback Trakt API: the OAuth device flow (code, token polling with every documented status, refresh), and with a
 * bearer token the account routes the server uses: search by id, watch history add/remove, watched lists, scrobbles
 * (trakt-library.ts). Trakt's documented limits are enforced: writes (POST/PUT/DELETE) at most one per second and
 * reads at most 1000 per 5 minutes per token; a request over the limit, or one sent before a 429's `Retry-After` ran
 * out, is answered 429 and counted in `violations`. Devices are approved, denied or expired through the returned handle or over HTTP
 * (`POST /__device/{user_code}/approve|deny|expire`), so a browser test can act as the user on trakt.tv.
 */
export interface StartFakeTraktOptions {
  /** 0 (default) = any free port. */
  port?: number;
  /** Required `client_id`; unset accepts any non-empty id. */
  clientId?: string;
  /** Required `client_secret` on token calls; unset accepts any non-empty secret. */
  clientSecret?: string;
  /** Seconds a device code lives (Trakt: 600). Fractions allowed so tests run fast. */
  expiresIn?: number;
  /** Seconds the client must wait between polls (Trakt: 5). Fractions allowed. */
  interval?: number;
  /** `expires_in` of issued access tokens (Trakt: 90 days). */
  tokenLifetime?: number;
  /** Shows and movies the account routes know; default `defaultTraktCatalogue()`. */
  catalogue?: FakeTraktCatalogue;
  /** Minimum seconds between authenticated writes (Trakt: 1). */
  writeInterval?: number;
}

export type FakeTraktDeviceState = 'pending' | 'approved' | 'used' | 'denied' | 'expired';

export interface FakeTraktDevice {
  deviceCode: string;
  userCode: string;
  state: FakeTraktDeviceState;
  expiresAt: number;
  lastPollAt: number;
  polls: number;
}

export interface FakeTraktToken {
  accessToken: string;
  refreshToken: string;
  createdAt: number;
  expiresIn: number;
}

export interface FakeTrakt {
  /** API base, e.g. `http://127.0.0.1:PORT` (give it to the server as `SHOKO_TRAKT_URL`). */
  url: string;
  port: number;
  /** Every request as `METHOD /path`, in arrival order. */
  requests: string[];
  devices: FakeTraktDevice[];
  /** Tokens issued so far (rotated ones stay listed but stop working). */
  tokens: FakeTraktToken[];
  approve(userCode: string): void;
  deny(userCode: string): void;
  expire(userCode: string): void;
  /** Makes the next refresh requests fail with 401 invalid_grant. */
  rejectRefreshes(reject: boolean): void;
  /** A token pair as if a device had been approved (for tests that start linked). */
  issueToken(): FakeTraktToken;
  /** Every access token issued so far stops working (its refresh token still works). */
  revokeAccessTokens(): void;
  catalogue: FakeTraktCatalogue;
  /** The account's watch history (plays), oldest first; tests may add to it directly. */
  history: FakeTraktPlay[];
  /** Scrobble calls in arrival order. */
  scrobbles: FakeTraktScrobble[];
  /** The next `count` authenticated requests are answered 429 with `Retry-After: retryAfter` seconds. */
  rateLimitNext(count: number, retryAfter?: number): void;
  /** Authenticated requests that broke a rate limit or came before a Retry-After ran out. */
  violations: string[];
  close(): Promise<void>;
}

const READ_LIMIT = 1000;
const READ_WINDOW_MS = 5 * 60_000;

const VERIFICATION_PATH = '/activate';

function readBody(request: http.IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => {
      try {
        const parsed = JSON.parse(text || '{}') as unknown;
        resolve(parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {});
      } catch {
        resolve({});
      }
    });
  });
}

const token = (prefix: string) => `${prefix}-${randomBytes(12).toString('hex')}`;

export async function startFakeTrakt(options: StartFakeTraktOptions = {}): Promise<FakeTrakt> {
  const requests: string[] = [];
  const devices: FakeTraktDevice[] = [];
  const tokens: FakeTraktToken[] = [];
  const live = new Set<string>();
  /** Access tokens that no longer authorize requests but whose refresh tokens still rotate. */
  const revoked = new Set<string>();
  const expiresIn = options.expiresIn ?? 600;
  const interval = options.interval ?? 5;
  const tokenLifetime = options.tokenLifetime ?? 7_776_000;
  let refreshRejected = false;
  let origin = '';
  const catalogue = options.catalogue ?? defaultTraktCatalogue();
  const library = new FakeTraktLibrary(catalogue);
  const writeIntervalMs = (options.writeInterval ?? 1) * 1000;
  const violations: string[] = [];
  const reads: number[] = [];
  let lastWrite = 0;
  let blockedUntil = 0;
  let forced = { count: 0, retryAfter: 1 };

  const validClient = (id: unknown) => typeof id === 'string' && id !== '' && (options.clientId === undefined || id === options.clientId);
  const validSecret = (secret: unknown) =>
    typeof secret === 'string' && secret !== '' && (options.clientSecret === undefined || secret === options.clientSecret);

  const issue = () => {
    const issued: FakeTraktToken = {
      accessToken: token('at'),
      refreshToken: token('rt'),
      createdAt: Math.floor(Date.now() / 1000),
      expiresIn: tokenLifetime,
    };
    tokens.push(issued);
    live.add(issued.accessToken);
    return issued;
  };
  const tokenBody = (t: FakeTraktToken) => ({
    access_token: t.accessToken,
    token_type: 'bearer',
    expires_in: t.expiresIn,
    refresh_token: t.refreshToken,
    scope: 'public',
    created_at: t.createdAt,
  });
  const device = (userCode: string) => {
    const found = devices.find((d) => d.userCode === userCode);
    if (!found) throw new Error(`No Trakt device with user code ${userCode}`);
    return found;
  };
  const stateOf = (d: FakeTraktDevice): FakeTraktDeviceState =>
    d.state === 'pending' && Date.now() >= d.expiresAt ? (d.state = 'expired') : d.state;

  const limited = (response: http.ServerResponse, retryAfter: number, remaining: number) => {
    blockedUntil = Date.now() + retryAfter * 1000;
    response.writeHead(429, {
      'Content-Type': 'application/json',
      'Retry-After': String(retryAfter),
      'X-Ratelimit': JSON.stringify({
        name: 'AUTHED_API',
        period: 300,
        limit: READ_LIMIT,
        remaining,
        until: new Date(blockedUntil).toISOString(),
      }),
    });
    response.end('{"error":"rate limit exceeded"}');
  };
  /** Trakt's limits; true when the request was answered 429. */
  const overLimit = (method: string, path: string, response: http.ServerResponse): boolean => {
    const now = Date.now();
    // Timers and sockets are a few milliseconds off either way.
    const slack = 25;
    if (now + slack < blockedUntil) {
      violations.push(`${method} ${path} during a Retry-After`);
      limited(response, Math.ceil((blockedUntil - now) / 1000), 0);
      return true;
    }
    if (forced.count > 0) {
      forced.count--;
      limited(response, forced.retryAfter, 0);
      return true;
    }
    if (method === 'GET') {
      while (reads.length && reads[0] <= now - READ_WINDOW_MS) reads.shift();
      if (reads.length >= READ_LIMIT) {
        violations.push(`${method} ${path} over ${READ_LIMIT} reads in 5 minutes`);
        limited(response, Math.ceil((reads[0] + READ_WINDOW_MS - now) / 1000), 0);
        return true;
      }
      reads.push(now);
      return false;
    }
    if (lastWrite && now - lastWrite + slack < writeIntervalMs) {
      violations.push(`${method} ${path} ${now - lastWrite} ms after the previous write`);
      limited(response, 1, 0);
      return true;
    }
    lastWrite = now;
    return false;
  };

  const send = (response: http.ServerResponse, status: number, body?: unknown) => {
    if (body === undefined) {
      response.writeHead(status).end();
      return;
    }
    response.writeHead(status, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify(body));
  };

  async function handle(request: http.IncomingMessage, response: http.ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const method = request.method ?? 'GET';
    requests.push(`${method} ${url.pathname}`);

    const control = /^\/__device\/([^/]+)\/(approve|deny|expire)$/.exec(url.pathname);
    if (control && method === 'POST') {
      const found = devices.find((d) => d.userCode === control[1]);
      if (!found) return send(response, 404);
      found.state = control[2] === 'approve' ? 'approved' : control[2] === 'deny' ? 'denied' : 'expired';
      return send(response, 204);
    }
    if (url.pathname === VERIFICATION_PATH && method === 'GET') {
      response.writeHead(200, { 'Content-Type': 'text/html' });
      return response.end('<!doctype html><title>Activate</title><h1>Enter the code shown by your app</h1>');
    }

    if (method === 'POST' && url.pathname === '/oauth/device/code') {
      const body = await readBody(request);
      if (!validClient(body.client_id)) return send(response, 401, { error: 'invalid_client' });
      const created: FakeTraktDevice = {
        deviceCode: randomBytes(20).toString('hex'),
        userCode: randomBytes(4).toString('hex').toUpperCase(),
        state: 'pending',
        expiresAt: Date.now() + expiresIn * 1000,
        lastPollAt: 0,
        polls: 0,
      };
      devices.push(created);
      return send(response, 200, {
        device_code: created.deviceCode,
        user_code: created.userCode,
        verification_url: `${origin}${VERIFICATION_PATH}`,
        expires_in: expiresIn,
        interval,
      });
    }

    if (method === 'POST' && url.pathname === '/oauth/device/token') {
      const body = await readBody(request);
      if (!validClient(body.client_id) || !validSecret(body.client_secret)) return send(response, 401, { error: 'invalid_client' });
      const found = devices.find((d) => d.deviceCode === body.code);
      if (!found) return send(response, 404);
      const now = Date.now();
      // A small tolerance: timers fire a few milliseconds early or late.
      const tooFast = found.lastPollAt && now - found.lastPollAt < interval * 1000 * 0.8;
      found.lastPollAt = now;
      found.polls++;
      if (tooFast) return send(response, 429);
      switch (stateOf(found)) {
        case 'pending':
          return send(response, 400);
        case 'used':
          return send(response, 409);
        case 'expired':
          return send(response, 410);
        case 'denied':
          return send(response, 418);
        case 'approved':
          found.state = 'used';
          return send(response, 200, tokenBody(issue()));
      }
    }

    if (method === 'POST' && url.pathname === '/oauth/token') {
      const body = await readBody(request);
      if (!validClient(body.client_id) || !validSecret(body.client_secret)) return send(response, 401, { error: 'invalid_client' });
      if (body.grant_type !== 'refresh_token') return send(response, 400, { error: 'unsupported_grant_type' });
      const current = tokens.find((t) => t.refreshToken === body.refresh_token && live.has(t.accessToken));
      if (!current || refreshRejected)
        return send(response, 401, { error: 'invalid_grant', error_description: 'The provided authorization grant is invalid.' });
      live.delete(current.accessToken);
      return send(response, 200, tokenBody(issue()));
    }

    // Everything else is the authenticated API.
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (
      !request.headers['trakt-api-key'] ||
      request.headers['trakt-api-version'] !== '2' ||
      !bearer ||
      !live.has(bearer) ||
      revoked.has(bearer)
    ) {
      return send(response, 401);
    }
    if (overLimit(method, url.pathname, response)) return;
    if (method === 'GET' && url.pathname === '/users/settings') {
      return send(response, 200, {
        user: { username: 'tester', private: false, name: 'Tester', vip: false },
        account: { timezone: 'UTC' },
      });
    }
    const search = /^\/search\/(trakt|tmdb|tvdb|imdb)\/([^/]+)$/.exec(url.pathname);
    if (method === 'GET' && search)
      return send(response, 200, library.search(search[1], decodeURIComponent(search[2]), url.searchParams.get('type')));
    if (method === 'GET' && url.pathname === '/sync/watched/shows') return send(response, 200, library.watchedShows());
    if (method === 'GET' && url.pathname === '/sync/watched/movies') return send(response, 200, library.watchedMovies());
    if (method === 'POST' && url.pathname === '/sync/history') return send(response, 201, library.add(await readBody(request)));
    if (method === 'POST' && url.pathname === '/sync/history/remove') return send(response, 200, library.remove(await readBody(request)));
    const scrobble = /^\/scrobble\/(start|pause|stop)$/.exec(url.pathname);
    if (method === 'POST' && scrobble) {
      const result = library.scrobble(scrobble[1] as 'start' | 'pause' | 'stop', await readBody(request));
      return result ? send(response, 201, result) : send(response, 404);
    }
    return send(response, 404);
  }

  const server = http.createServer((request, response) => {
    handle(request, response).catch(() => send(response, 500));
  });
  const port = await listenOnLoopback(server, options.port);
  origin = `http://127.0.0.1:${port}`;

  return {
    url: origin,
    port,
    requests,
    devices,
    tokens,
    approve: (userCode) => void (device(userCode).state = 'approved'),
    deny: (userCode) => void (device(userCode).state = 'denied'),
    expire: (userCode) => void (device(userCode).state = 'expired'),
    rejectRefreshes: (reject) => void (refreshRejected = reject),
    issueToken: issue,
    revokeAccessTokens: () => {
      for (const t of tokens) revoked.add(t.accessToken);
    },
    catalogue,
    history: library.history,
    scrobbles: library.scrobbles,
    rateLimitNext: (count, retryAfter = 1) => void (forced = { count, retryAfter }),
    violations,
    close: () => closeNow(server),
  };
}
