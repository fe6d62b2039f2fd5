import type { Logger } from 'pino';
import type { TraktCode } from '@shoko-ts/contract';
import type { EventBus } from '../../events/bus.js';
import { badRequest, emptyError } from '../../http/problem.js';
import type { SettingsService } from '../settings/index.js';
import { TraktAuthError, type TraktClient, type TraktTokens } from './trakt.client.js';

/** Where the last device-code flow stands; `polling` while the server waits for the user on trakt.tv. */
export type TraktFlowState = 'idle' | 'polling' | 'linked' | 'denied' | 'expired' | 'failed';

/** Tokens are refreshed once they expire within this window (Shoko: 6 hours). */
const REFRESH_WINDOW_S = 6 * 3600;
/** How often the token is checked (Shoko's "Check and Refresh Trakt Token" job: hourly). */
export const TOKEN_CHECK_INTERVAL_MS = 60 * 60 * 1000;

export const NOT_CONFIGURED =
  'Trakt is not set up on this server: set SHOKO_TRAKT_CLIENT_ID and SHOKO_TRAKT_CLIENT_SECRET to the Trakt application to use.';
const CODE_MISSING = "Trakt code doesn't exist on the server";

/** Trakt answered without a user code; the route answers Shoko's v2 error object. */
export class TraktCodeMissingError extends Error {}

/**
 * Links the server to a Trakt account with the OAuth device flow (contract server.md §8.2): a code for the user to
 * enter on trakt.tv, then background polling at Trakt's interval until it answers with tokens, a refusal or the
 * code expires. Tokens live in `TraktTv.*` settings (write-only there) and are refreshed before they expire.
 */
export class TraktService {
  private flow: { state: TraktFlowState; timer?: NodeJS.Timeout; generation: number } = { state: 'idle', generation: 0 };
  private checkTimer?: NodeJS.Timeout;

  constructor(private readonly deps: { client: TraktClient; settings: SettingsService; bus: EventBus; logger: Logger }) {
    // Unlink is a settings PATCH clearing TokenExpirationDate; the console cannot send the write-only tokens, so the
    // server drops them here, or a "not linked" server would still hold a working token.
    deps.bus.on('settings:saved', ({ changedPaths }) => {
      const trakt = deps.settings.current.TraktTv;
      if (!changedPaths.includes('TraktTv.TokenExpirationDate') || trakt.TokenExpirationDate !== '') return;
      if (!trakt.AuthToken && !trakt.RefreshToken) return;
      this.storeTokens(null).catch((error) => deps.logger.error({ err: error }, 'Clearing the Trakt tokens after unlinking failed'));
    });
  }

  get state(): TraktFlowState {
    return this.flow.state;
  }

  /** Enabled with a stored token: what Shoko requires before it syncs watch states. */
  get linked(): boolean {
    const trakt = this.deps.settings.current.TraktTv;
    return trakt.Enabled && !!trakt.AuthToken;
  }

  /**
   * Runs an account call with the stored access token. When Trakt refuses the token it is refreshed once and the call
   * sent again; a refused refresh unlinks (checkToken) and the error goes to the caller.
   */
  async withToken<T>(call: (client: TraktClient, token: string) => Promise<T>): Promise<T> {
    const token = this.deps.settings.current.TraktTv.AuthToken;
    if (!token) throw new TraktAuthError('Trakt is not linked');
    try {
      return await call(this.deps.client, token);
    } catch (error) {
      if (!(error instanceof TraktAuthError) || (await this.checkToken(true)) !== 'refreshed') throw error;
      return call(this.deps.client, this.deps.settings.current.TraktTv.AuthToken);
    }
  }

  /** `GET /api/trakt/code`: asks Trakt for a device code and starts polling for the user's approval. */
  async requestCode(): Promise<TraktCode> {
    if (!this.deps.client.configured) throw badRequest(NOT_CONFIGURED);
    let code;
    try {
      code = await this.deps.client.requestDeviceCode();
    } catch (error) {
      this.deps.logger.error(`Requesting a Trakt device code failed: ${error instanceof Error ? error.message : String(error)}`);
      throw emptyError(500);
    }
    if (!code.userCode) throw new TraktCodeMissingError(CODE_MISSING);
    this.startPolling(code.deviceCode, code.interval, code.expiresIn);
    this.deps.logger.info(`Trakt device code issued; waiting up to ${Math.round(code.expiresIn)} s for the user to activate it`);
    return { usercode: code.userCode, url: code.verificationUrl };
  }

  /** A newer code replaces the one being polled. */
  private startPolling(deviceCode: string, intervalSeconds: number, expiresInSeconds: number) {
    clearTimeout(this.flow.timer);
    const generation = this.flow.generation + 1;
    this.flow = { state: 'polling', generation };
    const deadline = Date.now() + expiresInSeconds * 1000;
    let interval = intervalSeconds * 1000;
    const finish = (state: TraktFlowState, message: string) => {
      if (this.flow.generation !== generation) return;
      this.flow = { state, generation };
      this.deps.logger.info(message);
    };
    const poll = async () => {
      if (this.flow.generation !== generation) return;
      if (Date.now() >= deadline) return finish('expired', 'The Trakt device code expired before it was activated');
      let result;
      try {
        result = await this.deps.client.pollDeviceToken(deviceCode);
      } catch (error) {
        this.deps.logger.warn(`Polling Trakt failed, trying again: ${error instanceof Error ? error.message : String(error)}`);
        result = { kind: 'pending' as const };
      }
      if (this.flow.generation !== generation) return;
      switch (result.kind) {
        case 'authorized':
          await this.storeTokens(result.tokens);
          return finish('linked', 'Trakt account linked');
        case 'denied':
          return finish('denied', 'The Trakt user denied access');
        case 'expired':
          return finish('expired', 'The Trakt device code expired before it was activated');
        case 'invalid':
        case 'used':
          return finish('failed', `Trakt rejected the device code (${result.kind})`);
        case 'slow-down':
          interval *= 2;
          break;
        case 'pending':
          break;
      }
      schedule();
    };
    const schedule = () => {
      const timer = setTimeout(() => void poll(), Math.min(interval, Math.max(0, deadline - Date.now())));
      timer.unref();
      this.flow.timer = timer;
    };
    schedule();
  }

  /** Refreshes the token when it expires within 6 hours (or always with `force`); a refused refresh unlinks. */
  async checkToken(force = false): Promise<'none' | 'valid' | 'refreshed' | 'unlinked' | 'failed'> {
    const trakt = this.deps.settings.current.TraktTv;
    if (!trakt.RefreshToken || !this.deps.client.configured) return 'none';
    const expiresAt = Number(trakt.TokenExpirationDate);
    if (!force && Number.isFinite(expiresAt) && expiresAt - Date.now() / 1000 > REFRESH_WINDOW_S) return 'valid';
    let tokens: TraktTokens | null;
    try {
      tokens = await this.deps.client.refresh(trakt.RefreshToken);
    } catch (error) {
      // Trakt unreachable: keep the token and try again at the next check.
      this.deps.logger.warn(`Refreshing the Trakt token failed: ${error instanceof Error ? error.message : String(error)}`);
      return 'failed';
    }
    await this.storeTokens(tokens);
    this.deps.logger.info(tokens ? 'Trakt token refreshed' : 'Trakt refused the refresh token; the account is unlinked');
    return tokens ? 'refreshed' : 'unlinked';
  }

  /** Starts the hourly token check. */
  start(): void {
    if (this.checkTimer) return;
    this.checkTimer = setInterval(() => void this.checkToken().catch(() => undefined), TOKEN_CHECK_INTERVAL_MS);
    this.checkTimer.unref();
  }

  stop(): void {
    clearInterval(this.checkTimer);
    this.checkTimer = undefined;
    clearTimeout(this.flow.timer);
    this.flow = { state: 'idle', generation: this.flow.generation + 1 };
  }

  /** `Enabled` is the user's choice and is left alone (contract: the flow does not change it). */
  private storeTokens(tokens: TraktTokens | null): Promise<void> {
    return this.deps.settings.update((settings) => {
      settings.TraktTv.AuthToken = tokens?.accessToken ?? '';
      settings.TraktTv.RefreshToken = tokens?.refreshToken ?? '';
      settings.TraktTv.TokenExpirationDate = tokens ? String(tokens.expiresAt) : '';
    });
  }
}
