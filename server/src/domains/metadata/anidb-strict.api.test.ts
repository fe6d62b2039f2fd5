import { createHash, randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inventedAnimeXml, inventedEpisodeId, startFakeAniDBHttp, type FakeAniDBHttp } from '../../../../fakes/src/anidb-http/index.js';
import {
  anidbStrictRules,
  fileCommands,
  startFakeAniDBUdp,
  type FakeAniDBFile,
  type FakeAniDBUdp,
} from '../../../../fakes/src/anidb-udp/index.js';
import { AniDBBannedError, AniDBUdpClient, NO_PACING, RateLimiter } from '../../providers/anidb/udp/index.js';
import { setEnv } from '../../test/harness.js';
import { ServerProcess, startFreshServer } from '../../test/server-process.js';

/** AniDB's time rules 20 times faster, for the fakes and the server alike (the one-a-day rule stays a day). */
const SCALE = 0.05;
const ANIME_COUNT = 40;
const FILES_PER_ANIME = 5;
const md4 = (data: Buffer) => createHash('md4').update(data).digest('hex').toUpperCase();

describe('the strict AniDB fakes ban clients that break the rules', () => {
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
 * whole collection is refreshed twice, and AniDB never has a reason to ban (each anime is asked for once).
 */
describe('a full import against the strict AniDB fakes', () => {
  let udp: FakeAniDBUdp;
  let anidbHttp: FakeAniDBHttp;
  let server: ServerProcess;
  let media: string;
  let key: string;
  const cleanups: Array<() => Promise<void> | void> = [];

  beforeAll(async () => {
    media = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-strict-media-')));
    const files: FakeAniDBFile[] = [];
    const anime: Record<number, string> = {};
    for (let a = 0; a < ANIME_COUNT; a++) {
      const animeId = 30_000 + a * 10;
      anime[animeId] = inventedAnimeXml({ id: animeId, title: `Strict Series ${a}`, regularEpisodes: FILES_PER_ANIME, relatedAnime: [] });
      for (let e = 1; e <= FILES_PER_ANIME; e++) {
        const data = randomBytes(2_000 + a * 10 + e);
        const name = `Strict Series ${a} - ${String(e).padStart(2, '0')}.mkv`;
        fs.writeFileSync(path.join(media, name), data);
        files.push({
          size: data.length,
          ed2k: md4(data),
          fileId: 500_000 + a * 10 + e,
          animeId,
          episodeId: inventedEpisodeId(animeId, String(e)),
        });
      }
    }
    udp = await startFakeAniDBUdp({ users: { tester: 'secret1' }, commands: fileCommands(files), strict: anidbStrictRules('udp', SCALE) });
    anidbHttp = await startFakeAniDBHttp({ anime, strict: anidbStrictRules('http', SCALE) });
    cleanups.push(
      () => fs.rmSync(media, { recursive: true, force: true }),
      udp.close,
      anidbHttp.close,
      setEnv({
        SHOKO_ANIDB_UDP: `${udp.host}:${udp.port}`,
        SHOKO_ANIDB_HTTP: anidbHttp.url,
        SHOKO_ANIDB_LOOPBACK_PACING: String(SCALE),
        SHOKO_ANIDB_TITLES_URL: 'http://127.0.0.1:9/anime-titles.xml.gz',
        SHOKO_ANIDB_IMAGE_URL: 'http://127.0.0.1:9',
      }),
    );
    ({ server, key } = await startFreshServer(cleanups, 'shoko-strict-'));
  }, 120_000);

  afterAll(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });

  it('imports 200 files and refreshes the collection twice without a ban', async () => {
    await server.json('PATCH', '/api/v3/Settings', {
      key,
      body: [
        { op: 'replace', path: '/AniDb/Username', value: 'tester' },
        { op: 'replace', path: '/AniDb/Password', value: 'secret1' },
      ],
    });
    const folder = await server.json<{ ID: number }>('POST', '/api/v3/ImportFolder', {
      key,
      body: { Name: 'Strict', Path: media, DropFolderType: 'Source', WatchForNewFiles: false },
    });
    await server.json('GET', `/api/v3/ImportFolder/${folder.ID}/Scan`, { key });
    const queueEmpty = async () => (await server.json<{ TotalCount: number }>('GET', '/api/v3/Queue', { key })).TotalCount === 0;
    const recognized = async () =>
      (await server.json<{ Total: number }>('GET', '/api/v3/File?pageSize=1&exclude=Unrecognized', { key })).Total;
    const noBans = () => {
      const bans = [...udp.strict!.bans, ...anidbHttp.strict!.bans];
      if (bans.length) throw new Error(`AniDB banned the server: ${JSON.stringify(bans)}\n${udp.received.slice(-8).join('\n')}`);
    };
    await server.waitFor(
      '200 files to be recognized',
      async () => (noBans(), (await recognized()) === 200 && (await queueEmpty())),
      300_000,
    );
    const series = await server.json<{ Total: number }>('GET', '/api/v3/Series?pageSize=1', { key });
    expect(series.Total).toBe(ANIME_COUNT);

    for (let round = 0; round < 2; round++) {
      await server.json('GET', '/api/v3/Action/UpdateAllAniDBInfo', { key });
      await new Promise((resolve) => setTimeout(resolve, 500));
      await server.waitFor('the refresh to finish', async () => (noBans(), await queueEmpty()), 120_000);
    }

    expect(udp.strict!.bans).toEqual([]);
    expect(anidbHttp.strict!.bans).toEqual([]);
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
