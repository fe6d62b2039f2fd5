import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAniDBUdp, type FakeAniDBUdp } from '../../../../../fakes/src/anidb-udp/index.js';
import { resolveUdpServer, testAniDBLogin } from './index.js';

const logger = pino({ level: 'silent' });
let fake: FakeAniDBUdp | null = null;

afterEach(async () => {
  await fake?.close();
  fake = null;
  delete process.env.SHOKO_ANIDB_UDP;
});

const settings = { UDPServerAddress: 'api.anidb.net', UDPServerPort: 9000, ClientPort: 4556 };

describe('resolveUdpServer', () => {
  it('uses the settings unless SHOKO_ANIDB_UDP points elsewhere', () => {
    expect(resolveUdpServer(settings)).toEqual({ host: 'api.anidb.net', port: 9000, clientPort: 4556 });
    process.env.SHOKO_ANIDB_UDP = '127.0.0.1:19000';
    expect(resolveUdpServer(settings)).toEqual({ host: '127.0.0.1', port: 19000, clientPort: 0 });
    process.env.SHOKO_ANIDB_UDP = 'nonsense';
    expect(() => resolveUdpServer(settings)).toThrow(/host:port/);
  });
});

describe('testAniDBLogin against the loopback fake', () => {
  const start = async (options: Parameters<typeof startFakeAniDBUdp>[0]) => {
    fake = await startFakeAniDBUdp({ users: { alice: 'p&ss word' }, ...options });
    process.env.SHOKO_ANIDB_UDP = `${fake.host}:${fake.port}`;
    return { server: resolveUdpServer(settings), logger, timeoutMs: 200 };
  };

  it('accepts the right credentials and logs out again', async () => {
    const options = await start({});
    expect(await testAniDBLogin(options, 'alice', 'p&ss word')).toBe(true);
    expect(fake!.received.map((line) => line.split(' ')[0])).toEqual(['AUTH', 'LOGOUT']);
    expect(fake!.sessions.size).toBe(0);
  });

  it('is false for a wrong password', async () => {
    const options = await start({});
    expect(await testAniDBLogin(options, 'alice', 'nope')).toBe(false);
    expect(await testAniDBLogin(options, 'mallory', 'p&ss word')).toBe(false);
    expect(fake!.received.every((line) => line.startsWith('AUTH '))).toBe(true);
  });

  it('is false when banned', async () => {
    expect(await testAniDBLogin(await start({ banned: true }), 'alice', 'p&ss word')).toBe(false);
  });

  it('is false when the server stays silent, after one resend', async () => {
    expect(await testAniDBLogin(await start({ silent: true }), 'alice', 'p&ss word')).toBe(false);
    expect(fake!.received).toHaveLength(2);
  });
});
