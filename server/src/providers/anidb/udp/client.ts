import { createHash } from 'node:crypto';
import { AniDBUpdateType, type AniDBState } from '@shoko-ts/contract';
import type { Logger } from 'pino';
import { backoffPauseMs } from './backoff.js';
import { decodeReply, encodeCommand, isZeroDatagram, type UdpParams, type UdpReply } from './codec.js';
import {
  AniDBAccessDeniedError,
  AniDBBannedError,
  AniDBClientRejectedError,
  AniDBLoginFailedError,
  AniDBServerBusyError,
  AniDBSessionError,
  AniDBTimeoutError,
  AniDBUdpError,
} from './errors.js';
import { ANIDB_UDP_RATE_LIMIT, RateLimiter, systemClock, type RateLimitClock, type RateLimitTimings } from './rate-limiter.js';
import { UdpTransport, type UdpServerAddress } from './transport.js';
import { UdpStatus, type UdpStatusListener } from './udp-status.js';

export interface AniDBUdpClientOptions {
  server: UdpServerAddress;
  logger: Logger;
  /** How long to wait for each reply (Shoko: 30 s). */
  timeoutMs?: number;
  /** Resends after a timeout; AniDB drops packets over its limit, so keep this at 1. */
  retries?: number;
  rateLimit?: RateLimitTimings;
  /** The process-wide UDP pacing; clients rebuilt after a settings save pass the same one. */
  limiter?: RateLimiter;
  /** The process-wide ban and back-off state; survives rebuilt clients. */
  status?: UdpStatus;
  /** Clock for the rate limiter and pauses; tests pass one whose sleep returns at once. */
  clock?: RateLimitClock;
  /** AniDB only answers registered clients: lowercase a-z, 4-16 letters, integer version. */
  clientName?: string;
  clientVersion?: number;
  /** Pause after a ban (AniDB does not publish ban lengths; Shoko waits 1.5 h). */
  banPauseMs?: number;
  /**
   * A test login (the settings page): it honours a refusal of the same credentials but neither records nor lifts
   * one, so testing other credentials does not let the refused ones of the settings be tried again.
   */
  probe?: boolean;
}

/** Compares credentials without keeping the password itself around. */
export function credentialsKey(username: string, password: string): string {
  return `${username}\0${createHash('sha256').update(password).digest('hex')}`;
}

export const DEFAULT_CLIENT_NAME = 'shokots';
export const DEFAULT_CLIENT_VERSION = 1;
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_BAN_PAUSE_MS = 90 * 60_000;
/** AniDB's packet size limit, for commands as for replies. */
const MAX_COMMAND_BYTES = 1400;

/** Commands AniDB answers without a session. */
const SESSIONLESS_COMMANDS = new Set(['PING', 'VERSION', 'ENCRYPT']);
/** The session is gone (598 usually means a NAT mapping expired): log in again once and resend. */
const SESSION_LOST_CODES = new Set([501, 506, 598]);

/**
 * An AniDB UDP API client: logs in on demand, keeps the session, sends one command at a time through the rate
 * limiter, and turns bans and server trouble into pauses that callers can watch through `onStatusChange`.
 */
export class AniDBUdpClient {
  private readonly transport: UdpTransport;
  private readonly limiter: RateLimiter;
  private readonly status: UdpStatus;
  private readonly ownsStatus: boolean;
  private readonly now: () => number;
  private readonly logger: Logger;
  private queue: Promise<unknown> = Promise.resolve();
  private credentials: { username: string; password: string } | null = null;
  private session: string | null = null;
  /** When the last command other than PING/LOGOUT went out, and when any packet did. */
  private lastCommandAt = 0;
  private lastPacketAt = 0;
  private tagCounter = 0;
  /** `ip:port` AniDB saw us at (AUTH with `nat=1`); a port other than ours means we are behind NAT. */
  publicAddress: string | null = null;
  /** AniDB answered the last login with 201: a newer version of this client is registered. */
  newVersionAvailable = false;

  constructor(private readonly options: AniDBUdpClientOptions) {
    this.logger = options.logger;
    const clock = options.clock ?? systemClock;
    this.now = clock.now;
    this.transport = new UdpTransport(options.server, options.logger);
    this.limiter = options.limiter ?? new RateLimiter(options.rateLimit ?? ANIDB_UDP_RATE_LIMIT, clock);
    this.status = options.status ?? new UdpStatus(clock.now);
    this.ownsStatus = !options.status;
  }

  get isLoggedIn(): boolean {
    return this.session !== null;
  }

  /** The UDP ban state for the console's AniDB banner. */
  get banState(): AniDBState {
    return this.status.get(AniDBUpdateType.UDPBan);
  }

  /** Every ban, back-off and login-state change; returns the function that unsubscribes. */
  onStatusChange(listener: UdpStatusListener): () => void {
    return this.status.onChange(listener);
  }

  /** Credentials for logins on demand. A running session is kept until it is lost or logged out. */
  setCredentials(username: string, password: string): void {
    this.credentials = { username, password };
    const key = credentialsKey(username, password);
    if (!this.options.probe && this.status.rejectedCredentials !== null && this.status.rejectedCredentials !== key) {
      this.status.rejectedCredentials = null;
      this.status.lower(AniDBUpdateType.InvalidSession);
    }
  }

  /** AUTH now. True on 200/201, false on 500 LOGIN FAILED; bans, timeouts and other refusals throw. */
  login(username: string, password: string): Promise<boolean> {
    this.setCredentials(username, password);
    return this.serialised(() => this.authenticate());
  }

  /** Sends a command and returns AniDB's reply, logging in first when the command needs a session. */
  send(command: string, params: UdpParams = {}): Promise<UdpReply> {
    const name = command.toUpperCase();
    if (name === 'AUTH' || name === 'LOGOUT') return Promise.reject(new Error(`Use login()/logout() for ${name}`));
    if (SESSIONLESS_COMMANDS.has(name)) return this.serialised(() => this.exchange(name, params));
    return this.serialised(async () => {
      // The streak before this command: the replies below (AUTH included) would reset it, but a session that keeps
      // getting lost is a failure in a row like silence, and its pauses must grow alike.
      const streak = this.status.failureStreak;
      if (!this.session) await this.authenticateOrThrow();
      let reply = await this.exchange(name, params, { session: this.session });
      if (!SESSION_LOST_CODES.has(reply.code)) return reply;
      this.logger.info(`AniDB dropped our session (${reply.code} ${reply.text}); logging in again`);
      this.session = null;
      // One new login, paced like every packet. If it fails, or AniDB drops the new session too, every UDP command
      // pauses (as after silence) instead of each queued command logging in again.
      try {
        await this.authenticateOrThrow();
        reply = await this.exchange(name, params, { session: this.session });
      } catch (error) {
        this.session = null;
        if (!(error instanceof AniDBLoginFailedError) && !this.isPaused())
          this.backOffAfter(streak, `Logging in to AniDB again failed (${describe(error)})`);
        throw error;
      }
      if (SESSION_LOST_CODES.has(reply.code)) {
        this.session = null;
        const message = `AniDB dropped the new session too, on ${name}: ${reply.code} ${reply.text}`;
        this.backOffAfter(streak, message);
        throw new AniDBSessionError(message, reply.code);
      }
      return reply;
    });
  }

  /** A back-off pause that continues the failure streak of before the command (see `send`). */
  private backOffAfter(streak: number, reason: string): void {
    this.status.failureStreak = Math.max(this.status.failureStreak, streak);
    this.backOff(reason);
  }

  /** A ban or back-off pause is in force. */
  private isPaused(): boolean {
    return this.status.get(AniDBUpdateType.UDPBan).Value || this.status.remainingPauseMs(AniDBUpdateType.OverloadBackoff) > 0;
  }

  /** Keeps a NAT mapping open; needs no session. */
  ping(): Promise<UdpReply> {
    return this.serialised(() => this.exchange('PING', {}));
  }

  /** Ends the session if there is one. Failures are logged, not thrown: the session is forgotten either way. */
  logout(): Promise<void> {
    return this.serialised(async () => {
      const session = this.session;
      if (!session) return;
      this.session = null;
      try {
        await this.exchange('LOGOUT', {}, { session });
      } catch (error) {
        this.logger.debug({ err: error }, 'AniDB logout failed');
      }
    });
  }

  /**
   * Session upkeep, called periodically by the owner: LOGOUT once no command was sent for `idleLogoutMs` (AniDB asks
   * clients to log out before idle periods), otherwise a PING when nothing was sent for `pingEveryMs` while logged in
   * (keeps a NAT mapping open). Failures are logged; the pause/ban rules apply as for any packet.
   */
  async keepAlive({ pingEveryMs, idleLogoutMs }: { pingEveryMs: number; idleLogoutMs: number }): Promise<'logout' | 'ping' | null> {
    if (!this.session) return null;
    const now = this.now();
    if (now - this.lastCommandAt >= idleLogoutMs) {
      this.logger.info(`No AniDB command for ${Math.round((now - this.lastCommandAt) / 60_000)} min; logging out`);
      await this.logout();
      return 'logout';
    }
    if (pingEveryMs > 0 && now - this.lastPacketAt >= pingEveryMs) {
      await this.ping().catch((error) => this.logger.debug({ err: error }, 'AniDB keep-alive PING failed'));
      return 'ping';
    }
    return null;
  }

  /** Logs out and releases the socket and timers. */
  async close(): Promise<void> {
    await this.logout();
    await this.serialised(() => this.transport.close());
    if (this.ownsStatus) this.status.dispose();
  }

  /** Runs work strictly one after another: AniDB allows one outstanding request per client. */
  private serialised<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work, work);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async authenticateOrThrow(): Promise<void> {
    if (!(await this.authenticate())) throw new AniDBLoginFailedError('AniDB rejected the username or password', 500);
  }

  private async authenticate(): Promise<boolean> {
    if (!this.credentials) throw new AniDBLoginFailedError('No AniDB credentials are configured');
    // Repeating a login AniDB already refused only risks a ban; wait for new credentials.
    if (this.status.rejectedCredentials === credentialsKey(this.credentials.username, this.credentials.password)) return false;
    const reply = await this.exchange('AUTH', {
      user: this.credentials.username,
      pass: this.credentials.password,
      protover: 3,
      client: this.options.clientName ?? DEFAULT_CLIENT_NAME,
      clientver: this.options.clientVersion ?? DEFAULT_CLIENT_VERSION,
      enc: 'utf-8',
      nat: 1,
      // Long replies arrive deflated instead of cut off at 1400 bytes.
      comp: 1,
    });
    if (reply.code === 200 || reply.code === 201) {
      // `{session} [{ip}:{port}] LOGIN ACCEPTED…`
      const [session = '', seenAs = ''] = reply.text.split(' ');
      this.session = session;
      this.publicAddress = /^[\d.]+:\d+$/.test(seenAs) ? seenAs : null;
      this.newVersionAvailable = reply.code === 201;
      if (!this.options.probe) this.status.lower(AniDBUpdateType.InvalidSession);
      if (this.newVersionAvailable) this.logger.warn('Logged in to AniDB; AniDB reports a newer version of this client');
      else this.logger.info('Logged in to AniDB');
      return true;
    }
    this.session = null;
    if (reply.code === 500) {
      this.logger.warn('AniDB login failed: wrong username or password');
      if (this.options.probe) return false;
      this.status.rejectedCredentials = credentialsKey(this.credentials.username, this.credentials.password);
      this.status.raise(AniDBUpdateType.InvalidSession, 'AniDB login failed: wrong username or password');
      return false;
    }
    throw new AniDBUdpError(`AniDB refused the login: ${reply.code} ${reply.text}`, reply.code);
  }

  /**
   * One command, one reply: waits for the rate limiter before every packet, resends once on silence, and turns
   * bans, server errors and client-level refusals into errors. Codes that concern the caller are returned.
   */
  private async exchange(command: string, params: UdpParams, { session = null }: { session?: string | null } = {}): Promise<UdpReply> {
    this.assertNotPaused();
    const tag = `t${++this.tagCounter}`;
    const payload = Buffer.from(encodeCommand(command, { ...params, tag, s: session }), 'utf8');
    // AniDB takes at most 1400 bytes a packet and would cut a longer command off; it is not sent at all.
    if (payload.length > MAX_COMMAND_BYTES)
      throw new AniDBUdpError(
        `The AniDB ${command} command is ${payload.length} bytes, over the ${MAX_COMMAND_BYTES} a packet may carry; not sent`,
      );
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const retries = this.options.retries ?? 1;
    for (let attempt = 0; attempt <= retries; attempt++) {
      await this.limiter.beforeSend();
      this.lastPacketAt = this.now();
      if (command !== 'PING' && command !== 'LOGOUT') this.lastCommandAt = this.lastPacketAt;
      const reply = await this.transport.exchange(payload, (datagram) => this.matchReply(datagram, tag), timeoutMs);
      if (reply) return this.checkReply(command, reply);
      // Never log the payload: AUTH carries the password.
      this.logger.warn(`AniDB did not answer ${command} within ${timeoutMs} ms${attempt < retries ? '; sending it again' : ''}`);
    }
    this.backOff(`AniDB did not answer ${command}`);
    throw new AniDBTimeoutError(`AniDB did not answer ${command}`);
  }

  /** The reply to the request tagged `tag`; untagged replies count too (errors may come without the tag). */
  private matchReply(datagram: Buffer, tag: string): UdpReply | undefined {
    if (isZeroDatagram(datagram))
      return { tag: null, code: 555, text: 'BANNED', lines: [], rows: [['AniDB answered with an all-zero packet']] };
    const reply = decodeReply(datagram);
    if (reply.tag !== null && reply.tag !== tag) {
      this.logger.debug(`Skipping a late AniDB reply for request ${reply.tag}`);
      return undefined;
    }
    return reply;
  }

  private checkReply(command: string, reply: UdpReply): UdpReply {
    const { code } = reply;
    if (code === 555) {
      this.session = null;
      const reason = reply.rows[0]?.join('|') || 'no reason given';
      const pauseMs = this.options.banPauseMs ?? DEFAULT_BAN_PAUSE_MS;
      this.status.raise(AniDBUpdateType.UDPBan, `AniDB UDP ban: ${reason}`, pauseMs);
      this.logger.error(`AniDB banned this client (${reason}); no UDP traffic for ${Math.round(pauseMs / 60_000)} min`);
      throw new AniDBBannedError(`AniDB UDP ban: ${reason}`, code);
    }
    if (code >= 600 && code < 700) {
      const message = `AniDB server error ${code} ${reply.text} on ${command}`;
      this.backOff(message);
      throw new AniDBServerBusyError(message, code);
    }
    if (code === 503 || code === 504) {
      const detail = [reply.text, ...reply.lines].join(' ').trim();
      const message = `AniDB rejected this client version: ${code} ${detail}`;
      this.backOff(message);
      throw new AniDBClientRejectedError(message, code);
    }
    this.status.failureStreak = 0;
    if (code === 502 || code === 505) throw new AniDBAccessDeniedError(`AniDB refused ${command}: ${code} ${reply.text}`, code);
    return reply;
  }

  /**
   * One more failure in a row: every UDP command pauses for a pause that grows with the streak (30 s, 1 min, 2 min …
   * 2 h), instead of each queued job trying again at once.
   */
  private backOff(reason: string): void {
    const streak = ++this.status.failureStreak;
    const pauseMs = backoffPauseMs(streak);
    this.status.raise(AniDBUpdateType.OverloadBackoff, reason, pauseMs);
    const until = new Date(this.now() + pauseMs).toISOString();
    this.logger.warn(
      `${reason}; pausing AniDB UDP traffic for ${Math.round(pauseMs / 1000)} s, until ${until} (failure ${streak} in a row)`,
    );
  }

  private assertNotPaused(): void {
    const ban = this.status.get(AniDBUpdateType.UDPBan);
    if (ban.Value) throw new AniDBBannedError(ban.Message ?? 'AniDB UDP ban', 555);
    const backoffMs = this.status.remainingPauseMs(AniDBUpdateType.OverloadBackoff);
    if (backoffMs > 0) throw new AniDBServerBusyError(`AniDB is overloaded; UDP traffic resumes in ${Math.ceil(backoffMs / 1000)} s`);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
