// AniDB traffic on a fake clock, against loopback fakes (results/anidb-day.md):
// 1. a simulated day: a 5,000-anime collection (downloaded the day before), a daily refresh driven by UDP UPDATED, an
//    import of new files and two "refresh everything" actions, through the clients; requests per protocol against
//    AniDB's limits;
// 2. the first import of 5,000 anime with their pictures, through the server's scheduler, queue and jobs
//    (anidb-day-import.mjs) against the strict fakes: per protocol and for pictures the shortest gap and the most
//    requests in any 60 s and any hour, against AniDB's long-term rule; the strict fakes must never ban.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');

// The clients and fakes are TypeScript: run again under tsx.
if (!process.env.ANIDB_DAY_UNDER_TSX) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    stdio: 'inherit',
    cwd: root,
    env: { ...process.env, ANIDB_DAY_UNDER_TSX: '1' },
  });
  process.exit(result.status ?? 1);
}

const src = (file) => import(pathToFileURL(path.join(root, file)).href);
const { AniDBHttpClient, memoryRequestLog, ANIDB_HTTP_PACING, HttpRateLimiter } = await src('server/src/providers/anidb/http/index.ts');
const { AniDBUdpClient, RateLimiter, timingsFromSettings, UdpStatus, updatedAnimeSince, lookupFile } = await src(
  'server/src/providers/anidb/udp/index.ts',
);
const { runFirstImport } = await import(pathToFileURL(path.join(here, 'anidb-day-import.mjs')).href);
const { startFakeAniDBHttp, inventedAnimeXml } = await src('fakes/src/anidb-http/index.ts');
const { startFakeAniDBUdp, fileCommands } = await src('fakes/src/anidb-udp/index.ts');
const pino = (await import('pino')).default;

const COLLECTION = 5_000;
const CHANGED_IN_COLLECTION = 120; // anime of the collection AniDB changes during the day
const CHANGED_ELSEWHERE = 900; // other anime AniDB changes (UPDATED lists them too)
const NEW_ANIME = 10;
const NEW_FILES = 60;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

// The fake clock: sleeps move it forward at once; every request is stamped with it.
let now = Date.parse('2026-06-01T00:00:00Z');
const clock = { now: () => now, sleep: async (ms) => void (now += ms) };
const logger = pino({ level: 'silent' });

const xml = inventedAnimeXml({ id: 1, relatedAnime: [], similarAnime: [] });
const animeXml = (id) => xml.replace('<anime id="1"', `<anime id="${id}"`);
const anime = {};
for (let id = 1; id <= COLLECTION + NEW_ANIME; id++) anime[id] = animeXml(id);
const files = Array.from({ length: NEW_FILES }, (_, i) => ({
  size: 1000 + i,
  ed2k: (i + 1).toString(16).padStart(32, '0'),
  fileId: 1 + i,
  animeId: COLLECTION + 1 + (i % NEW_ANIME),
  episodeId: 1,
}));
const http = await startFakeAniDBHttp({ anime });
const udp = await startFakeAniDBUdp({ users: { bench: 'pw' }, commands: fileCommands(files) });
const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'anidb-day-'));

const sent = { http: [], udp: [] };
// The pacing of the default settings (AniDb.HTTPRateLimit / UDPRateLimit: 2 s, ×3, ×5, ×60).
const httpLimiter = new HttpRateLimiter(ANIDB_HTTP_PACING, clock);
const udpLimiter = new RateLimiter(
  timingsFromSettings({ BaseRateInSeconds: 2, SlowRateMultiplier: 3, SlowRatePeriodMultiplier: 5, ResetPeriodMultiplier: 60 }),
  clock,
);
// Stamp every request with the fake time it went out (the limiters pace by the fake clock).
for (const [limiter, list] of [
  [httpLimiter, sent.http],
  [udpLimiter, sent.udp],
]) {
  const before = limiter.beforeSend.bind(limiter);
  limiter.beforeSend = async () => {
    await before();
    list.push(now);
  };
}
const requestLog = memoryRequestLog();
const httpClient = new AniDBHttpClient({
  baseUrl: http.url,
  clientName: 'shokots',
  clientVersion: 1,
  cacheDir,
  logger,
  limiter: httpLimiter,
  requestLog,
  now: clock.now,
});
const udpClient = new AniDBUdpClient({
  server: { host: udp.host, port: udp.port, clientPort: 0 },
  logger,
  limiter: udpLimiter,
  status: new UdpStatus(clock.now),
  clock,
});
udpClient.setCredentials('bench', 'pw');

// The day before: the collection was downloaded, once per anime (the cache files carry the fake time).
const downloadStart = now;
for (let id = 1; id <= COLLECTION; id++) {
  await httpClient.getAnime(id);
  const file = path.join(cacheDir, `AnimeDoc_${id}.xml`);
  fs.utimesSync(file, new Date(now), new Date(now));
}
const importRequests = sent.http.length;
const downloadHours = (now - downloadStart) / HOUR;
now += DAY;
const dayStart = now;
const lastCheck = dayStart - DAY;
sent.http.length = 0;
sent.udp.length = 0;

// AniDB changes anime through the day.
const changedOurs = new Set();
for (let i = 0; i < CHANGED_IN_COLLECTION; i++) changedOurs.add(1 + Math.floor((i * COLLECTION) / CHANGED_IN_COLLECTION));
let minute = 0;
for (const id of [...changedOurs, ...Array.from({ length: CHANGED_ELSEWHERE }, (_, i) => 100_000 + i)])
  udp.animeUpdates.push({ animeId: id, at: Math.floor((lastCheck + (minute++ % 1440) * 60_000) / 1000) });

// 08:00 the daily refresh: UPDATED since the last check, then the collection's changed anime (force, as the scheduler).
now = dayStart + 8 * HOUR;
const updated = await updatedAnimeSince(udpClient, (lastCheck - 5 * 60_000) / 1000);
const inCollection = updated.animeIds.filter((id) => id <= COLLECTION);
for (const id of inCollection) await httpClient.getAnime(id, { force: true });
const refreshHttp = sent.http.length;
// 12:00 new files are imported: a FILE per file, a download per new anime.
now = dayStart + 12 * HOUR;
for (const file of files) await lookupFile(udpClient, file.size, file.ed2k);
for (let id = COLLECTION + 1; id <= COLLECTION + NEW_ANIME; id++) await httpClient.getAnime(id);
// 18:00 and 21:00 the user refreshes everything twice (Action UpdateAllAniDBInfo: force for every anime).
const manual = [];
for (const hour of [18, 21]) {
  now = dayStart + hour * HOUR;
  const before = sent.http.length;
  for (let id = 1; id <= COLLECTION + NEW_ANIME; id++) await httpClient.getAnime(id, { force: true });
  manual.push(sent.http.length - before);
}
await udpClient.close();
await http.close();
await udp.close();
fs.rmSync(cacheDir, { recursive: true, force: true });

const minGap = (times) => times.slice(1).reduce((min, t, i) => Math.min(min, t - times[i]), Infinity);
const maxInWindow = (times, windowMs) => {
  let best = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i] - times[j] >= windowMs) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
};
const perAnime = new Map();
for (const r of http.requests.slice(importRequests)) {
  const aid = /aid=(\d+)/.exec(r)?.[1];
  perAnime.set(aid, (perAnime.get(aid) ?? 0) + 1);
}
const repeats = [...perAnime.values()].filter((n) => n > 1).length;
const udpWindow = maxInWindow(sent.udp, 60_000);
const httpGap = minGap(sent.http);
const udpGap = minGap(sent.udp);
const ok =
  repeats === 0 && httpGap >= 2_000 && udpGap >= 2_000 && udpWindow <= 20 && refreshHttp === CHANGED_IN_COLLECTION && manual[1] === 0;
const lines = [
  `A simulated day (fake clock) with a ${COLLECTION.toLocaleString('en')}-anime collection downloaded the day before: AniDB changes ${CHANGED_IN_COLLECTION} of its anime and ${CHANGED_ELSEWHERE} others; at 08:00 the daily refresh asks UDP \`UPDATED\` and downloads the changed ones; at 12:00 ${NEW_FILES} new files of ${NEW_ANIME} new anime are imported; at 18:00 and 21:00 every anime is refreshed by hand (force). Real clients, loopback fakes; ${ok ? 'every limit met' : 'a limit was NOT met'}.`,
  '',
  '| protocol | requests in the day | what for | shortest gap | most in any 60 s | AniDB limit |',
  '|---|---|---|---|---|---|',
  `| UDP | ${sent.udp.length} | AUTH, ${updated.animeIds.length > 200 ? Math.ceil(updated.animeIds.length / 200) : 1} UPDATED page(s) listing ${updated.animeIds.length} anime, ${NEW_FILES} FILE, LOGOUT | ${(udpGap / 1000).toFixed(1)} s | ${udpWindow} | 2 s apart, 4 s on average (≤ 20 per 60 s with the burst of 5) |`,
  `| HTTP | ${sent.http.length} | daily refresh: ${refreshHttp} (the ${inCollection.length} changed anime of the collection); import: ${NEW_ANIME} new anime; manual full refreshes: ${manual.join(' then ')} | ${(httpGap / 1000).toFixed(1)} s | ${maxInWindow(sent.http, 60_000)} | 2 s apart; one request per anime a day |`,
  '',
  `The daily refresh costs one HTTP request per changed anime (${refreshHttp} for ${inCollection.length}); without \`UPDATED\` (the old scheduler) it was one per anime of the collection, ${COLLECTION.toLocaleString('en')}. No anime was asked for twice in the day (most requests for one anime: ${Math.max(0, ...perAnime.values())}): the first manual refresh re-downloads only what is more than a day old (the collection was downloaded the day before, ${importRequests.toLocaleString('en')} requests, ${downloadHours.toFixed(1)} h at the pace of the default settings), the second is served entirely from the disk cache.`,
];
// 2. The first import, through the server.
const first = await runFirstImport({ root, count: COLLECTION });
const seconds = (ms) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : '—');
const LONG_TERM_PER_HOUR = 900;
const streams = [
  ['UDP', first.udp, `${first.count.toLocaleString('en')} FILE lookups, AUTH, PING/LOGOUT`, first.bans.udp],
  ['HTTP', first.http, `${first.stored.toLocaleString('en')} anime records`, first.bans.http],
  [
    'AniDB pictures',
    first.images,
    `${first.pictures.toLocaleString('en')} pictures (poster, 2 characters, 2 voice actors each)`,
    first.bans.images,
  ],
];
const firstOk =
  first.stored === first.count &&
  first.pictures === first.count * 5 &&
  streams.every(([, figures, , bans]) => bans.length === 0 && figures.perHour <= LONG_TERM_PER_HOUR && figures.minGap >= 2_000);
const quarter = (fraction) =>
  first.estimates.reduce((best, e) =>
    Math.abs(e.actualHoursLeft - first.hours * (1 - fraction)) < Math.abs(best.actualHoursLeft - first.hours * (1 - fraction)) ? e : best,
  );
const estimateRows = [...new Set([first.estimates[0], quarter(0.25), quarter(0.5), quarter(0.75)])].map(
  (e) =>
    `| ${e.label} | ${e.estimate.Udp.Requests.toLocaleString('en')} / ${e.estimate.Http.Requests.toLocaleString('en')} / ${e.estimate.Images.Requests.toLocaleString('en')} + ${e.estimate.Images.Expected.toLocaleString('en')} | ${(e.estimate.TotalSeconds / 3600).toFixed(1)} h | ${e.actualHoursLeft.toFixed(1)} h |`,
);
lines.push(
  '',
  `### First import of ${first.count.toLocaleString('en')} anime with their pictures`,
  '',
  `${first.count.toLocaleString('en')} hashed files, one per anime, unknown to the server; the server's own scheduler (\`MetadataScheduler.check\`) queues their lookups, and its queue (4 threads) runs the file lookups (UDP), the anime downloads they lead to (HTTP) and the picture downloads those lead to, through the AniDB connection's pacers with the default settings, on a virtual clock, against the strict fakes (AniDB's short-term rules and its long-term rule, at most ${LONG_TERM_PER_HOUR} requests in any hour, enforced like AniDB: a breach is a ban). ${first.hours.toFixed(1)} h on the virtual clock, ${first.wallSeconds.toFixed(0)} s wall-clock; ${first.stored.toLocaleString('en')} anime stored, ${first.pictures.toLocaleString('en')} pictures; ${firstOk ? 'every rule kept, no ban' : 'a rule was NOT kept'}.`,
  '',
  `| stream | requests | what | shortest gap | most in any 60 s | most in any hour | long-term rule (one every 4 s: ≤ ${LONG_TERM_PER_HOUR} an hour) | strict fake's bans |`,
  '|---|---|---|---|---|---|---|---|',
  ...streams.map(
    ([name, f, what, bans]) =>
      `| ${name} | ${f.count.toLocaleString('en')} | ${what} | ${seconds(f.minGap)} | ${f.perMinute} | ${f.perHour} | ${f.perHour <= LONG_TERM_PER_HOUR ? 'kept' : 'BROKEN'} | ${bans.length} |`,
  ),
  '',
  "The queue view's estimate (`GET Queue/AniDBEstimate`: lookups, anime and pictures queued, plus the pictures the queued anime will bring at the collection's pictures per anime so far; time at the current pace) against the time the run really took from there. Anime are queued as their files are identified, so while lookups remain the estimate is low by the anime they will reveal.",
  '',
  '| when | queued lookups / anime / pictures + pictures expected | estimate | really left |',
  '|---|---|---|---|',
  ...estimateRows,
);
fs.mkdirSync(path.join(here, 'results'), { recursive: true });
fs.writeFileSync(path.join(here, 'results', 'anidb-day.md'), `${lines.join('\n')}\n`);
console.log(lines.join('\n'));
process.exit(ok && firstOk ? 0 : 1);
