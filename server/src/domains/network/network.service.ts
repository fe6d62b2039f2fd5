/**
 * DESIGN — network domain: the connectivity checks of `Init/Connectivity` (contract server.md §10.1): which internet
 * services answer, run at start and on a schedule, announced on the event bus for the aggregate hub. The init domain
 * serves its state; its one route is `AniDB/BanStatus` (network.routes.ts, ban-status.ts: the AniDB connection's ban
 * states in the REST form). No store; disabled monitors come from the settings.
 */
import fs from 'node:fs';
import os from 'node:os';
import type { ConnectivityDetails, NetworkAvailability, NetworkState } from '@shoko-ts/contract';
import type { EventBus } from '../../events/bus.js';

/** The internet services probed, by the names `Connectivity.DisabledMonitorServices` uses (contract server.md §10.1). */
export const WAN_MONITORS: ReadonlyArray<{ name: string; url: string }> = [
  { name: 'CloudFlare', url: 'https://1.1.1.1/' },
  { name: 'Microsoft', url: 'https://www.msftconnecttest.com/connecttest.txt' },
  { name: 'Mozilla', url: 'https://detectportal.firefox.com/success.txt' },
  { name: 'WeChat', url: 'https://www.wechat.com/' },
];

const PROBE_TIMEOUT_MS = 5000;
/** A recurring check, as Shoko's "Check Network Availability" job. */
const RECHECK_MS = 30 * 60 * 1000;

/**
 * SHOKO_CONNECTIVITY_URLS (comma-separated) replaces the monitors' addresses, in order: tests and offline demos point
 * them at loopback servers.
 */
function monitors(env: NodeJS.ProcessEnv = process.env) {
  const override = env.SHOKO_CONNECTIVITY_URLS?.split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  return WAN_MONITORS.map((m, i) => ({ name: m.name, url: override?.[i] ?? m.url }));
}

async function reachable(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    await response.body?.cancel();
    return response.status < 500;
  } catch {
    return false;
  }
}

/**
 * Network availability as the console shows it: the machine's interfaces and default route decide between
 * NoInterfaces, NoGateways and LocalOnly; then the enabled internet monitors are asked in parallel — all answering is
 * Internet, some is PartialInternet.
 */
export class NetworkService {
  private availability: NetworkAvailability;
  private lastChangedAt = new Date();
  private timer: ReturnType<typeof setInterval> | null = null;
  private running: Promise<NetworkState> | null = null;

  constructor(
    private readonly bus: EventBus,
    private readonly options: {
      disabledMonitors?: () => string[];
      probeLocal?: () => NetworkAvailability;
      probeUrl?: (url: string) => Promise<boolean>;
    } = {},
  ) {
    this.availability = (options.probeLocal ?? probeLocalNetwork)();
  }

  /** Checks now and every 30 minutes after. */
  start(): void {
    void this.check();
    this.timer ??= setInterval(() => void this.check(), RECHECK_MS);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One check at a time; callers during a running check share its answer. */
  check(): Promise<NetworkState> {
    this.running ??= this.probe().then(
      (next) => {
        this.running = null;
        if (next !== this.availability) {
          this.availability = next;
          this.lastChangedAt = new Date();
          this.bus.emit('network:changed', this.state());
        }
        return this.state();
      },
      () => {
        this.running = null;
        return this.state();
      },
    );
    return this.running;
  }

  private async probe(): Promise<NetworkAvailability> {
    const local = (this.options.probeLocal ?? probeLocalNetwork)();
    if (local === 'NoInterfaces') return local;
    const disabled = new Set((this.options.disabledMonitors?.() ?? []).map((n) => n.toLowerCase()));
    const enabled = monitors().filter((m) => !disabled.has(m.name.toLowerCase()));
    if (!enabled.length) return 'Internet';
    const results = await Promise.all(enabled.map((m) => (this.options.probeUrl ?? reachable)(m.url)));
    const up = results.filter(Boolean).length;
    return up === enabled.length ? 'Internet' : up > 0 ? 'PartialInternet' : local;
  }

  state(): NetworkState {
    return { NetworkAvailability: this.availability, LastChangedAt: this.lastChangedAt.toISOString() };
  }

  details(anidb: { udpReachable: boolean; udpBanned: boolean; httpBanned: boolean }): ConnectivityDetails {
    return {
      ...this.state(),
      IsAniDBUdpReachable: anidb.udpReachable,
      IsAniDBHttpBanned: anidb.httpBanned,
      IsAniDBUdpBanned: anidb.udpBanned,
    };
  }
}

export function probeLocalNetwork(): NetworkAvailability {
  const external = Object.values(os.networkInterfaces())
    .flat()
    .filter((i) => i && !i.internal);
  if (external.length === 0) return 'NoInterfaces';
  return hasDefaultRoute() ? 'LocalOnly' : 'NoGateways';
}

function hasDefaultRoute(): boolean {
  try {
    // Linux: a default route has destination 00000000 in /proc/net/route.
    return fs
      .readFileSync('/proc/net/route', 'utf8')
      .split('\n')
      .slice(1)
      .some((line) => line.split('\t')[1] === '00000000');
  } catch {
    return true;
  }
}
