import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAniDBUdp, type FakeAniDBUdp } from '../../../../fakes/src/anidb-udp/index.js';
import { EventBus } from '../../events/bus.js';
import { AniDBBannedError } from '../../providers/anidb/udp/index.js';
import type { SettingsService } from '../settings/index.js';
import { AniDBConnection } from './anidb-connection.js';

const logger = pino({ level: 'silent' });
const RATE = { BaseRateInSeconds: 2, SlowRateMultiplier: 3, SlowRatePeriodMultiplier: 5, ResetPeriodMultiplier: 60 };

let fake: FakeAniDBUdp | null = null;
const connections: AniDBConnection[] = [];

afterEach(async () => {
  await Promise.all(connections.splice(0).map((c) => c.reset()));
  await fake?.close();
  fake = null;
});

/**
 * A connection with AniDB's real pacing against the loopback fake; time stands still (or reads `now`) and every wait is
 * recorded. `anidb` adds AniDB settings.
 */
async function setUp(options: { now?: () => number; anidb?: Record<string, unknown> } = {}) {
  fake = await startFakeAniDBUdp({ users: { alice: 'correct horse' } });
  const settings = {
    current: {
      AniDb: {
        UDPServerAddress: fake.host,
        UDPServerPort: fake.port,
        ClientPort: 0,
        Username: 'alice',
        Password: 'correct horse',
        UDPRateLimit: RATE,
        HTTPRateLimit: RATE,
        ...options.anidb,
      },
    },
  } as unknown as SettingsService;
  const bus = new EventBus();
  const slept: number[] = [];
  const connection = new AniDBConnection(settings, bus, logger, {
    clock: { now: options.now ?? (() => 1_000_000_000), sleep: async (ms) => void slept.push(ms) },
  });
  connections.push(connection);
  const saveAniDBSetting = () => bus.emit('settings:saved', { changedPaths: ['AniDb.Username'] });
  return { fake, connection, slept, saveAniDBSetting };
}

describe('AniDB connection state across settings saves', () => {
  it('a client rebuilt after a settings save keeps pacing from where the old one left off', async () => {
    const { connection, slept, saveAniDBSetting } = await setUp();
    const before = connection.udp();
    await before.send('UPTIME'); // AUTH + UPTIME
    expect(slept).toEqual([2000]);
    saveAniDBSetting();
    const after = connection.udp();
    expect(after).not.toBe(before);
    await after.send('UPTIME');
    // The old client's LOGOUT, then the new AUTH and UPTIME: every packet still waits its turn, none goes out at once.
    expect(slept.length).toBeGreaterThanOrEqual(4);
    expect(slept.slice(1).every((ms, i) => ms > slept[i])).toBe(true);
  });

  it('a UDP ban outlives a settings save: the new client sends nothing', async () => {
    const { fake, connection, saveAniDBSetting } = await setUp();
    fake.scenario.banned = true;
    await expect(connection.udp().send('UPTIME')).rejects.toBeInstanceOf(AniDBBannedError);
    expect(connection.udpBanned).toBe(true);
    saveAniDBSetting();
    fake.scenario.banned = false;
    const sent = fake.received.length;
    await expect(connection.udp().send('UPTIME')).rejects.toBeInstanceOf(AniDBBannedError);
    expect(fake.received.length).toBe(sent);
    expect(connection.states()[0]).toMatchObject({ Value: true, PauseTimeSecs: 90 * 60 });
    // A credentials test from the settings page is held back by the ban too.
    expect(await connection.testLogin('alice', 'correct horse')).toBe(false);
    expect(fake.received.length).toBe(sent);
  });

  it('an HTTP ban outlives a settings save', () => {
    const bus = new EventBus();
    const settings = { current: { AniDb: { UDPRateLimit: RATE, HTTPRateLimit: RATE } } } as unknown as SettingsService;
    const connection = new AniDBConnection(settings, bus, logger);
    connection.httpBan.raise('AniDB HTTP ban: Banned', 60_000);
    bus.emit('settings:saved', { changedPaths: ['AniDb.HTTPServerUrl'] });
    expect(connection.states()[1]).toMatchObject({ Value: true, Message: 'AniDB HTTP ban: Banned', PauseTimeSecs: 60 });
    connection.httpBan.lower();
  });

  it('pings at UDPPingFrequency while logged in and logs out after 5 idle minutes', async () => {
    let now = 2_000_000_000;
    const { fake, connection } = await setUp({ now: () => now, anidb: { UDPPingFrequency: 60 } });
    expect(await connection.keepAlive()).toBeNull();
    await connection.udp().send('UPTIME');
    now += 30_000;
    expect(await connection.keepAlive()).toBeNull();
    now += 31_000;
    expect(await connection.keepAlive()).toBe('ping');
    expect(fake.received.at(-1)).toMatch(/^PING/);
    // Pings do not count as activity: five minutes after the last command the session ends.
    for (let i = 0; i < 3; i++) {
      now += 61_000;
      expect(await connection.keepAlive()).toBe('ping');
    }
    now += 61_000;
    expect(await connection.keepAlive()).toBe('logout');
    expect(fake.received.at(-1)).toMatch(/^LOGOUT/);
    expect(fake.sessions.size).toBe(0);
    now += 61_000;
    expect(await connection.keepAlive()).toBeNull();
    // The next command logs in again on demand.
    expect((await connection.udp().send('UPTIME')).code).toBe(208);
  });
});
