import dgram from 'node:dgram';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inventedAnimeXml, startFakeAniDBHttp, type FakeAniDBHttp } from '../../../../fakes/src/anidb-http/index.js';
import { anidbStrictRules, startFakeAniDBUdp, type FakeAniDBUdp } from '../../../../fakes/src/anidb-udp/index.js';
import { AniDBBannedError, AniDBUdpClient, NO_PACING, RateLimiter } from '../../providers/anidb/udp/index.js';
import type { ServerProcess } from '../../test/server-process.js';
import type { FakeAniDBImages } from '../../../../fakes/src/anidb-images/index.js';
import { importProgress, startServerWithStrictAniDB, type StrictMediaFile } from '../../test/strict-anidb.js';

/** AniDB's time rules 20 times faster, for the fakes and the server alike (the one-a-day rule stays a day). */
const SCALE = 0.05;
/**
 * The full import runs AniDB's time rules 33 times faster (2 s gaps are 60 ms): about 200 packets at the 4 s average
 * take 24 s. The strict fake forgives half a gap of lateness per gap, 90 ms over the three gaps it checks, which a
 * busy machine's scheduling delays stay well under; at smaller scales they would not.
 */
const IMPORT_SCALE = 0.03;
const ANIME_COUNT = 40;
const FILES_PER_ANIME = 5;

/** Nothing here depends on the database: the PostgreSQL pass of `npm test` (SHOKO_TEST_DB set) skips the file. */
const describeOnce = describe.skipIf(!!process.env.SHOKO_TEST_DB);

describeOnce('the strict AniDB fakes ban clients that break the rules', () => {
  it('UDP: packets faster than the gap are answered 555 once the first five are through, then silence', async () => {
    const udp = await startFakeAniDBUdp({ users: { a: 'b' }, strict: anidbStrictRules('udp', SCALE) });
    const client = new AniDBUdpClient({
      server: { host: udp.host, port: udp.port, clientPort: 0 },
      logger: pino({ level: 'silent' }),
      limiter: new RateLimiter(NO_PACING),
      timeoutMs: 300,
    });
    try {
      for (let i = 0; i < 5; i++) expect((await client.send('PING')).code).toBe(300);
      await expect(client.send('PING')).rejects.toBeInstanceOf(AniDBBannedError);
      expect(udp.strict!.bans).toHaveLength(1);
      expect(udp.strict!.bans[0].reason).toMatch(/^4 requests within \d+ ms \(at least 100 ms apart allowed\)$/);
      // Talking during the ban gets silence and starts it over.
      const sent = udp.received.length;
      const raw = dgram.createSocket('udp4');
      await new Promise<void>((resolve) => raw.send('PING', udp.port, udp.host, () => resolve()));
      raw.close();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(udp.received.length).toBe(sent + 1);
      expect(udp.strict!.banned).toBe(true);
      expect(udp.strict!.bans).toHaveLength(1);
    } finally {
      await client.close().catch(() => undefined);
      await udp.close();
    }
  });

  it('HTTP: the same anime twice within a day is a ban, and so is every request during it', async () => {
    const http = await startFakeAniDBHttp({ anime: { 1: inventedAnimeXml({ id: 1 }) }, strict: anidbStrictRules('http', SCALE) });
    const ask = async () => (await fetch(`${http.url}/httpapi?request=anime&client=x&clientver=1&protover=1&aid=1`)).text();
    try {
      expect(await ask()).toContain('<anime id="1"');
      await new Promise((resolve) => setTimeout(resolve, 2_000 * SCALE * 2));
      expect(await ask()).toMatch(/banned/);
      expect(http.strict!.bans.map((ban) => ban.reason)).toEqual(['anime 1 requested twice within a day']);
      expect(await ask()).toMatch(/banned/);
      expect(http.strict!.bans).toHaveLength(1);
    } finally {
      await http.close();
    }
  });
});

/**
 * The real server process against strict AniDB fakes: 200 files of 40 anime are identified and imported, then the
 * whole collection is refreshed twice, and AniDB never has a reason to ban (each anime is asked for once). What is
 * checked is the traffic the server sends AniDB, which does not depend on the database, so it runs on SQLite only
 * (holding work during a ban and resuming it, on both databases, is in anidb-hold.api.test.ts).
 */
describeOnce('a full import against the strict AniDB fakes', () => {
  let udp: FakeAniDBUdp;
  let anidbHttp: FakeAniDBHttp;
  let images: FakeAniDBImages;
  let server: ServerProcess;
  let key: string;
  const cleanups: Array<() => Promise<void> | void> = [];

  beforeAll(async () => {
    const anime: Record<number, string> = {};
    const files: StrictMediaFile[] = [];
    for (let a = 0; a < ANIME_COUNT; a++) {
      const animeId = 30_000 + a * 10;
      anime[animeId] = inventedAnimeXml({ id: animeId, title: `Strict Series ${a}`, regularEpisodes: FILES_PER_ANIME, relatedAnime: [] });
      for (let e = 1; e <= FILES_PER_ANIME; e++)
        files.push({ name: `Strict Series ${a} - ${String(e).padStart(2, '0')}.mkv`, size: 2_000 + a * 10 + e, animeId, episode: e });
    }
    ({ server, key, udp, anidbHttp, images } = await startServerWithStrictAniDB(cleanups, {
      prefix: 'shoko-strict-',
      scale: IMPORT_SCALE,
      files,
      anime,
      // MyList adds would double the UDP packets (and the time) without pacing any differently from the FILE lookups.
      settings: { '/AniDb/MyList_AddFiles': false },
    }));
  }, 120_000);

  afterAll(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });

  it('imports 200 files and refreshes the collection twice without a ban', async () => {
    const noBans = () => {
      const bans = [...udp.strict!.bans, ...anidbHttp.strict!.bans, ...images.strict!.bans];
      if (bans.length) throw new Error(`AniDB banned the server: ${JSON.stringify(bans)}\n${udp.received.slice(-8).join('\n')}`);
    };
    await server.waitFor(
      '200 files to be recognized',
      async () => {
        noBans();
        const { recognized, queueEmpty } = await importProgress(server, key);
        return recognized === 200 && queueEmpty;
      },
      300_000,
    );
    const series = await server.json<{ Total: number }>('GET', '/api/v3/Series?pageSize=1', { key });
    expect(series.Total).toBe(ANIME_COUNT);

    for (let round = 0; round < 2; round++) {
      await server.json('GET', '/api/v3/Action/UpdateAllAniDBInfo', { key });
      await new Promise((resolve) => setTimeout(resolve, 500));
      await server.waitFor('the refresh to finish', async () => (noBans(), (await importProgress(server, key)).queueEmpty), 120_000);
    }
    expect(udp.strict!.bans).toEqual([]);
    expect(anidbHttp.strict!.bans).toEqual([]);
    expect(images.strict!.bans).toEqual([]);
    // One FILE per file and one anime record per anime; the refreshes were served from the disk cache.
    expect(udp.received.filter((line) => line.startsWith('FILE '))).toHaveLength(200);
    const animeAsked = anidbHttp.requests.filter((r) => r.includes('request=anime')).map((r) => /aid=(\d+)/.exec(r)![1]);
    expect(animeAsked).toHaveLength(ANIME_COUNT);
    expect(new Set(animeAsked).size).toBe(ANIME_COUNT);
    const status = await server.json<{ UDP: { IsBanned: boolean }; HTTP: { IsBanned: boolean } }>('GET', '/api/v3/AniDB/BanStatus', {
      key,
    });
    expect(status.UDP.IsBanned).toBe(false);
    expect(status.HTTP.IsBanned).toBe(false);
  }, 420_000);
});
