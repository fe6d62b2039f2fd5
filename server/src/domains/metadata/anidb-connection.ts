import type { Logger } from 'pino';
import { AniDBUpdateType, type AniDBState } from '@shoko-ts/contract';
import type { EventBus } from '../../events/bus.js';
import { ANIDB_HTTP_RATE_LIMIT, HttpBanTracker, httpBanToAniDBState, httpTimingsFromSettings } from '../../providers/anidb/http/index.js';
import {
  AniDBUdpClient,
  isLoopbackOverride,
  NO_PACING,
  RateLimiter,
  resolveUdpServer,
  testAniDBLogin,
  timingsFromSettings,
  UdpStatus,
  type RateLimitClock,
} from '../../providers/anidb/udp/index.js';
import { systemClock } from '../../providers/anidb/udp/rate-limiter.js';
import type { SettingsService } from '../settings/settings.service.js';

/**
 * The server's AniDB state for both protocols. The UDP client is built from the settings on first use and rebuilt
 * when the AniDB settings change, but the pacing (one limiter per protocol) and the ban/back-off state belong to this
 * object, which lives as long as the process: a settings save can never hand AniDB a client with a fresh limiter or
 * a forgotten ban. Changes are forwarded to the aggregate hub.
 */
export class AniDBConnection {
  private client: AniDBUdpClient | null = null;
  readonly udpLimiter: RateLimiter;
  readonly udpStatus: UdpStatus;
  readonly httpLimiter: RateLimiter;
  readonly httpBan: HttpBanTracker;
  private readonly now: () => number;

  constructor(
    private readonly settings: SettingsService,
    private readonly bus: EventBus,
    private readonly logger: Logger,
    options: { clock?: RateLimitClock } = {},
  ) {
    const clock = options.clock ?? systemClock;
    this.now = clock.now;
    this.udpLimiter = new RateLimiter(this.udpTimings(), clock);
    this.httpLimiter = new RateLimiter(this.httpTimings(), clock);
    this.udpStatus = new UdpStatus(clock.now);
    this.httpBan = new HttpBanTracker(clock.now);
    this.udpStatus.onChange((state) => this.bus.emit('anidb:udp', state));
    this.httpBan.onChange((state) => this.bus.emit('anidb:http', httpBanToAniDBState(state, this.now())));
    bus.on('settings:saved', ({ changedPaths }) => {
      if (!changedPaths.some((path) => path.startsWith('AniDb.'))) return;
      this.udpLimiter.setTimings(this.udpTimings());
      this.httpLimiter.setTimings(this.httpTimings());
      void this.reset();
    });
  }

  udp(): AniDBUdpClient {
    if (this.client) return this.client;
    const anidb = this.settings.current.AniDb;
    const client = new AniDBUdpClient({
      server: resolveUdpServer(anidb),
      logger: this.logger,
      limiter: this.udpLimiter,
      status: this.udpStatus,
    });
    if (anidb.Username && anidb.Password) client.setCredentials(anidb.Username, anidb.Password);
    this.client = client;
    return client;
  }

  states(): [AniDBState, AniDBState] {
    return [this.udpStatus.get(AniDBUpdateType.UDPBan), httpBanToAniDBState(this.httpBan.state, this.now())];
  }

  get udpBanned(): boolean {
    return this.states()[0].Value;
  }

  /** Checks credentials without keeping them; the running session is logged out first so the port is free. */
  async testLogin(username: string, password: string): Promise<boolean> {
    await this.reset();
    return testAniDBLogin({ server: resolveUdpServer(this.settings.current.AniDb), logger: this.logger }, username, password);
  }

  async reset(): Promise<void> {
    const client = this.client;
    this.client = null;
    await client?.close().catch((error) => this.logger.debug({ err: error }, 'Closing the AniDB session failed'));
  }

  private udpTimings() {
    return isLoopbackOverride(process.env.SHOKO_ANIDB_UDP) ? NO_PACING : timingsFromSettings(this.settings.current.AniDb.UDPRateLimit);
  }

  private httpTimings() {
    if (isLoopbackOverride(process.env.SHOKO_ANIDB_HTTP)) return NO_PACING;
    return this.settings.current.AniDb.HTTPRateLimit
      ? httpTimingsFromSettings(this.settings.current.AniDb.HTTPRateLimit)
      : ANIDB_HTTP_RATE_LIMIT;
  }
}
