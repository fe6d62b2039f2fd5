import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  inventedAnimeXml,
  startFakeAniDBHttp,
  type FakeAniDBHttp,
  type StartFakeAniDBHttpOptions,
} from '../../../../../fakes/src/anidb-http/index.js';
import {
  AniDBAnimeNotFoundError,
  AniDBAnimeTooSoonError,
  AniDBHttpBannedError,
  AniDBHttpClient,
  AniDBHttpClientRejectedError,
  AniDBHttpRequestError,
  AniDBInvalidAnimeXmlError,
  decodeBody,
  httpBanToAniDBState,
  memoryRequestLog,
  type AniDBHttpBanState,
  type AniDBHttpClientOptions,
} from './index.js';
import { ANIDB_HTTP_PACING, HttpRateLimiter } from './rate-limit.js';

const logger = pino({ level: 'silent' });
/** The production tiers scaled down so tests never wait seconds. */
const FAST_PACING = { shortGapMs: 1, longGapMs: 1, fastPeriodMs: 0, resetPeriodMs: 0 };
const HOUR = 60 * 60_000;
const ANIME_ID = 9001;

let cacheDir: string;
let fake: FakeAniDBHttp | null = null;
const clients: AniDBHttpClient[] = [];

beforeEach(async () => {
  cacheDir = await mkdtemp(path.join(tmpdir(), 'anidb-http-'));
});

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await fake?.close();
  fake = null;
  await rm(cacheDir, { recursive: true, force: true });
});

async function setUp(options: Partial<AniDBHttpClientOptions> = {}, fakeOptions: Partial<StartFakeAniDBHttpOptions> = {}) {
  fake = await startFakeAniDBHttp({ anime: { [ANIME_ID]: inventedAnimeXml() }, ...fakeOptions });
  // The client reads its options on each request: a test may change them between requests (a longer timeout).
  const clientOptions: AniDBHttpClientOptions = {
    baseUrl: `${fake.url}/`,
    clientName: 'shokots',
    clientVersion: 1,
    cacheDir,
    logger,
    pacing: FAST_PACING,
    timeoutMs: 2_000,
    ...options,
  };
  /** Another client with the same options, as a restart builds it. */
  const rebuild = () => {
    const rebuilt = new AniDBHttpClient(clientOptions);
    clients.push(rebuilt);
    return rebuilt;
  };
  return { fake, client: rebuild(), clientOptions, rebuild };
}

const cacheFile = (aid: number) => path.join(cacheDir, `AnimeDoc_${aid}.xml`);

describe('AniDB HTTP client against the loopback fake', () => {
  it('fetches an anime with the client parameters and caches the raw XML atomically', async () => {
    const { fake, client } = await setUp();
    const anime = await client.getAnime(ANIME_ID);
    expect(anime).toMatchObject({ id: ANIME_ID, mainTitle: 'Kiri no Toudai Yuubinkyoku', episodeCount: 3 });
    expect(fake.requests).toEqual([`/httpapi?request=anime&client=shokots&clientver=1&protover=1&aid=${ANIME_ID}`]);
    expect(await readFile(cacheFile(ANIME_ID), 'utf8')).toBe(inventedAnimeXml());
    expect(await readdir(cacheDir)).toEqual([`AnimeDoc_${ANIME_ID}.xml`]);
  });

  it('asks AniDB for an anime at most once a day: a forced refresh within 24 h is served from the cache', async () => {
    let now = Date.now();
    // A setting below AniDB's day does not shorten it.
    const { fake, client } = await setUp({ now: () => now, minimumHoursToRedownload: 1 });
    await client.getAnime(ANIME_ID);
    expect((await client.getAnime(ANIME_ID)).id).toBe(ANIME_ID);
    expect((await client.getAnime(ANIME_ID, { force: true })).id).toBe(ANIME_ID);
    now += 23 * HOUR;
    await client.getAnime(ANIME_ID);
    await client.getAnime(ANIME_ID, { force: true });
    expect(fake.requests).toHaveLength(1);
    now += 2 * HOUR;
    await client.getAnime(ANIME_ID);
    expect(fake.requests).toHaveLength(2);
  });

  it('waits longer when the setting says so, and force then shortens the wait to one day only', async () => {
    let now = Date.now();
    const { fake, client } = await setUp({ now: () => now, minimumHoursToRedownload: 48 });
    await client.getAnime(ANIME_ID);
    now += 25 * HOUR;
    await client.getAnime(ANIME_ID);
    expect(fake.requests).toHaveLength(1);
    await client.getAnime(ANIME_ID, { force: true });
    expect(fake.requests).toHaveLength(2);
  });

  it('does not ask again within a day even when the cached copy is gone, also from a rebuilt client', async () => {
    const now = Date.now();
    const requestLog = memoryRequestLog();
    const { fake, client, rebuild } = await setUp({ now: () => now, requestLog });
    await client.getAnime(ANIME_ID);
    await rm(cacheFile(ANIME_ID));
    const rebuilt = rebuild();
    await expect(rebuilt.getAnime(ANIME_ID, { force: true })).rejects.toBeInstanceOf(AniDBAnimeTooSoonError);
    expect(fake.requests).toHaveLength(1);
  });

  it('shares one request between concurrent callers for the same anime', async () => {
    const { fake, client } = await setUp({}, { delayMs: 50 });
    const [first, second] = await Promise.all([client.getAnime(ANIME_ID), client.getAnime(ANIME_ID)]);
    expect(first).toBe(second);
    expect(fake.requests).toHaveLength(1);
  });

  it('shares one request between a forced refresh and plain lookups of the same anime, in either order', async () => {
    const { fake, client } = await setUp({}, { delayMs: 50 });
    const results = await Promise.all([
      client.getAnime(ANIME_ID, { force: true }),
      client.getAnime(ANIME_ID),
      client.getAnime(ANIME_ID, { force: true }),
    ]);
    expect(results.map((anime) => anime.id)).toEqual([ANIME_ID, ANIME_ID, ANIME_ID]);
    const other = ANIME_ID + 1;
    fake.anime[other] = inventedAnimeXml({ id: other });
    await Promise.all([client.getAnime(other), client.getAnime(other, { force: true }), client.getAnime(other)]);
    expect(fake.requests.map((request) => /aid=(\d+)/.exec(request)?.[1])).toEqual([String(ANIME_ID), String(other)]);
  });

  it('refetches when the cached copy is unreadable', async () => {
    const { fake, client } = await setUp();
    await writeFile(cacheFile(ANIME_ID), '<anime id="9001"><titles>', 'utf8');
    expect((await client.getAnime(ANIME_ID)).id).toBe(ANIME_ID);
    expect(fake.requests).toHaveLength(1);
  });

  it('reads gzip bodies with and without Content-Encoding', async () => {
    const { client } = await setUp({}, { compression: 'without-header' });
    expect((await client.getAnime(ANIME_ID)).mainTitle).toBe('Kiri no Toudai Yuubinkyoku');
    fake!.compression = 'when-accepted';
    const probe = await fetch(`${fake!.url}/httpapi?request=anime&client=x&clientver=1&protover=1&aid=${ANIME_ID}`, {
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(probe.headers.get('content-encoding')).toBe('gzip');
    await probe.arrayBuffer();
    expect((await client.getAnime(ANIME_ID, { force: true })).titles).toHaveLength(5);
    expect(decodeBody(gzipSync(Buffer.from('<anime/>')))).toBe('<anime/>');
    expect(decodeBody(Buffer.from('<anime/>'))).toBe('<anime/>');
  });
});

describe('AniDB HTTP bans', () => {
  it('enters a 12 h ban on a banned body, reports it, and sends nothing more', async () => {
    const now = Date.now();
    const { fake, client } = await setUp({ now: () => now }, { banned: true });
    const changes: AniDBHttpBanState[] = [];
    client.onBanChange((state) => changes.push(state));

    await expect(client.getAnime(ANIME_ID)).rejects.toBeInstanceOf(AniDBHttpBannedError);
    expect(client.banState).toEqual({
      banned: true,
      until: new Date(now + 12 * HOUR),
      reason: 'AniDB HTTP ban: Banned',
      since: new Date(now),
    });
    expect(changes).toEqual([client.banState]);
    expect(httpBanToAniDBState(client.banState, now)).toMatchObject({ Value: true, UpdateType: 2, PauseTimeSecs: 12 * 60 * 60 });

    await expect(client.getAnime(ANIME_ID + 1)).rejects.toThrow(/no cached copy of anime 9002/);
    expect(fake.requests).toHaveLength(1);
    await expect(readFile(cacheFile(ANIME_ID))).rejects.toThrow(/ENOENT/);
  });

  it('falls back to the cached copy, whatever its age, while banned', async () => {
    let now = Date.now();
    const { fake, client } = await setUp({ now: () => now, minimumHoursToRedownload: 1 });
    await client.getAnime(ANIME_ID);
    fake.banned = true;
    now += 25 * HOUR;
    const during = await client.getAnime(ANIME_ID, { force: true });
    expect(during.id).toBe(ANIME_ID);
    expect(client.banState.banned).toBe(true);
    expect(await readFile(cacheFile(ANIME_ID), 'utf8')).not.toContain('Banned');

    now += 11 * HOUR;
    expect((await client.getAnime(ANIME_ID)).id).toBe(ANIME_ID);
    expect(client.banState.banned).toBe(true);
    expect(fake.requests).toHaveLength(2);
  });

  it('lifts the ban when its pause runs out', async () => {
    const { fake, client } = await setUp({ banDurationMs: 80 }, { banned: true });
    const changes: boolean[] = [];
    client.onBanChange((state) => changes.push(state.banned));
    fake.anime = {};
    await expect(client.getAnime(ANIME_ID)).rejects.toBeInstanceOf(AniDBHttpBannedError);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(changes).toEqual([true, false]);
    expect(client.banState).toEqual({ banned: false, until: null, reason: null, since: null });
    fake.banned = false;
    await expect(client.getAnime(ANIME_ID)).rejects.toBeInstanceOf(AniDBAnimeNotFoundError);
    expect(fake.requests).toHaveLength(2);
  });
});

describe('AniDB HTTP errors', () => {
  it('turns error bodies into typed errors and caches nothing', async () => {
    const { client } = await setUp();
    await expect(client.getAnime(4242)).rejects.toBeInstanceOf(AniDBAnimeNotFoundError);
    const unregistered = new AniDBHttpClient({
      baseUrl: fake!.url,
      clientName: '',
      clientVersion: 1,
      cacheDir,
      logger,
      pacing: FAST_PACING,
    });
    clients.push(unregistered);
    const rejection = await unregistered.getAnime(ANIME_ID).catch((error: unknown) => error);
    expect(rejection).toBeInstanceOf(AniDBHttpClientRejectedError);
    expect(rejection).toMatchObject({ code: 302 });
    expect(await readdir(cacheDir)).toEqual([]);
    await expect(client.getAnime(0)).rejects.toBeInstanceOf(RangeError);
  });

  it('rejects a record without a main title or for another anime', async () => {
    const { fake, client } = await setUp();
    fake.anime[7] = '<anime id="7"><titles><title xml:lang="en" type="official">No main</title></titles></anime>';
    fake.anime[8] = inventedAnimeXml({ id: 80 });
    await expect(client.getAnime(7)).rejects.toBeInstanceOf(AniDBInvalidAnimeXmlError);
    await expect(client.getAnime(8)).rejects.toThrow(/got anime 80/);
    expect(await readdir(cacheDir)).toEqual([]);
  });

  it('retries a timeout once, then fails', async () => {
    const { fake, client } = await setUp({ timeoutMs: 100 }, { delayMs: 400 });
    await expect(client.getAnime(ANIME_ID)).rejects.toBeInstanceOf(AniDBHttpRequestError);
    expect(fake.requests).toHaveLength(2);
  });

  it('pauses every HTTP request after failures, for longer each time, instead of each caller retrying', async () => {
    let now = Date.now();
    const { fake, client, clientOptions } = await setUp({ timeoutMs: 100, now: () => now }, { delayMs: 400 });
    await expect(client.getAnime(ANIME_ID)).rejects.toBeInstanceOf(AniDBHttpRequestError);
    expect(fake.requests).toHaveLength(2);
    await expect(client.getAnime(ANIME_ID + 1)).rejects.toThrow(/paused after failures.*in 30 s/);
    expect(fake.requests).toHaveLength(2);
    now += 31_000;
    await expect(client.getAnime(ANIME_ID)).rejects.toBeInstanceOf(AniDBHttpRequestError);
    await expect(client.getAnime(ANIME_ID)).rejects.toThrow(/in 60 s/);
    now += 61_000;
    fake.delayMs = 0;
    // A busy machine must not make the answer that ends the pauses late enough for a 100 ms timeout (and a retry).
    clientOptions.timeoutMs = 30_000;
    expect((await client.getAnime(ANIME_ID)).id).toBe(ANIME_ID);
    expect(fake.requests).toHaveLength(5);
  });

  it('fails with a request error when nothing listens', async () => {
    const { fake, client } = await setUp();
    await fake.close();
    await expect(client.getAnime(ANIME_ID)).rejects.toThrow(/AniDB HTTP request for anime 9001 failed/);
  });
});

describe('AniDB HTTP rate limit', () => {
  it("keeps the pacing of a rebuilt client: a new client sharing the limiter waits for the old one's gap", async () => {
    const slept: number[] = [];
    let now = Date.now();
    const limiter = new HttpRateLimiter(ANIDB_HTTP_PACING, { now: () => now, sleep: async (ms) => void slept.push(ms) });
    const { fake, client, rebuild } = await setUp({ limiter, now: () => now });
    await client.getAnime(ANIME_ID);
    const rebuilt = rebuild();
    now += 500;
    await expect(rebuilt.getAnime(ANIME_ID + 1)).rejects.toThrow();
    expect(slept).toEqual([1500]);
    expect(fake.requestTimes).toHaveLength(2);
  });
});
