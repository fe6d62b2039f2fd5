import { AniDBUpdateType, type AniDBState } from '@shoko-ts/contract';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAniDBUdp, type FakeAniDBUdp } from '../../../../../fakes/src/anidb-udp/index.js';
import {
  AniDBBannedError,
  AniDBClientRejectedError,
  AniDBLoginFailedError,
  AniDBServerBusyError,
  AniDBTimeoutError,
  AniDBUdpClient,
  UdpStatus,
  type AniDBUdpClientOptions,
} from './index.js';

const logger = pino({ level: 'silent' });
/** Real time, but the rate limiter's waits return at once. */
const instantClock = { now: () => Date.now(), sleep: async () => {} };

let fake: FakeAniDBUdp | null = null;
const clients: AniDBUdpClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await fake?.close();
  fake = null;
});

async function setUp(options: Partial<AniDBUdpClientOptions> = {}) {
  fake = await startFakeAniDBUdp({ users: { alice: 'correct horse' } });
  const client = new AniDBUdpClient({
    server: { host: fake.host, port: fake.port, clientPort: 0 },
    logger,
    timeoutMs: 300,
    clock: instantClock,
    ...options,
  });
  clients.push(client);
  return { fake, client };
}

const commandsSent = (f: FakeAniDBUdp, command: string) => f.received.filter((line) => line.startsWith(`${command} `) || line === command);

describe('AniDB UDP client against the loopback fake', () => {
  it('logs in with the AUTH parameters, keeps the session and logs out on close', async () => {
    const { fake, client } = await setUp();
    expect(await client.login('alice', 'correct horse')).toBe(true);
    expect(fake.received[0]).toMatch(
      /^AUTH user=alice&pass=correct horse&protover=3&client=shokots&clientver=1&enc=utf-8&nat=1&comp=1&tag=t1$/,
    );
    expect(client.publicAddress).toMatch(/^127\.0\.0\.1:\d+$/);

    const uptime = await client.send('UPTIME');
    expect(uptime.code).toBe(208);
    expect(uptime.tag).toBe('t2');
    expect(fake.received[1]).toMatch(/^UPTIME tag=t2&s=[A-Za-z0-9]{5}$/);
    expect(commandsSent(fake, 'AUTH')).toHaveLength(1);

    await client.close();
    expect(fake.received.at(-1)).toMatch(/^LOGOUT tag=t3&s=/);
    expect(fake.sessions.size).toBe(0);
  });

  it('logs in on demand and again, once, when the session is lost', async () => {
    const { fake, client } = await setUp();
    client.setCredentials('alice', 'correct horse');
    expect((await client.send('UPTIME')).code).toBe(208);
    fake.sessions.clear();
    expect((await client.send('UPTIME')).code).toBe(208);
    expect(commandsSent(fake, 'AUTH')).toHaveLength(2);
  });

  it('logs in again only once when AniDB keeps dropping sessions, then pauses every queued command', async () => {
    let now = 1_000_000_000;
    const status = new UdpStatus(() => now);
    const { fake, client } = await setUp({ clock: { now: () => now, sleep: async () => {} }, status });
    const pauses: number[] = [];
    status.onChange((state) => {
      if (state.UpdateType === AniDBUpdateType.OverloadBackoff && state.Value) pauses.push(state.PauseTimeSecs);
    });
    expect(await client.login('alice', 'correct horse')).toBe(true);
    const accepted = { code: 200, text: 'fresh LOGIN ACCEPTED' };
    for (const [round, code] of [501, 506, 598].entries()) {
      // After a pause the first command logs in before it is sent (the lost session was forgotten).
      if (round > 0) fake.scenario.nextReplies.push(accepted);
      fake.scenario.nextReplies.push({ code, text: 'SESSION GONE' }, accepted, { code, text: 'SESSION GONE' });
      const authsBefore = commandsSent(fake, 'AUTH').length;
      const results = await Promise.allSettled(Array.from({ length: 6 }, () => client.send('UPTIME')));
      // One new login after the drop, and none for the five commands queued behind it.
      expect(commandsSent(fake, 'AUTH').length - authsBefore).toBe(round > 0 ? 2 : 1);
      expect((results[0] as PromiseRejectedResult).reason.message).toMatch(/dropped the new session too/);
      for (const result of results.slice(1)) expect((result as PromiseRejectedResult).reason).toBeInstanceOf(AniDBServerBusyError);
      expect(fake.scenario.nextReplies).toHaveLength(0);
      now += 3 * 60 * 60_000;
    }
    // Each time a longer pause, as after silence.
    expect(pauses).toEqual([30, 60, 120]);
    status.dispose();
  });

  it('pauses every queued command when the new login after a lost session fails', async () => {
    const { fake, client } = await setUp();
    expect(await client.login('alice', 'correct horse')).toBe(true);
    fake.scenario.nextReplies.push({ code: 506, text: 'INVALID SESSION' }, { code: 505, text: 'ILLEGAL INPUT OR ACCESS DENIED' });
    const results = await Promise.allSettled([client.send('UPTIME'), client.send('UPTIME'), client.send('UPTIME')]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(AniDBServerBusyError);
    expect(commandsSent(fake, 'AUTH')).toHaveLength(2);
    expect(commandsSent(fake, 'UPTIME')).toHaveLength(1);
    expect(client.banState.Value).toBe(false);
  });

  it('answers PING without a session', async () => {
    const { fake, client } = await setUp();
    expect(await client.ping()).toMatchObject({ code: 300, text: 'PONG' });
    expect(fake.received).toEqual(['PING tag=t1']);
  });

  it('reports a wrong password and does not repeat the refused login', async () => {
    const { fake, client } = await setUp();
    const states: AniDBState[] = [];
    client.onStatusChange((state) => states.push(state));
    expect(await client.login('alice', 'wrong')).toBe(false);
    await expect(client.send('UPTIME')).rejects.toBeInstanceOf(AniDBLoginFailedError);
    expect(commandsSent(fake, 'AUTH')).toHaveLength(1);
    expect(states).toMatchObject([{ Value: true, UpdateType: AniDBUpdateType.InvalidSession }]);
  });

  it('enters the ban state on 555, reports it, and stops sending', async () => {
    const { fake, client } = await setUp({ banPauseMs: 60_000 });
    fake.scenario.banned = true;
    const states: AniDBState[] = [];
    client.onStatusChange((state) => states.push(state));
    await expect(client.login('alice', 'correct horse')).rejects.toBeInstanceOf(AniDBBannedError);
    expect(client.banState).toMatchObject({
      Value: true,
      UpdateType: AniDBUpdateType.UDPBan,
      PauseTimeSecs: 60,
      Message: 'AniDB UDP ban: Too many requests from this client',
    });
    expect(states).toHaveLength(1);
    const sent = fake.received.length;
    await expect(client.send('UPTIME')).rejects.toBeInstanceOf(AniDBBannedError);
    await expect(client.ping()).rejects.toBeInstanceOf(AniDBBannedError);
    expect(fake.received).toHaveLength(sent);
  });

  it('treats an all-zero reply as a ban', async () => {
    const { fake, client } = await setUp();
    fake.scenario.zeroReply = true;
    await expect(client.ping()).rejects.toBeInstanceOf(AniDBBannedError);
    expect(client.banState.Value).toBe(true);
  });

  it('lifts the ban when the pause is over', async () => {
    const { fake, client } = await setUp({ banPauseMs: 100 });
    fake.scenario.banned = true;
    await expect(client.ping()).rejects.toBeInstanceOf(AniDBBannedError);
    fake.scenario.banned = false;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(client.banState.Value).toBe(false);
    expect((await client.ping()).code).toBe(300);
  });

  it('backs off after a 6xx server error', async () => {
    const { fake, client } = await setUp();
    fake.scenario.nextReplies.push({ code: 602, text: 'SERVER BUSY' });
    await expect(client.ping()).rejects.toBeInstanceOf(AniDBServerBusyError);
    await expect(client.ping()).rejects.toThrow(/resumes in/);
    expect(fake.received).toHaveLength(1);
  });

  it('pauses all UDP work after consecutive failures, for longer each time, and starts over after a normal answer', async () => {
    let now = 1_000_000_000;
    const status = new UdpStatus(() => now);
    const { fake, client } = await setUp({ timeoutMs: 100, retries: 0, clock: { now: () => now, sleep: async () => {} }, status });
    const pauses: number[] = [];
    status.onChange((state) => {
      if (state.UpdateType === AniDBUpdateType.OverloadBackoff && state.Value) pauses.push(state.PauseTimeSecs);
    });
    client.setCredentials('alice', 'correct horse');
    fake.scenario.silent = true;
    await expect(client.ping()).rejects.toBeInstanceOf(AniDBTimeoutError);
    // Queued work fails at once without sending anything while the pause lasts.
    const sent = fake.received.length;
    await expect(client.ping()).rejects.toBeInstanceOf(AniDBServerBusyError);
    await expect(client.send('UPTIME')).rejects.toBeInstanceOf(AniDBServerBusyError);
    expect(fake.received).toHaveLength(sent);

    now += 31_000;
    await expect(client.ping()).rejects.toBeInstanceOf(AniDBTimeoutError);
    now += 61_000;
    fake.scenario.silent = false;
    fake.scenario.nextReplies.push({ code: 601, text: 'ANIDB OUT OF SERVICE - TRY AGAIN LATER' });
    await expect(client.ping()).rejects.toBeInstanceOf(AniDBServerBusyError);
    expect(pauses).toEqual([30, 60, 120]);

    now += 121_000;
    expect((await client.ping()).code).toBe(300);
    fake.scenario.silent = true;
    await expect(client.ping()).rejects.toBeInstanceOf(AniDBTimeoutError);
    expect(pauses.at(-1)).toBe(30);
    status.dispose();
  });

  it('never repeats a login AniDB refused, also from a rebuilt client, until the credentials change', async () => {
    const status = new UdpStatus();
    const { fake, client } = await setUp({ status });
    expect(await client.login('alice', 'wrong')).toBe(false);
    const rebuilt = new AniDBUdpClient({
      server: { host: fake.host, port: fake.port, clientPort: 0 },
      logger,
      timeoutMs: 300,
      clock: instantClock,
      status,
    });
    clients.push(rebuilt);
    expect(await rebuilt.login('alice', 'wrong')).toBe(false);
    await expect(rebuilt.send('UPTIME')).rejects.toBeInstanceOf(AniDBLoginFailedError);
    expect(commandsSent(fake, 'AUTH')).toHaveLength(1);
    expect(await rebuilt.login('alice', 'correct horse')).toBe(true);
    expect(commandsSent(fake, 'AUTH')).toHaveLength(2);
  });

  it('stops on 503/504 client errors', async () => {
    const { fake, client } = await setUp();
    fake.scenario.nextReplies.push({ code: 504, text: 'CLIENT BANNED - too old' });
    await expect(client.login('alice', 'correct horse')).rejects.toBeInstanceOf(AniDBClientRejectedError);
  });

  it('resends once after silence, then gives up', async () => {
    const { fake, client } = await setUp({ timeoutMs: 100 });
    fake.scenario.dropNext = 1;
    expect((await client.ping()).code).toBe(300);
    expect(fake.received).toEqual(['PING tag=t1', 'PING tag=t1']);

    fake.scenario.silent = true;
    await expect(client.ping()).rejects.toBeInstanceOf(AniDBTimeoutError);
    expect(fake.received).toHaveLength(4);
  });

  it('skips a late reply that belongs to an earlier, timed-out request', async () => {
    const status = new UdpStatus();
    const { fake, client } = await setUp({ timeoutMs: 300, retries: 0, status });
    fake.scenario.replyDelayMs = 400;
    await expect(client.ping()).rejects.toBeInstanceOf(AniDBTimeoutError);
    status.lower(AniDBUpdateType.OverloadBackoff);
    // The reply to t1 arrives while t2 waits for its own.
    fake.scenario.replyDelayMs = 200;
    expect(await client.ping()).toMatchObject({ code: 300, tag: 't2' });
  });

  it('round-trips values that need escaping in both directions', async () => {
    const { fake, client } = await setUp();
    fake.commands.ECHO = {
      needsSession: true,
      handle: ({ params }) => ({ code: 299, text: 'ECHO', rows: [[params.text, params.other]] }),
    };
    client.setCredentials('alice', 'correct horse');
    const text = "Tom's & Jerry's\nsecond line";
    const reply = await client.send('ECHO', { text, other: 'a=b&c' });
    expect(fake.received.at(-1)).toMatch(/^ECHO text=Tom's &amp; Jerry's<br \/>second line&other=a=b&amp;c&tag=t2&s=/);
    expect(reply.rows).toEqual([[text, 'a=b&c']]);
  });

  it('asks for compression at login and reads a long reply AniDB sent deflated', async () => {
    const { fake, client } = await setUp();
    const long = 'x'.repeat(3000);
    fake.commands.LONG = { needsSession: true, handle: () => ({ code: 299, text: 'LONG', rows: [[long]] }) };
    client.setCredentials('alice', 'correct horse');
    const reply = await client.send('LONG');
    expect(fake.compressedReplies).toBe(1);
    expect(reply.rows).toEqual([[long]]);
  });

  it('refuses a command longer than a packet may be without sending it', async () => {
    const { fake, client } = await setUp();
    await client.login('alice', 'correct horse');
    const sent = fake.received.length;
    await expect(client.send('MYLISTADD', { size: 1, ed2k: 'x', other: 'a'.repeat(1400) })).rejects.toThrow(
      /over the 1400 a packet may carry; not sent/,
    );
    expect(fake.received.length).toBe(sent);
    // Nothing is paused by it: the next command goes out.
    expect((await client.send('UPTIME')).code).toBe(208);
  });
});
