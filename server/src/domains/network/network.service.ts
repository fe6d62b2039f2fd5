import fs from 'node:fs';
import os from 'node:os';
import type { ConnectivityDetails, NetworkAvailability, NetworkState } from '@shoko-ts/contract';
import type { EventBus } from '../../events/bus.js';

/**
 * Network availability as the console shows it. This first version looks at the machine's own interfaces and
 * routes (NoInterfaces / NoGateways / LocalOnly); probing internet services comes with the dashboard work, so until
 * then a machine with a default route reports LocalOnly.
 */
export class NetworkService {
  private availability: NetworkAvailability = 'NoInterfaces';
  private lastChangedAt = new Date();

  constructor(
    private readonly bus: EventBus,
    private readonly probe: () => NetworkAvailability = probeLocalNetwork,
  ) {
    this.availability = this.probe();
  }

  check(): NetworkState {
    const next = this.probe();
    if (next !== this.availability) {
      this.availability = next;
      this.lastChangedAt = new Date();
      this.bus.emit('network:changed', this.state());
    }
    return this.state();
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
