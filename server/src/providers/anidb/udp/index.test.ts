import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAniDBUdp, type FakeAniDBUdp } from '../../../../../fakes/src/anidb-udp/index.js';
import { AniDBUpdateType } from '@shoko-ts/contract';
import { AniDBUdpClient, NO_PACING, RateLimiter, resolveUdpServer, testAniDBLogin, UdpStatus } from './index.js';

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

  it('leaves a refused login of the settings alone: other credentials are tried, the refused ones are not sent', async () => {
    const options = { ...(await start({})), status: new UdpStatus(), limiter: new RateLimiter(NO_PACING) };
    const settingsClient = new AniDBUdpClient({ ...options });
    expect(await settingsClient.login('alice', 'stale')).toBe(false);
    const refused = options.status.rejectedCredentials;
    expect(options.status.isRaised(AniDBUpdateType.InvalidSession)).toBe(true);
    // A test of the right credentials succeeds but lifts nothing: the settings still hold the refused ones.
    expect(await testAniDBLogin(options, 'alice', 'p&ss word')).toBe(true);
    // A test of other wrong credentials records nothing either.
    expect(await testAniDBLogin(options, 'alice', 'also wrong')).toBe(false);
    expect(options.status.rejectedCredentials).toBe(refused);
    expect(options.status.isRaised(AniDBUpdateType.InvalidSession)).toBe(true);
    // The refused credentials themselves are not sent again, not even by a test.
    const sent = fake!.received.length;
    expect(await testAniDBLogin(options, 'alice', 'stale')).toBe(false);
    expect(fake!.received).toHaveLength(sent);
    await settingsClient.close();
    options.status.dispose();
  });

  it('is false when the server stays silent, after one resend', async () => {
    expect(await testAniDBLogin(await start({ silent: true }), 'alice', 'p&ss word')).toBe(false);
    expect(fake!.received).toHaveLength(2);
  });
});
