import type { EventBus } from '../../events/bus.js';
import type { SettingsService } from '../settings/index.js';
import { NetworkService } from './network.service.js';

/** Builds the connectivity checks, with the monitors the settings switch off. */
export function createNetworkDomain(deps: { bus: EventBus; settings: SettingsService }): NetworkService {
  return new NetworkService(deps.bus, { disabledMonitors: () => deps.settings.current.Connectivity.DisabledMonitorServices });
}
