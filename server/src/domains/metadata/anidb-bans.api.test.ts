import { AniDBUpdateType } from '@shoko-ts/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AniDBStateStore } from './anidb-state.store.js';
import { completeFirstRun, createTestServer, createUser, login, patchSettings, type TestServer } from '../../test/harness.js';

const HOUR = 60 * 60_000;
/** `hh:mm:ss` → ms. */
const timeSpanMs = (span: string) => span.split(':').reduce((total, part) => total * 60 + Number(part), 0) * 1000;

/** AniDB bans are written to the database and read back: a restart or a settings save does not forget them. */
describe('AniDB bans survive restarts and settings saves', () => {
  let server: TestServer;
  let adminKey: string;
  let userKey: string;

  const banStatus = async () => {
    const res = await server.request({ method: 'GET', url: '/api/v3/AniDB/BanStatus', key: userKey });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    server = await createTestServer();
    adminKey = await completeFirstRun(server);
    userKey = (await createUser(server, adminKey, 'ban-watcher', 'pw')).key;
  });
  afterAll(() => server.close());

  it('a ban seen before a restart is still in force after it, for both protocols', async () => {
    const anidb = server.services.metadata.anidb;
    anidb.udpStatus.raise(AniDBUpdateType.UDPBan, 'AniDB UDP ban: leech', 1.5 * HOUR);
    anidb.httpBan.raise('AniDB HTTP ban: Banned', 12 * HOUR);
    await anidb.flush();

    await server.close({ keepData: true });
    server = await createTestServer({ restartOf: server });
    const restored = server.services.metadata.anidb;
    expect(restored.udpBanned).toBe(true);
    expect(restored.states()[0].Message).toBe('AniDB UDP ban: leech');
    expect(restored.httpBan.state).toMatchObject({ banned: true, reason: 'AniDB HTTP ban: Banned' });
    // Roughly 12 h left: the ban was not restarted from scratch, nor shortened to nothing.
    const httpLeft = restored.httpBan.state.until!.getTime() - Date.now();
    expect(httpLeft).toBeGreaterThan(11 * HOUR);
    expect(httpLeft).toBeLessThanOrEqual(12 * HOUR);

    server.services.init.startServer();
    await server.services.init.waitForStartup();
    // Still banned once started: starting does not clear what the database says.
    expect(server.services.metadata.anidb.udpBanned).toBe(true);
    adminKey = await login(server, 'Default', 'first-run-pass');
    userKey = adminKey;
    const body = await banStatus();
    expect(body.UDP).toMatchObject({ Type: 'UDPBan', IsBanned: true });
    expect(body.HTTP).toMatchObject({ Type: 'HTTPBan', IsBanned: true });
  });

  it('saving an AniDB setting keeps both bans', async () => {
    await patchSettings(server, adminKey, [
      { op: 'replace', path: '/AniDb/Username', value: 'alice' },
      { op: 'replace', path: '/AniDb/Password', value: 'secret' },
      { op: 'replace', path: '/AniDb/UDPRateLimit/BaseRateInSeconds', value: 3 },
    ]);
    // The new pacing applies to the one process-wide limiter.
    expect(server.services.metadata.anidb.udpLimiter.current.minGapMs).toBe(3000);
    const body = await banStatus();
    expect(body.UDP.IsBanned).toBe(true);
    expect(body.HTTP.IsBanned).toBe(true);
  });

  it('back-off pauses are reported by BanStatus and outlive a restart, and the next failure pauses longer', async () => {
    const anidb = server.services.metadata.anidb;
    anidb.udpStatus.lower(AniDBUpdateType.UDPBan);
    anidb.httpBan.lower();
    anidb.udpStatus.failureStreak = 4;
    anidb.udpStatus.raise(AniDBUpdateType.OverloadBackoff, 'AniDB server error 602 SERVER BUSY on FILE', 10 * 60_000);
    anidb.httpBan.pauseUntil('AniDB answered HTTP 503 for anime 1', Date.now() + 5 * 60_000);
    let body = await banStatus();
    expect(body.UDP).toMatchObject({ Type: 'OverloadBackoff', IsBanned: true, BanDuration: '00:10:00' });
    expect(body.HTTP).toMatchObject({ Type: 'OverloadBackoff', IsBanned: true, BanDuration: '00:05:00' });
    await anidb.flush();

    await server.close({ keepData: true });
    server = await createTestServer({ restartOf: server });
    server.services.init.startServer();
    await server.services.init.waitForStartup();
    adminKey = userKey = await login(server, 'Default', 'first-run-pass');
    const restored = server.services.metadata.anidb;
    body = await banStatus();
    expect(body.UDP).toMatchObject({ Type: 'OverloadBackoff', IsBanned: true });
    expect(body.HTTP).toMatchObject({ Type: 'OverloadBackoff', IsBanned: true });
    // The pause ends when it was going to end before the restart, not 10 minutes after it.
    const udpEnd = new Date(body.UDP.LastUpdatedAt).getTime() + timeSpanMs(body.UDP.BanDuration);
    expect(udpEnd).toBeLessThanOrEqual(Date.now() + 10 * 60_000);
    expect(udpEnd).toBeGreaterThan(Date.now() + 9 * 60_000);
    expect(restored.httpBan.pause?.reason).toBe('AniDB answered HTTP 503 for anime 1');
    // A 10 min pause is the fifth step: the streak carries on from there.
    expect(restored.udpStatus.failureStreak).toBe(5);

    // A ban outranks a pause in BanStatus; ending the pauses leaves nothing stored.
    restored.httpBan.raise('AniDB HTTP ban: Banned', HOUR);
    expect((await banStatus()).HTTP).toMatchObject({ Type: 'HTTPBan', IsBanned: true, BanDuration: '01:00:00' });
    restored.httpBan.lower();
    restored.httpBan.endPause();
    restored.udpStatus.lower(AniDBUpdateType.OverloadBackoff);
    body = await banStatus();
    expect(body.UDP).toMatchObject({ Type: 'UDPBan', IsBanned: false, BanDuration: null });
    expect(body.HTTP).toMatchObject({ Type: 'HTTPBan', IsBanned: false, BanDuration: null });
    await restored.flush();
    expect((await new AniDBStateStore(server.services.db.kysely).bans()).size).toBe(0);
  });

  it('a ban ends by itself: one that ran out while the server was down is not taken up again', async () => {
    const anidb = server.services.metadata.anidb;
    anidb.udpStatus.raise(AniDBUpdateType.UDPBan, 'AniDB UDP ban: short', 20);
    anidb.httpBan.raise('AniDB HTTP ban: short', 20);
    await anidb.flush();
    const until = Date.now() + 20;
    await server.close({ keepData: true });
    while (Date.now() <= until) await new Promise((resolve) => setTimeout(resolve, 10));
    server = await createTestServer({ restartOf: server });
    expect(server.services.metadata.anidb.udpBanned).toBe(false);
    expect(server.services.metadata.anidb.httpBan.state.banned).toBe(false);
    await server.services.metadata.anidb.flush();
    expect((await new AniDBStateStore(server.services.db.kysely).bans()).size).toBe(0);
  });
});
