// The console where users feel it: in Debian's Chromium (playwright-core), from a fresh browser context each time, the
// time from navigation (or the login click) until a page shows its content, and the bytes it loaded on the way, on a
// generated collection. With OFFICIAL_WEBUI_DIST (a build of Shoko's web UI, made outside this repository) the same
// steps run with that UI served by the same server, and the ratio per step is printed. Writes
// results/console-<size>-<db>.md and .json.
//   BENCH_CONSOLE_SIZES=100k,400k   (default 100k)
//   BENCH_CONSOLE_DBS=sqlite,postgres   (default sqlite; PostgreSQL needs the Debian binaries or BENCH_PG_URL)
//   BENCH_CONSOLE_RUNS=5   fresh page loads per step (median reported)
//   BENCH_CONSOLE_STEPS=dashboard,series   only the steps whose name contains one of these
//   BENCH_CONSOLE_SETTLE_MS=8000   how long after Started the measurement begins
//   BENCH_CONSOLE_READ_CACHE=on|off   the server's short-lived answer cache (default on, as users run it)
//   OFFICIAL_WEBUI_DIST=/path/to/dist   Shoko's web UI build to compare with
//   BENCH_CONSOLE_OURS_DIST=/path/to/dist   our console's build (default web/dist)
//   BENCH_CONSOLE_BEFORE_DIST=/path/to/dist   a build of our console from before a change: its loads take turns with the
//                                             others' and the table gains its column and before ÷ ours
//   BENCH_CONSOLE_SCREENSHOTS=dir   a screenshot of each step's last run
// probe() and scrollToEnd() run in the page:
/* global window, document, MutationObserver, getComputedStyle, requestAnimationFrame */
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { keptCollection, loadAverage, longestSeriesIds, requireBuiltServer, root, SIZES, startServer } from './collections.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from './lib.mjs';

const SIZE_NAMES = (process.env.BENCH_CONSOLE_SIZES ?? '100k').split(',').map((s) => s.trim());
const DBS = (process.env.BENCH_CONSOLE_DBS ?? 'sqlite').split(',').map((d) => d.trim());
const RUNS = Number(process.env.BENCH_CONSOLE_RUNS ?? 5);
const ONLY = (process.env.BENCH_CONSOLE_STEPS ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const SETTLE_MS = Number(process.env.BENCH_CONSOLE_SETTLE_MS ?? 8000);
const READ_CACHE = process.env.BENCH_CONSOLE_READ_CACHE ?? 'on';
const OFFICIAL = process.env.OFFICIAL_WEBUI_DIST ? path.resolve(process.env.OFFICIAL_WEBUI_DIST) : null;
const SCREENSHOTS = process.env.BENCH_CONSOLE_SCREENSHOTS ?? null;
const BEFORE = process.env.BENCH_CONSOLE_BEFORE_DIST ? path.resolve(process.env.BENCH_CONSOLE_BEFORE_DIST) : null;
const STEP_TIMEOUT_MS = 30_000;
// A request counts as the page's own while it is an API call (fetch/XHR) other than the live feed.
const QUIET_MS = 700;

/**
 * Runs in every page before its scripts: watches the DOM for the texts a step waits for (each entry a list of
 * alternatives, any one of which will do) and records when all were present, on the page's clock
 * (performance.now(), 0 = navigation start). With `settle`, also the end of the last API response once the network
 * went quiet, so "every widget filled" means every request the page made has answered.
 */
function probe(setup) {
  if (setup.storage) {
    for (const [k, v] of Object.entries(setup.storage.local ?? {})) localStorage.setItem(k, v);
    for (const [k, v] of Object.entries(setup.storage.session ?? {})) sessionStorage.setItem(k, v);
  }
  performance.setResourceTimingBufferSize(100_000);
  const state = { textAt: null, want: null, origin: 0 };
  window.__bench = state;
  const check = () => {
    if (!state.want || state.textAt !== null || !document.body) return;
    const text = document.body.textContent ?? '';
    if (state.want.every((alternatives) => alternatives.some((t) => text.includes(t)))) state.textAt = performance.now();
  };
  state.start = (want, origin) => {
    state.want = want;
    state.origin = origin ?? 0;
    state.textAt = null;
    check();
  };
  if (setup.want) state.want = setup.want;
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
  state.apiEntries = () =>
    performance
      .getEntriesByType('resource')
      .filter((e) => (e.initiatorType === 'fetch' || e.initiatorType === 'xmlhttprequest') && !/signalr|\/hub/i.test(e.name));
  state.bytes = () => {
    const nav = performance.getEntriesByType('navigation')[0];
    const all = performance.getEntriesByType('resource').filter((e) => e.startTime >= state.origin);
    const js = all.filter((e) => /\.m?js(\?|$)/.test(e.name)).reduce((s, e) => s + (e.transferSize || e.encodedBodySize), 0);
    const total = all.reduce((s, e) => s + (e.transferSize || e.encodedBodySize), 0) + (state.origin === 0 && nav ? nav.transferSize : 0);
    return {
      js,
      total,
      requests: all.length,
      api: all.filter((e) => e.initiatorType === 'fetch' || e.initiatorType === 'xmlhttprequest').length,
    };
  };
}

/** Scrolls the page's biggest scrolling element to its end each frame until the wanted texts appear. */
function scrollToEnd() {
  const scrollers = () =>
    [document.scrollingElement, ...document.querySelectorAll('*')].filter((el) => {
      if (!el || el.scrollHeight <= el.clientHeight + 2) return false;
      if (el === document.scrollingElement) return true;
      const overflow = getComputedStyle(el).overflowY;
      return overflow === 'auto' || overflow === 'scroll';
    });
  const tick = () => {
    if (window.__bench.textAt !== null) return;
    const list = scrollers().sort((a, b) => b.scrollHeight - a.scrollHeight)[0];
    if (list) list.scrollTop = list.scrollHeight;
    requestAnimationFrame(tick);
  };
  tick();
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** What the steps look for, found through the API before any measurement. */
async function findTargets(server, apikey) {
  const get = (url) => server.call('GET', `/api/v3/${url}`, undefined, apikey);
  const post = (url, body) => server.call('POST', `/api/v3/${url}`, body, apikey);
  const names = (list, n = 12) => list.slice(0, n).map((x) => x.Name);
  const byName = (inverted) => ({ Sorting: { Type: 'Name', IsInverted: inverted } });
  const firstGroups = (await post('Filter/Preview/Group?pageSize=30&page=1', byName(false))).List;
  const lastGroups = (await post('Filter/Preview/Group?pageSize=3&page=1', byName(true))).List;
  const group = firstGroups.find((g) => g.Size > 1) ?? firstGroups[0];
  const groupSeries = await post(`Filter/Preview/Group/${group.IDs.ID}/Series?includeDataFrom=AniDB`, {});
  // The series with the most episodes (the generated collections' longest runs 1,500).
  const [longestId] = await longestSeriesIds(server.call, apikey, 1);
  const biggest = await get(`Series/${longestId}`);
  const episodes = (await get(`Series/${biggest.IDs.ID}/Episode?pageSize=5&page=1&includeDataFrom=AniDB`)).List;
  const series = (await get('Series?pageSize=1&page=40')).List[0];
  const fileName = (f) => (f.Locations?.[0]?.RelativePath ?? '').split(/[\\/]/).pop();
  // Generated files are named by number: a number's first five digits find ten or so of them.
  const word = fileName((await get('File?pageSize=1&page=300')).List[0])
    .replace(/\.[^.]*$/, '')
    .slice(0, 5);
  const found = (await get(`File/Search/${word}?pageSize=100&page=1`)).List;
  const releases = (await get('ReleaseManagement/MultipleReleases/Series?ignoreVariations=true&pageSize=10&page=1')).List;
  const unrecognized = (await get('File?pageSize=20&page=1&include_only=Unrecognized&include=AbsolutePaths')).List;
  const recentSeries = (await get('Dashboard/RecentlyAddedSeries?pageSize=20&includeRestricted=false')).List;
  const episodeName = (e) => e.Name ?? e.AniDB?.Titles?.[0]?.Name ?? e.AniDB?.Title;
  return {
    firstGroups: names(firstGroups),
    lastGroups: names(lastGroups),
    group: { id: group.IDs.ID, series: names(groupSeries) },
    series: { id: series.IDs.ID, name: series.Name },
    big: {
      id: biggest.IDs.ID,
      name: biggest.Name,
      episodes: episodes.map(episodeName).filter(Boolean),
      count: biggest.Sizes?.Total?.Episodes,
    },
    search: { word, files: found.map(fileName).filter(Boolean) },
    releases: names(releases),
    unrecognized: unrecognized.map(fileName).filter(Boolean),
    recentSeries: names(recentSeries),
  };
}

/** The steps, each: where to go, what to wait for, and how (the same for both consoles unless `ui` says otherwise). */
function stepsFor(t) {
  return [
    { name: 'login → dashboard filled', login: true, want: [t.recentSeries], settle: true },
    { name: 'dashboard filled', url: 'dashboard', want: [t.recentSeries], settle: true },
    { name: 'collection, first groups', url: 'collection', want: [t.firstGroups] },
    { name: 'collection, scrolled to its end', url: 'collection', want: [t.firstGroups], then: { want: [t.lastGroups], scroll: true } },
    { name: 'group page', url: `collection/group/${t.group.id}`, want: [t.group.series] },
    { name: 'series overview', url: `collection/series/${t.series.id}/overview`, want: [[t.series.name]], settle: true },
    { name: `episodes tab (${t.big.count ?? '?'} episodes)`, url: `collection/series/${t.big.id}/episodes`, want: [t.big.episodes] },
    { name: 'file search with results', url: 'utilities/file-search', search: t.search.word, want: [t.search.files] },
    { name: 'release management list', url: 'utilities/release-management/MultipleReleases', want: [t.releases] },
    { name: 'unrecognized files', url: 'utilities/unrecognized/files', want: [t.unrecognized] },
    { name: 'settings', url: 'settings/general', want: [['General']], settle: true },
  ].filter((s) => !ONLY.length || ONLY.some((o) => s.name.includes(o)));
}

/** Waits until the wanted texts are shown and, with `settle`, the page's API calls went quiet; times on the page's clock. */
async function waitContent(page, settle, origin) {
  await page.waitForFunction(() => window.__bench?.textAt !== null, null, { timeout: STEP_TIMEOUT_MS, polling: 20 });
  let at = await page.evaluate(() => window.__bench.textAt);
  if (settle) {
    let last = -1;
    for (;;) {
      const { end, pending } = await page.evaluate(() => {
        const entries = window.__bench.apiEntries();
        return { end: Math.max(0, ...entries.map((e) => e.responseEnd)), pending: entries.length };
      });
      if (end === last) break;
      last = end;
      await page.waitForTimeout(QUIET_MS);
      void pending;
    }
    at = Math.max(at, last);
  }
  return at - origin;
}

async function login(browser, base) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${base}/webui/login`);
  await page.locator('input[type="password"]').waitFor({ timeout: STEP_TIMEOUT_MS });
  await page.locator('input:not([type="password"]):not([type="checkbox"])').first().fill('bench');
  await page.locator('input[type="password"]').fill('bench');
  return { context, page };
}

/**
 * The signed-in browser storage every step but the login starts from. Its key is swapped for one issued to a device
 * name of this run alone: the server keeps 20 keys per (user, device), so the login steps' own logins (the console's
 * device name) — or another bench on the same data — would otherwise prune it and send later steps to the login page.
 */
async function storageAfterLogin(browser, server) {
  const { context, page } = await login(browser, server.base);
  const answer = page.waitForResponse(
    (res) => new URL(res.url()).pathname.toLowerCase() === '/api/auth' && res.request().method() === 'POST',
  );
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  const { apikey: consoleKey } = await (await answer).json();
  await page.waitForURL(/dashboard/, { timeout: STEP_TIMEOUT_MS });
  await page.waitForTimeout(500);
  const storage = await page.evaluate(() => ({ local: { ...localStorage }, session: { ...sessionStorage } }));
  await context.close();
  const device = `bench-session-${process.pid}-${Date.now()}`;
  const { apikey } = await server.call('POST', '/api/auth', { user: 'bench', pass: 'bench', device });
  const swap = (values) => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.split(consoleKey).join(apikey)]));
  return { local: swap(storage.local), session: swap(storage.session) };
}

async function runStep(browser, base, step, storage, shot) {
  let context;
  let page;
  let origin = 0;
  if (step.login) {
    ({ context, page } = await login(browser, base));
    await page.evaluate(() => performance.clearResourceTimings());
    await context.addInitScript(probe, {});
    await page.evaluate(probe, {});
    const button = page.getByRole('button', { name: 'Login', exact: true });
    await button.waitFor();
    origin = await page.evaluate((want) => {
      const now = performance.now();
      window.__bench.start(want, now);
      return now;
    }, step.want);
    await button.click();
  } else {
    context = await browser.newContext();
    await context.addInitScript(probe, { storage, want: step.search ? null : step.want });
    page = await context.newPage();
    await page.goto(`${base}/webui/${step.url}`, { waitUntil: 'commit' });
    if (step.search) {
      const selector = 'input[type="search"], input[placeholder*="earch"], input[aria-label*="earch"]';
      // Watched every frame: a locator's wait checks again after 20, 50, 100, 100 and then every 500 ms, which put
      // 100–290 ms of the bench's own waiting between the box's appearance and the typed word.
      await page.waitForFunction((css) => !!document.querySelector(css)?.getClientRects().length, selector, {
        timeout: STEP_TIMEOUT_MS,
        polling: 'raf',
      });
      const box = page.locator(selector).first();
      await page.evaluate((want) => window.__bench.start(want, 0), step.want);
      await box.fill(step.search);
    }
  }
  let ms;
  try {
    ms = await waitContent(page, step.settle, origin);
  } catch (e) {
    if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, `failed-${Date.now()}.png`) }).catch(() => undefined);
    await context.close();
    throw e;
  }
  if (step.then) {
    origin = await page.evaluate((want) => {
      const now = performance.now();
      window.__bench.start(want, now);
      return now;
    }, step.then.want);
    if (step.then.scroll) await page.evaluate(scrollToEnd);
    ms = await waitContent(page, false, origin);
  }
  const bytes = await page.evaluate(() => window.__bench.bytes());
  if (shot) await page.screenshot({ path: shot });
  await context.close();
  return { ms, ...bytes };
}

/**
 * Runs every step with each console in `consoles` ({ name, webuiDir }), each behind its own server on the same
 * collection, the consoles' loads taking turns so that whatever else the machine does falls on both alike.
 */
async function benchConsoles(label, home, databaseUrl, consoles) {
  const servers = [];
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  const results = Object.fromEntries(consoles.map((c) => [c.name, {}]));
  try {
    for (const c of consoles) {
      const server = await startServer(home, databaseUrl, { SHOKO_WEBUI_DIR: c.webuiDir, SHOKO_READ_CACHE: READ_CACHE });
      servers.push(server);
      await server.waitStarted();
    }
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const storages = [];
    for (const server of servers) storages.push(await storageAfterLogin(browser, server));
    for (const step of stepsFor(await targetsOf(servers[0]))) {
      const runs = consoles.map(() => []);
      for (let i = 0; i < RUNS; i++) {
        for (const [n, c] of consoles.entries()) {
          if (runs[n].some((r) => r.error)) continue;
          const shot =
            SCREENSHOTS && i === RUNS - 1
              ? path.join(SCREENSHOTS, `${label}-${c.name}-${step.name.replace(/[^a-z0-9]+/gi, '-')}.png`)
              : null;
          try {
            runs[n].push(await runStep(browser, servers[n].base, step, storages[n], shot));
          } catch (e) {
            runs[n].push({
              error: String(e.message ?? e)
                .split('\n')[0]
                .slice(0, 160),
            });
          }
        }
      }
      for (const [n, c] of consoles.entries()) {
        const ok = runs[n].filter((r) => !r.error);
        const r = (results[c.name][step.name] = ok.length
          ? {
              ms: +median(ok.map((r) => r.ms)).toFixed(0),
              runsMs: ok.map((r) => +r.ms.toFixed(0)),
              jsKb: +(median(ok.map((r) => r.js)) / 1024).toFixed(0),
              totalKb: +(median(ok.map((r) => r.total)) / 1024).toFixed(0),
              api: median(ok.map((r) => r.api)),
            }
          : { error: runs[n][0].error });
        console.log(
          `  ${label} ${c.name} ${step.name}: ${r.error ?? `${r.ms} ms (runs ${r.runsMs.join(', ')}), JS ${r.jsKb} kB, all ${r.totalKb} kB, ${r.api} API calls`}`,
        );
      }
    }
  } finally {
    await browser.close();
    for (const server of servers) await server.stop();
  }
  return results;
}

let targetsCache = null;
async function targetsOf(server) {
  if (!targetsCache) {
    const { apikey } = await server.call('POST', '/api/auth', { user: 'bench', pass: 'bench', device: 'bench' });
    targetsCache = await findTargets(server, apikey);
  }
  return targetsCache;
}

function report(sizeName, db, ours, official, before, loadBefore, loadAfter) {
  const size = SIZES[sizeName];
  const names = Object.keys(ours);
  const cell = (r) => (r ? (r.error ? `error: ${r.error}` : `${r.ms.toLocaleString('en')} ms`) : '–');
  const bytes = (r) => (r && !r.error ? `${r.jsKb} / ${r.totalKb}` : '–');
  const ratio = (name, other = official) => {
    const a = ours[name];
    const b = other?.[name];
    return a && b && !a.error && !b.error ? (b.ms / Math.max(1, a.ms)).toFixed(2) : '–';
  };
  // With a build from before a change: its time and before ÷ ours after each step's ours.
  const beforeHead = before ? ' before | before ÷ ours |' : '';
  const beforeCells = (name) => (before ? ` ${cell(before[name])} | ${ratio(name, before)} |` : '');
  const lines = [
    `${db}, ${size.series.toLocaleString('en')} series / ${size.files.toLocaleString('en')} files (generated), Debian Chromium headless, a fresh browser context per load, median of ${RUNS} loads; the server's answer cache ${READ_CACHE}. Time from navigation (or the login click) until the page's content is shown (dashboard and settings: also every API call answered); kB = JavaScript / everything transferred by then. Load average ${loadBefore} at the start, ${loadAfter} at the end.`,
    '',
    official
      ? `| step | ours |${beforeHead} official v2.5.11 | official ÷ ours | ours kB JS / all | official kB JS / all |`
      : `| step | ours |${beforeHead} kB JS / all | API calls |`,
    `|---|---|${before ? '---|---|' : ''}${official ? '---|---|---|---|' : '---|---|'}`,
    ...names.map((name) =>
      official
        ? `| ${name} | ${cell(ours[name])} |${beforeCells(name)} ${cell(official[name])} | ${ratio(name)} | ${bytes(ours[name])} | ${bytes(official[name])} |`
        : `| ${name} | ${cell(ours[name])} |${beforeCells(name)} ${bytes(ours[name])} | ${ours[name]?.api ?? '–'} |`,
    ),
    '',
  ];
  const dir = path.join(root, 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const base = `console-${sizeName}-${db.toLowerCase()}`;
  fs.writeFileSync(
    path.join(dir, `${base}.json`),
    JSON.stringify({ size, runs: RUNS, readCache: READ_CACHE, ours, official, before }, null, 2),
  );
  fs.writeFileSync(path.join(dir, `${base}.md`), lines.join('\n'));
  console.log(lines.join('\n'));
}

async function main() {
  requireBuiltServer();
  const ourDist = path.resolve(process.env.BENCH_CONSOLE_OURS_DIST ?? path.join(root, 'web', 'dist'));
  if (!fs.existsSync(path.join(ourDist, 'index.html'))) throw new Error(`Build the console first (npm run build): ${ourDist}`);
  if (OFFICIAL && !fs.existsSync(path.join(OFFICIAL, 'index.html'))) throw new Error(`OFFICIAL_WEBUI_DIST has no index.html: ${OFFICIAL}`);
  if (BEFORE && !fs.existsSync(path.join(BEFORE, 'index.html'))) throw new Error(`BENCH_CONSOLE_BEFORE_DIST has no index.html: ${BEFORE}`);
  if (SCREENSHOTS) fs.mkdirSync(SCREENSHOTS, { recursive: true });
  for (const sizeName of SIZE_NAMES) {
    const size = SIZES[sizeName];
    if (!size) throw new Error(`BENCH_CONSOLE_SIZES takes ${Object.keys(SIZES).join(', ')}`);
    for (const db of DBS) {
      const { home, databaseUrl, release } = await keptCollection(db, size);
      targetsCache = null;
      const label = `${sizeName} ${db}`;
      try {
        const loadBefore = loadAverage();
        const consoles = [
          { name: 'ours', webuiDir: ourDist },
          ...(BEFORE ? [{ name: 'before', webuiDir: BEFORE }] : []),
          ...(OFFICIAL ? [{ name: 'official', webuiDir: OFFICIAL }] : []),
        ];
        const { ours, official = null, before = null } = await benchConsoles(label, home, databaseUrl, consoles);
        report(sizeName, db === 'sqlite' ? 'SQLite' : 'PostgreSQL', ours, official, before, loadBefore, loadAverage());
      } finally {
        release();
      }
    }
  }
}

await main();
