import type { Logger } from 'pino';
import { badRequest } from '../../http/problem.js';
import { pickTmdbApiKey, TmdbClient } from '../../providers/tmdb/index.js';
import type { SettingsService } from '../settings/index.js';

/** Why a TMDB feature did nothing: shown in job logs and API answers. */
export const TMDB_KEY_MISSING = 'TMDB is not set up: no TMDB API key is configured (settings TMDB.UserApiKey), so TMDB features are off.';

export class TmdbKeyMissingError extends Error {
  constructor() {
    super(TMDB_KEY_MISSING);
  }
}

/** Work done now needs the key: its absence is the caller's to fix (400). */
export function rethrowKeyMissing(error: unknown): never {
  if (error instanceof TmdbKeyMissingError) throw badRequest(error.message);
  throw error;
}

/**
 * Hands out the TMDB client for the current `TMDB.UserApiKey`. There is no built-in key: without the user's key every
 * TMDB feature stays off and nothing is sent to TMDB. One client per key, so its rate limiter and genre cache are shared.
 */
export class TmdbApi {
  private cached: { key: string; client: TmdbClient } | null = null;

  constructor(
    private readonly settings: SettingsService,
    private readonly logger: Logger,
  ) {}

  get enabled(): boolean {
    return this.apiKey() !== null;
  }

  client(): TmdbClient | null {
    const key = this.apiKey();
    if (!key) return null;
    if (this.cached?.key !== key) this.cached = { key, client: new TmdbClient({ apiKey: key, logger: this.logger }) };
    return this.cached.client;
  }

  requireClient(): TmdbClient {
    const client = this.client();
    if (!client) throw new TmdbKeyMissingError();
    return client;
  }

  private apiKey(): string | null {
    return pickTmdbApiKey(this.settings.current.TMDB.UserApiKey, null);
  }
}
