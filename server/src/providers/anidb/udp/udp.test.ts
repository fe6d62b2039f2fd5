import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAniDBUdp, type FakeAniDBUdp } from '../../../../../fakes/anidb-udp/index.js';
import { AniDBBannedError, AniDBUdpClient, decodeReply, encodeCommand, testAniDBLogin } from './index.js';

const logger = pino({ level: 'silent' });
const quick = { shortGapMs: 0, longGapMs: 0, longGapAfterMs: 1000, resetAfterMs: 1000 };
let fake: FakeAniDBUdp | null = null;

afterEach(async () => {
  await fake?.close();
  fake = null;
});

const serverOf = (f: FakeAniDBUdp) => ({ host: f.host, port: f.port, clientPort: 0 });

describe('AniDB UDP codec', () => {
  it('escapes values and parses replies with unescaped fields', () => {
    expect(encodeCommand('AUTH', { user: 'a&b', pass: 'x\ny' })).toBe('AUTH user=a&amp;b&pass=x<br />y');
    const reply = decodeReply(Buffer.from('230 ANIME\n1|Cowboy Bebop|Tom`s<br />line\n'));
    expect(reply).toMatchObject({ code: 230, text: 'ANIME', rows: [['1', 'Cowboy Bebop', "Tom's\nline"]] });
  });
});

describe('AniDB UDP client against the loopback fake', () => {
  it('logs in, answers session commands, and logs out', async () => {
    fake = await startFakeAniDBUdp({ users: { alice: 'pw1' } });
    const client = new AniDBUdpClient({ server: serverOf(fake), logger, timings: quick, timeoutMs: 500 });
    expect(await client.login('alice', 'pw1')).toBe(true);
    expect((await client.request('UPTIME')).code).toBe(208);
    await client.close();
    expect(fake.received.at(-1)).toMatch(/^LOGOUT s=/);
    expect(fake.sessions.size).toBe(0);
  });

  it('re-authenticates once when the session is lost', async () => {
    fake = await startFakeAniDBUdp({ users: { alice: 'pw1' } });
    const client = new AniDBUdpClient({ server: serverOf(fake), logger, timings: quick, timeoutMs: 500 });
    await client.login('alice', 'pw1');
    fake.sessions.clear();
    expect((await client.request('UPTIME')).code).toBe(208);
    expect(fake.received.filter((line) => line.startsWith('AUTH'))).toHaveLength(2);
    await client.close();
  });

  it('reports wrong credentials, silence and bans as a failed test login', async () => {
    fake = await startFakeAniDBUdp({ users: { alice: 'pw1' } });
    expect(await testAniDBLogin({ server: serverOf(fake), logger, timeoutMs: 500 }, 'alice', 'pw1')).toBe(true);
    expect(await testAniDBLogin({ server: serverOf(fake), logger, timeoutMs: 500 }, 'alice', 'nope')).toBe(false);
    fake.options.silent = true;
    expect(await testAniDBLogin({ server: serverOf(fake), logger, timeoutMs: 100 }, 'alice', 'pw1')).toBe(false);
    // A silent server got the packet twice: one retry, no more.
    expect(fake.received.filter((line) => line.startsWith('AUTH user=alice&pass=pw1'))).toHaveLength(3);
  });

  it('enters the ban state on 555 and stops sending', async () => {
    fake = await startFakeAniDBUdp({ users: { alice: 'pw1' }, banned: true });
    const client = new AniDBUdpClient({ server: serverOf(fake), logger, timings: quick, timeoutMs: 500 });
    await expect(client.login('alice', 'pw1')).rejects.toBeInstanceOf(AniDBBannedError);
    expect(client.banState).toMatchObject({ banned: true, reason: 'Too many requests from this client' });
    const sent = fake.received.length;
    await expect(client.request('UPTIME')).rejects.toBeInstanceOf(AniDBBannedError);
    expect(fake.received.length).toBe(sent);
    await client.close();
  });
});
