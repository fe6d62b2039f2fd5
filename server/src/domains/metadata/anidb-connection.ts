import type { Logger } from 'pino';
import { AniDBUpdateType, type AniDBState } from '@shoko-ts/contract';
import type { EventBus } from '../../events/bus.js';
import type { QueueService } from '../../jobs/queue.service.js';
import {
  ANIDB_HTTP_PACING,
  HttpBanTracker,
  httpBanToAniDBState,
  httpPacingFromSettings,
  httpPauseToAniDBState,
  HttpRateLimiter,
  memoryRequestLog,
  scaledHttpPacing,
  type AnimeRequestLog,
} from '../../providers/anidb/http/index.js';
import {
  AniDBUdpClient,
  ANIDB_UDP_RATE_LIMIT,
  credentialsKey,
  isLoopbackOverride,
  loopbackBanMs,
  loopbackTimings,
  RateLimiter,
  resolveUdpServer,
  testAniDBLogin,
  timingsFromSettings,
  UdpStatus,
  type RateLimitClock,
} from '../../providers/anidb/udp/index.js';
import { streakOfPause } from '../../providers/anidb/udp/backoff.js';
import { systemClock } from '../../providers/anidb/udp/rate-limiter.js';
import type { SettingsService } from '../settings/index.js';
import type { AniDBPauseKind, AniDBStateStore, StoredBan } from './anidb-state.store.js';

/** AniDB asks clients to log out before idle periods; Shoko does after 5 minutes without a command. */
const IDLE_LOGOUT_MS = 5 * 60_000;
const UPKEEP_TICK_MS = 10_000;

/**
 * The server's AniDB state for both protocols. The UDP client is built from the settings on first use and rebuilt
 * when the AniDB settings change, but the pacing (one limiter per protocol) and the ban/back-off state belong to this
 * object, which lives as long as the process: a settings save can never hand AniDB a client with a fresh limiter or
 * a forgotten ban. Changes are forwarded to the aggregate hub.
 */
export class AniDBConnection {
  private client: AniDBUdpClient | null = null;
  private upkeep: NodeJS.Timeout | null = null;
  private keepingAlive = false;
  readonly udpLimiter: RateLimiter;
  readonly udpStatus: UdpStatus;
  readonly httpLimiter: HttpRateLimiter;
  readonly httpBan: HttpBanTracker;
  /** When each anime was last requested over HTTP: in the database, so the one-a-day rule holds across restarts. */
  readonly animeRequests: AnimeRequestLog;
  readonly now: () => number;
  readonly clock: RateLimitClock;
  private readonly store: AniDBStateStore | null;
  /** Set while saved states are taken up: they are in the database already. */
  private restoring = false;
  /** Ban writes in the order the bans changed, so a lifted ban is never overwritten by an older save. */
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly settings: SettingsService,
    private readonly bus: EventBus,
    private readonly logger: Logger,
    options: { clock?: RateLimitClock; store?: AniDBStateStore } = {},
  ) {
    this.store = options.store ?? null;
    const store = this.store;
    this.animeRequests = store
      ? { last: (animeId) => store.lastAnimeRequest(animeId), record: (animeId, at) => store.recordAnimeRequest(animeId, at) }
      : memoryRequestLog();
    const clock = options.clock ?? systemClock;
    this.clock = clock;
    this.now = clock.now;
    this.udpLimiter = new RateLimiter(this.udpTimings(), clock);
    this.httpLimiter = new HttpRateLimiter(this.httpPacing(), clock);
    this.udpStatus = new UdpStatus(clock.now);
    this.httpBan = new HttpBanTracker(clock.now);
    this.udpStatus.onChange((state) => {
      if (state.UpdateType === AniDBUpdateType.InvalidSession) {
        // A refused login has no end: it lasts until the credentials change.
        const since = Date.parse(state.UpdateTime);
        if (!this.restoring)
          this.persistBan('udp-login', state.Value ? { reason: state.Message ?? 'AniDB refused the login', since, until: since } : null);
        this.bus.emit('anidb:udp', state);
        return;
      }
      const kind =
        state.UpdateType === AniDBUpdateType.UDPBan ? 'udp' : state.UpdateType === AniDBUpdateType.OverloadBackoff ? 'udp-backoff' : null;
      if (kind && !this.restoring) {
        const until = this.udpStatus.pausedUntilTime(state.UpdateType as 1 | 4);
        this.persistBan(
          kind,
          state.Value && until ? { reason: state.Message ?? 'AniDB UDP ban', since: Date.parse(state.UpdateTime), until } : null,
        );
      }
      this.bus.emit('anidb:udp', state);
    });
    this.httpBan.onChange((state) => {
      this.persistBan(
        'http',
        state.banned && state.until
          ? {
              reason: state.reason ?? 'AniDB HTTP ban',
              since: (state.since ?? new Date(this.now())).getTime(),
              until: state.until.getTime(),
            }
          : null,
      );
      this.bus.emit('anidb:http', httpBanToAniDBState(state, this.now()));
    });
    this.httpBan.onPauseChange((pause) => {
      this.persistBan('http-backoff', pause);
      this.bus.emit('anidb:http', httpPauseToAniDBState(pause, this.now()));
    });
    bus.on('settings:saved', ({ changedPaths }) => {
      if (!changedPaths.some((path) => path.startsWith('AniDb.'))) return;
      if (changedPaths.includes('AniDb.Username') || changedPaths.includes('AniDb.Password')) this.forgetRefusedLogin();
      this.udpLimiter.setTimings(this.udpTimings());
      this.httpLimiter.setPacing(this.httpPacing());
      void this.reset();
    });
  }

  /** New credentials in the settings: a login AniDB refused may be tried with them. */
  private forgetRefusedLogin(): void {
    if (!this.udpStatus.isRaised(AniDBUpdateType.InvalidSession) && this.udpStatus.rejectedCredentials === null) return;
    this.udpStatus.rejectedCredentials = null;
    this.udpStatus.lower(AniDBUpdateType.InvalidSession);
    this.logger.info('The AniDB credentials changed; logging in to AniDB is allowed again');
  }

  /**
   * Takes up the bans and back-off pauses saved before a restart (a pause keeps growing from its length on the next
   * failure); ones that have run out meanwhile are dropped. A refused login stays until the credentials change.
   */
  async restore(): Promise<void> {
    if (!this.store) return;
    this.restoring = true;
    try {
      await this.restoreRows();
    } finally {
      this.restoring = false;
    }
    await this.writes;
  }

  private async restoreRows(): Promise<void> {
    const bans = await this.store!.bans();
    const live = (kind: AniDBPauseKind) => {
      const row = bans.get(kind);
      if (row && row.until > this.now()) return row;
      if (row) this.persistBan(kind, null);
      return null;
    };
    const until = (row: StoredBan) => new Date(row.until).toISOString();
    const udp = live('udp');
    if (udp) {
      this.udpStatus.raiseUntil(AniDBUpdateType.UDPBan, udp.reason, udp.until);
      this.logger.warn(`AniDB UDP is still banned until ${until(udp)} (${udp.reason})`);
    }
    const udpPause = live('udp-backoff');
    if (udpPause) {
      this.udpStatus.failureStreak = streakOfPause(udpPause.until - udpPause.since);
      this.udpStatus.raiseUntil(AniDBUpdateType.OverloadBackoff, udpPause.reason, udpPause.until);
      this.logger.warn(`AniDB UDP traffic stays paused until ${until(udpPause)} (${udpPause.reason})`);
    }
    const http = live('http');
    if (http) {
      this.httpBan.raiseUntil(http.reason, http.until, http.since);
      this.logger.warn(`AniDB HTTP is still banned until ${until(http)} (${http.reason})`);
    }
    const httpPause = live('http-backoff');
    if (httpPause) {
      this.httpBan.failureStreak = streakOfPause(httpPause.until - httpPause.since);
      this.httpBan.pauseUntil(httpPause.reason, httpPause.until, httpPause.since);
      this.logger.warn(`AniDB HTTP requests stay paused until ${until(httpPause)} (${httpPause.reason})`);
    }
    const refused = bans.get('udp-login');
    const { Username, Password } = this.settings.current.AniDb;
    if (refused && Username && Password) {
      // Saved only while the settings held the refused credentials (a change clears it), so those are the ones now.
      this.udpStatus.rejectedCredentials = credentialsKey(Username, Password);
      this.udpStatus.raise(AniDBUpdateType.InvalidSession, refused.reason);
      this.logger.warn(`AniDB refused the login on ${until(refused)}; no login is tried until the AniDB credentials change`);
    } else if (refused) this.persistBan('udp-login', null);
  }

  /** Resolves once every ban change so far is written (tests, shutdown). */
  flush(): Promise<void> {
    return this.writes;
  }

  /** One upkeep pass for the session: PING at `AniDb.UDPPingFrequency` while logged in, LOGOUT after 5 min idle. */
  async keepAlive(): Promise<'logout' | 'ping' | null> {
    const client = this.client;
    if (!client || this.keepingAlive) return null;
    this.keepingAlive = true;
    try {
      const pingEveryMs = Math.max(0, this.settings.current.AniDb.UDPPingFrequency ?? 60) * 1000;
      return await client.keepAlive({ pingEveryMs, idleLogoutMs: IDLE_LOGOUT_MS });
    } finally {
      this.keepingAlive = false;
    }
  }

  udp(): AniDBUdpClient {
    if (this.client) return this.client;
    if (!this.upkeep) {
      this.upkeep = setInterval(() => void this.keepAlive().catch(() => undefined), UPKEEP_TICK_MS);
      this.upkeep.unref();
    }
    const anidb = this.settings.current.AniDb;
    const client = new AniDBUdpClient({
      server: resolveUdpServer(anidb),
      logger: this.logger,
      limiter: this.udpLimiter,
      status: this.udpStatus,
      clock: this.clock,
      banPauseMs: loopbackBanMs(process.env.SHOKO_ANIDB_UDP),
    });
    if (anidb.Username && anidb.Password) client.setCredentials(anidb.Username, anidb.Password);
    this.client = client;
    return client;
  }

  /**
   * What stops each protocol now, UDP first: its ban, else its back-off pause (`OverloadBackoff`), else (UDP) a refused
   * login (`InvalidSession`), else the lowered ban state. `AniDB/BanStatus` and the hub's `AniDB:OnConnected` report these.
   */
  states(): [AniDBState, AniDBState] {
    const udpBan = this.udpStatus.get(AniDBUpdateType.UDPBan);
    const udpPause = this.udpStatus.get(AniDBUpdateType.OverloadBackoff);
    const udpLogin = this.udpStatus.get(AniDBUpdateType.InvalidSession);
    const httpBan = httpBanToAniDBState(this.httpBan.state, this.now());
    const httpPause = this.httpBan.pause;
    return [
      [udpBan, udpPause, udpLogin].find((state) => state.Value) ?? udpBan,
      httpBan.Value || !httpPause ? httpBan : httpPauseToAniDBState(httpPause, this.now()),
    ];
  }

  /** Why UDP commands cannot go out now (a ban, a back-off pause, a refused login), null when they can. */
  udpHold(): string | null {
    for (const type of [AniDBUpdateType.UDPBan, AniDBUpdateType.OverloadBackoff, AniDBUpdateType.InvalidSession] as const) {
      const state = this.udpStatus.get(type);
      if (state.Value) return state.Message ?? 'AniDB UDP is unavailable';
    }
    return null;
  }

  /** Why HTTP requests cannot go out now (a ban, a back-off pause), null when they can. */
  httpHold(): string | null {
    const ban = this.httpBan.state;
    if (ban.banned) return ban.reason ?? 'AniDB HTTP ban';
    return this.httpBan.pause?.reason ?? null;
  }

  /** Why AniDB's image server must not be asked now: any AniDB ban, or the HTTP API's back-off pause. */
  pictureHold(): string | null {
    const udpBan = this.udpStatus.get(AniDBUpdateType.UDPBan);
    return this.httpHold() ?? (udpBan.Value ? (udpBan.Message ?? 'AniDB UDP ban') : null);
  }

  /**
   * Holds the queue's jobs of these kinds while their protocol cannot be used: they wait (shown as blocked) instead of
   * failing, and start by themselves when the ban, pause or refused login is over.
   */
  holdJobs(queue: QueueService, kinds: { udp: string[]; http: string[] }): void {
    queue.addHold({ name: 'AniDBUDPFilter', kinds: kinds.udp, reason: () => this.udpHold() });
    queue.addHold({ name: 'AniDBHTTPFilter', kinds: kinds.http, reason: () => this.httpHold() });
    this.bus.on('anidb:udp', () => queue.recheckHolds());
    this.bus.on('anidb:http', () => queue.recheckHolds());
  }

  get udpBanned(): boolean {
    return this.udpStatus.get(AniDBUpdateType.UDPBan).Value;
  }

  /** Checks credentials without keeping them; the running session is logged out first so the port is free. */
  async testLogin(username: string, password: string): Promise<boolean> {
    await this.reset();
    return testAniDBLogin(
      {
        server: resolveUdpServer(this.settings.current.AniDb),
        logger: this.logger,
        limiter: this.udpLimiter,
        status: this.udpStatus,
        clock: this.clock,
        banPauseMs: loopbackBanMs(process.env.SHOKO_ANIDB_UDP),
      },
      username,
      password,
    );
  }

  async reset(): Promise<void> {
    if (this.upkeep) clearInterval(this.upkeep);
    this.upkeep = null;
    const client = this.client;
    this.client = null;
    await client?.close().catch((error) => this.logger.debug({ err: error }, 'Closing the AniDB session failed'));
  }

  private persistBan(protocol: AniDBPauseKind, ban: StoredBan | null): void {
    const store = this.store;
    if (!store) return;
    this.writes = this.writes
      .then(() => (ban ? store.saveBan(protocol, ban) : store.clearBan(protocol)))
      .catch((error) => this.logger.error({ err: error }, `Saving the AniDB ${protocol} state failed`));
  }

  /** How long an HTTP ban is waited out: AniDB's length, unless a loopback fake's is set for a test. */
  httpBanMs(): number | undefined {
    return loopbackBanMs(process.env.SHOKO_ANIDB_HTTP);
  }

  private udpTimings() {
    return isLoopbackOverride(process.env.SHOKO_ANIDB_UDP)
      ? loopbackTimings(ANIDB_UDP_RATE_LIMIT)
      : timingsFromSettings(this.settings.current.AniDb.UDPRateLimit);
  }

  private httpPacing() {
    if (isLoopbackOverride(process.env.SHOKO_ANIDB_HTTP))
      return scaledHttpPacing(ANIDB_HTTP_PACING, Number(process.env.SHOKO_ANIDB_LOOPBACK_PACING ?? 0));
    const configured = this.settings.current.AniDb.HTTPRateLimit;
    return configured ? httpPacingFromSettings(configured) : ANIDB_HTTP_PACING;
  }
}
