import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBus } from '../../events/bus.js';
import { setEnv } from '../../test/harness.js';
import { NetworkService } from './network.service.js';

describe('network availability', () => {
  let up: http.Server;
  let upUrl: string;
  let restore: () => void = () => {};

  beforeAll(async () => {
    up = http.createServer((_req, res) => res.end('success'));
    await new Promise<void>((resolve) => up.listen(0, '127.0.0.1', resolve));
    upUrl = `http://127.0.0.1:${(up.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    restore();
    await new Promise((resolve) => up.close(resolve));
  });

  const service = (disabled: string[] = []) => {
    const bus = new EventBus();
    const events: string[] = [];
    bus.on('network:changed', (state) => events.push(state.NetworkAvailability));
    return { network: new NetworkService(bus, { disabledMonitors: () => disabled, probeLocal: () => 'LocalOnly' }), events };
  };

  it('is Internet when every monitor answers, PartialInternet when some do, the LAN result when none do', async () => {
    const down = 'http://127.0.0.1:9/';
    restore = setEnv({ SHOKO_CONNECTIVITY_URLS: [upUrl, upUrl, upUrl, upUrl].join(',') });
    const { network, events } = service();
    expect((await network.check()).NetworkAvailability).toBe('Internet');
    restore();
    restore = setEnv({ SHOKO_CONNECTIVITY_URLS: [upUrl, down, down, down].join(',') });
    expect((await network.check()).NetworkAvailability).toBe('PartialInternet');
    restore();
    restore = setEnv({ SHOKO_CONNECTIVITY_URLS: [down, down, down, down].join(',') });
    expect((await network.check()).NetworkAvailability).toBe('LocalOnly');
    // Only changes are announced; a second identical answer is not.
    expect((await network.check()).NetworkAvailability).toBe('LocalOnly');
    expect(events).toEqual(['Internet', 'PartialInternet', 'LocalOnly']);
  });

  it('skips disabled monitors, and with all of them disabled trusts the connection', async () => {
    restore();
    restore = setEnv({ SHOKO_CONNECTIVITY_URLS: [upUrl, 'http://127.0.0.1:9/', upUrl, upUrl].join(',') });
    expect((await service(['microsoft']).network.check()).NetworkAvailability).toBe('Internet');
    expect((await service(['CloudFlare', 'Microsoft', 'Mozilla', 'WeChat']).network.check()).NetworkAvailability).toBe('Internet');
  });

  it('stops at NoInterfaces without asking anyone', async () => {
    let asked = 0;
    const network = new NetworkService(new EventBus(), { probeLocal: () => 'NoInterfaces', probeUrl: async () => (asked++, true) });
    expect((await network.check()).NetworkAvailability).toBe('NoInterfaces');
    expect(asked).toBe(0);
  });
});
