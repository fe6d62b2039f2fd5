import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAniDBHttp, type FakeAniDBHttp } from '../../../../fakes/src/anidb-http/index.js';
import { startFakeAniDBUdp, type FakeAniDBUdp } from '../../../../fakes/src/anidb-udp/index.js';
import { openDatabase } from '../../db/database.js';
import { setEnv } from '../../test/harness.js';
import { ServerProcess, startFreshServer } from '../../test/server-process.js';
import { AniDBStateStore } from './anidb-state.store.js';

interface BannedStatus {
  Type: string;
  IsBanned: boolean;
  BanDuration: string | null;
  LastUpdatedAt: string;
}

const timeSpanMs = (span: string) => span.split(':').reduce((total, part) => total * 60 + Number(part), 0) * 1000;
const endOf = (status: BannedStatus) => new Date(status.LastUpdatedAt).getTime() + timeSpanMs(status.BanDuration ?? '0:0:0');

/**
 * The real server process against the AniDB fakes: a ban and a back-off pause it ran into are still in force after
 * the process is stopped and started again on the same data, and nothing is sent to AniDB meanwhile.
 */
describe('AniDB bans and pauses outlive a restart of the server process', () => {
  let udp: FakeAniDBUdp;
  let anidbHttp: FakeAniDBHttp;
  let server: ServerProcess;
  let home: string;
  let databaseUrl: string | null;
  let key: string;
  const cleanups: Array<() => Promise<void> | void> = [];

  beforeAll(async () => {
    udp = await startFakeAniDBUdp({ users: { tester: 'secret1' } });
    anidbHttp = await startFakeAniDBHttp({ anime: {}, banned: true });
    cleanups.push(setEnv({ SHOKO_ANIDB_UDP: `${udp.host}:${udp.port}`, SHOKO_ANIDB_HTTP: anidbHttp.url }), udp.close, anidbHttp.close);
    ({ server, home, databaseUrl, key } = await startFreshServer(cleanups, 'shoko-anidb-restart-'));
  }, 120_000);

  afterAll(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });

  it('keeps an HTTP ban and a UDP back-off across a restart', async () => {
    const banStatus = async (apiKey: string) =>
      server.json<{ UDP: BannedStatus; HTTP: BannedStatus }>('GET', '/api/v3/AniDB/BanStatus', { key: apiKey });

    // AniDB is overloaded: the login test gets 602 and every UDP command pauses for 30 s.
    udp.scenario.nextReplies.push({ code: 602, text: 'SERVER BUSY' });
    const login = await server.fetch('POST', '/api/v3/Settings/AniDB/TestLogin', {
      key,
      body: { Username: 'tester', Password: 'secret1' },
    });
    expect(login.status).toBe(400);
    // AniDB bans our HTTP requests.
    expect(await server.json('POST', '/api/v3/Series/AniDB/9001/Refresh?immediate=true', { key })).toBe(false);
    expect(anidbHttp.requests).toHaveLength(1);
    const before = await banStatus(key);
    expect(before.UDP).toMatchObject({ Type: 'OverloadBackoff', IsBanned: true, BanDuration: '00:00:30' });
    expect(before.HTTP).toMatchObject({ Type: 'HTTPBan', IsBanned: true, BanDuration: '12:00:00' });

    await server.stop();
    // Both are in the database with the times they end.
    const db = openDatabase({ home, databaseUrl });
    const stored = await new AniDBStateStore(db.kysely).bans();
    await db.close();
    expect(Math.abs(stored.get('http')!.until - endOf(before.HTTP))).toBeLessThan(1_000);
    expect(Math.abs(stored.get('udp-backoff')!.until - endOf(before.UDP))).toBeLessThan(1_000);
    await server.start();
    await server.waitForStarted();
    const after = await banStatus(await server.login());
    expect(after.HTTP).toMatchObject({ Type: 'HTTPBan', IsBanned: true });
    expect(Math.abs(endOf(after.HTTP) - endOf(before.HTTP))).toBeLessThan(2_000);
    // The 30 s pause ends when it was going to end before the restart: still on if the restart was quicker than that.
    if (Date.now() < endOf(before.UDP) - 2_000) {
      expect(after.UDP).toMatchObject({ Type: 'OverloadBackoff', IsBanned: true });
      expect(Math.abs(endOf(after.UDP) - endOf(before.UDP))).toBeLessThan(2_000);
    } else if (Date.now() > endOf(before.UDP) + 2_000) {
      expect(after.UDP).toMatchObject({ Type: 'UDPBan', IsBanned: false });
    }

    // Nothing reaches AniDB while both last: the refresh is refused without a request, the login test sends no AUTH.
    const key2 = await server.login();
    const sentUdp = udp.received.length;
    expect(await server.json('POST', '/api/v3/Series/AniDB/9001/Refresh?immediate=true', { key: key2 })).toBe(false);
    expect(anidbHttp.requests).toHaveLength(1);
    if (Date.now() < endOf(before.UDP) - 2_000) {
      await server.fetch('POST', '/api/v3/Settings/AniDB/TestLogin', { key: key2, body: { Username: 'tester', Password: 'secret1' } });
      expect(udp.received.length).toBe(sentUdp);
    }
  }, 240_000);
});
