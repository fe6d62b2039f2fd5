import { send, serviceUrl } from './outbound.js';

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
}

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

  constructor(options: TraktClientOptions = {}) {
    this.baseUrl = (options.baseUrl ?? DEFAULT_TRAKT_URL).replace(/\/+$/, '');
    this.clientId = options.clientId ?? '';
    this.clientSecret = options.clientSecret ?? '';
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
}
