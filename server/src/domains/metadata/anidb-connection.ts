import type { Logger } from 'pino';
import { AniDBUpdateType, type AniDBState } from '@shoko-ts/contract';
import type { EventBus } from '../../events/bus.js';
import { AniDBUdpClient, resolveUdpServer, testAniDBLogin, timingsFromSettings } from '../../providers/anidb/udp/index.js';
import { isLoopbackOverride, NO_PACING } from '../../providers/anidb/udp/rate-limiter.js';
import type { SettingsService } from '../settings/settings.service.js';

const idleState = (type: number): AniDBState => ({
  Value: false,
  Message: null,
  UpdateType: type,
  UpdateTime: new Date().toISOString(),
  PauseTimeSecs: 0,
});

/**
 * The server's one AniDB UDP session: built from the settings on first use, rebuilt when the AniDB settings change,
 * and its ban/back-off state forwarded to the aggregate hub. One client means one local port and one rate limiter
 * for every job, as AniDB requires.
 */
export class AniDBConnection {
  private client: AniDBUdpClient | null = null;
  private udpState: AniDBState = idleState(AniDBUpdateType.UDPBan);
  private httpState: AniDBState = idleState(AniDBUpdateType.HTTPBan);

  constructor(
    private readonly settings: SettingsService,
    private readonly bus: EventBus,
    private readonly logger: Logger,
  ) {
    bus.on('settings:saved', ({ changedPaths }) => {
      if (changedPaths.some((path) => path.startsWith('AniDb.'))) void this.reset();
    });
  }

  udp(): AniDBUdpClient {
    if (this.client) return this.client;
    const anidb = this.settings.current.AniDb;
    const client = new AniDBUdpClient({
      server: resolveUdpServer(anidb),
      logger: this.logger,
      rateLimit: isLoopbackOverride(process.env.SHOKO_ANIDB_UDP) ? NO_PACING : timingsFromSettings(anidb.UDPRateLimit),
    });
    if (anidb.Username && anidb.Password) client.setCredentials(anidb.Username, anidb.Password);
    client.onStatusChange((state) => {
      if (state.UpdateType === AniDBUpdateType.UDPBan) this.udpState = state;
      this.bus.emit('anidb:udp', state);
    });
    this.client = client;
    return client;
  }

  /** Reports an HTTP ban change (from the HTTP client) to the hub. */
  setHttpState(state: AniDBState): void {
    this.httpState = state;
    this.bus.emit('anidb:http', state);
  }

  states(): [AniDBState, AniDBState] {
    return [this.client?.banState ?? this.udpState, this.httpState];
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
}
