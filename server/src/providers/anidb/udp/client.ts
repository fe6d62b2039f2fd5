import dgram from 'node:dgram';
import type { Logger } from 'pino';
import { decodeReply, encodeCommand, isZeroReply, MalformedReplyError, type UdpParams, type UdpReply } from './codec.js';
import { RateLimiter, type RateLimitTimings } from './rate-limiter.js';

export interface UdpServerAddress {
  host: string;
  port: number;
  /** Local port to bind; AniDB wants it fixed. 0 = any (tests). */
  clientPort: number;
}

export interface AniDBUdpClientOptions {
  server: UdpServerAddress;
  logger: Logger;
  timeoutMs?: number;
  timings?: RateLimitTimings;
  /** AniDB client registration; configurable because AniDB only accepts registered clients. */
  clientName?: string;
  clientVersion?: number;
  /** How long UDP stays silent after a ban (AniDB: at least 1.5 h). */
  banCooldownMs?: number;
}

export class AniDBBannedError extends Error {}
export class AniDBTimeoutError extends Error {}
export class AniDBLoginError extends Error {}

const FAST_TIMINGS: RateLimitTimings = { shortGapMs: 2000, longGapMs: 6000, longGapAfterMs: 10_000, resetAfterMs: 120_000 };
const SESSION_LOST = new Set([501, 506, 598]);

export interface UdpBanState {
  banned: boolean;
  until: number | null;
  reason: string | null;
}

/**
 * One AniDB UDP session over one socket bound to a fixed local port. Requests are strictly one at a time and spaced
 * by the rate limiter; a lost session is re-established once; a ban stops all traffic for the cool-down.
 */
export class AniDBUdpClient {
  private socket: dgram.Socket | null = null;
  private session: string | null = null;
  private credentials: { username: string; password: string } | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private pending: { resolve: (reply: Buffer) => void } | null = null;
  private readonly limiter: RateLimiter;
  private ban: UdpBanState = { banned: false, until: null, reason: null };
  onBanChange: ((state: UdpBanState) => void) | null = null;

  constructor(private readonly options: AniDBUdpClientOptions) {
    this.limiter = new RateLimiter(options.timings ?? FAST_TIMINGS);
  }

  get banState(): UdpBanState {
    if (this.ban.banned && this.ban.until !== null && Date.now() >= this.ban.until) this.setBan(false, null);
    return this.ban;
  }

  get isLoggedIn(): boolean {
    return this.session !== null;
  }

  setCredentials(username: string, password: string): void {
    this.credentials = { username, password };
  }

  /** AUTH with the given credentials; true on 200/201, false on 500 LOGIN FAILED. Other failures throw. */
  login(username: string, password: string): Promise<boolean> {
    return this.serialised(async () => {
      this.credentials = { username, password };
      return this.authenticate();
    });
  }

  /** Sends a session command, logging in first when needed. */
  request(command: string, params: UdpParams = {}): Promise<UdpReply> {
    return this.serialised(async () => {
      if (!this.session && !(await this.authenticate())) throw new AniDBLoginError('AniDB login failed');
      let reply = await this.exchange(command, { ...params, s: this.session! });
      if (SESSION_LOST.has(reply.code)) {
        this.session = null;
        if (!(await this.authenticate())) throw new AniDBLoginError('AniDB login failed');
        reply = await this.exchange(command, { ...params, s: this.session! });
      }
      return reply;
    });
  }

  ping(): Promise<UdpReply> {
    return this.serialised(() => this.exchange('PING', {}, { short: true }));
  }

  logout(): Promise<void> {
    return this.serialised(async () => {
      if (!this.session) return;
      const session = this.session;
      this.session = null;
      await this.exchange('LOGOUT', { s: session }).catch((error) => this.options.logger.debug({ err: error }, 'AniDB logout failed'));
    });
  }

  async close(): Promise<void> {
    await this.logout().catch(() => undefined);
    this.socket?.close();
    this.socket = null;
  }

  private serialised<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work, work);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async authenticate(): Promise<boolean> {
    if (!this.credentials) throw new AniDBLoginError('No AniDB credentials configured');
    const reply = await this.exchange('AUTH', {
      user: this.credentials.username,
      pass: this.credentials.password,
      protover: 3,
      client: this.options.clientName ?? 'shokots',
      clientver: this.options.clientVersion ?? 1,
      nat: 1,
      enc: 'UTF8',
    });
    if (reply.code === 200 || reply.code === 201) {
      this.session = reply.text.split(' ')[0] || null;
      this.options.logger.info(reply.code === 201 ? 'Logged in to AniDB (a newer client version is available)' : 'Logged in to AniDB');
      return this.session !== null;
    }
    this.session = null;
    if (reply.code === 500) {
      this.options.logger.warn('AniDB login failed: wrong username or password');
      return false;
    }
    throw new AniDBLoginError(`AniDB refused the login: ${reply.code} ${reply.text}`);
  }

  /** One datagram out, one back; a timeout is retried once (AniDB silently drops packets over its limit). */
  private async exchange(command: string, params: UdpParams, rate: { short?: boolean } = {}): Promise<UdpReply> {
    if (this.banState.banned) throw new AniDBBannedError(`AniDB UDP is banned: ${this.ban.reason ?? 'no reason given'}`);
    const text = encodeCommand(command, params);
    for (let attempt = 0; ; attempt++) {
      await this.limiter.wait(rate);
      const datagram = await this.sendAndReceive(text);
      if (datagram) return this.inspect(command, datagram);
      if (attempt >= 1) throw new AniDBTimeoutError(`AniDB did not answer ${command}`);
      this.options.logger.warn(`AniDB did not answer ${command}; retrying once`);
    }
  }

  private inspect(command: string, datagram: Buffer): UdpReply {
    if (isZeroReply(datagram)) {
      this.setBan(true, 'AniDB answered with an empty packet');
      throw new AniDBBannedError('AniDB UDP ban');
    }
    let reply: UdpReply;
    try {
      reply = decodeReply(datagram);
    } catch (error) {
      if (error instanceof MalformedReplyError) this.options.logger.warn(error.message);
      throw error;
    }
    if (reply.code === 555) {
      this.session = null;
      this.setBan(true, reply.rows[0]?.join('|') || reply.text);
      throw new AniDBBannedError(`AniDB UDP ban: ${this.ban.reason}`);
    }
    if (reply.code >= 600 && reply.code < 700) this.options.logger.warn(`AniDB server error on ${command}: ${reply.code} ${reply.text}`);
    return reply;
  }

  private setBan(banned: boolean, reason: string | null): void {
    const until = banned ? Date.now() + (this.options.banCooldownMs ?? 90 * 60_000) : null;
    this.ban = { banned, until, reason };
    if (banned) this.options.logger.error(`AniDB UDP ban detected (${reason}); pausing UDP traffic`);
    this.onBanChange?.(this.ban);
  }

  private async ensureSocket(): Promise<dgram.Socket> {
    if (this.socket) return this.socket;
    const socket = dgram.createSocket('udp4');
    socket.on('message', (message) => {
      const pending = this.pending;
      this.pending = null;
      if (pending) pending.resolve(message);
      else this.options.logger.debug(`Stray AniDB datagram: ${message.toString('utf8').slice(0, 80)}`);
    });
    socket.on('error', (error) => this.options.logger.warn({ err: error }, 'AniDB UDP socket error'));
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(this.options.server.clientPort, () => {
        socket.off('error', reject);
        resolve();
      });
    });
    this.socket = socket;
    return socket;
  }

  private async sendAndReceive(text: string): Promise<Buffer | null> {
    const socket = await this.ensureSocket();
    const { host, port } = this.options.server;
    return new Promise<Buffer | null>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending = null;
        resolve(null);
      }, this.options.timeoutMs ?? 30_000);
      this.pending = {
        resolve: (reply) => {
          clearTimeout(timer);
          resolve(reply);
        },
      };
      socket.send(Buffer.from(text, 'utf8'), port, host, (error) => {
        if (!error) return;
        clearTimeout(timer);
        this.pending = null;
        reject(error);
      });
    });
  }
}
