// Moving from Shoko at scale (issue 42): a generated Shoko Server data folder of 5,000 series / 100,000 files
// (fakes/src/shoko-data, kept in BENCH_DATA_DIR) imported with the built `npm run import-shoko` tool into an empty
// SQLite and PostgreSQL database, wall clock from the command's start to its exit (the maintained figures are built
// as part of it); budget 60 s. Then the server is started on the imported collection and the console's heaviest pages
// are visited as first visits (read cache off, 10 s after Started, as first-visit.bench.mjs): budget 50 ms at 100k.
// Writes results/import-shoko.md.
//   BENCH_IMPORT_DBS=sqlite,postgres   (default both; PostgreSQL uses BENCH_PG_URL's cluster or a throwaway one)
//   BENCH_IMPORT_RUNS=3   imports per database (the median is reported); 0 visits the import the last run left
//   BENCH_IMPORT_SERIES=5000, BENCH_IMPORT_FILES=100000   size of the Shoko folder
//   BENCH_FIRST_VISIT_RUNS=5   requests per page after the import (the first is the first visit)
//   BENCH_IMPORT_VIA=server   instead: the import made through a running server's own API (ShokoImport/Start, as the
//     console's first run does), on an empty home, read cache off; as soon as its status says Completed, the endpoints
//     of first-visit.bench.mjs are visited (BENCH_IMPORT_ROUND_RUNS=3 requests each) in rounds from +0, +2, +5, +10 and
//     +20 s after it (a round starts when the one before has ended if that is later), while the database is polled for
//     figures still marked for a refresh. Writes results/import-shoko-via-server.md.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { DATA_DIR, loadAverage, postgresCluster, recreateDatabase, root, startServer } from './collections.mjs';
import { firstVisitEndpoints, time } from './first-visit-endpoints.mjs';
import { percentile } from './lib.mjs';

const DBS = (process.env.BENCH_IMPORT_DBS ?? 'sqlite,postgres').split(',').map((d) => d.trim());
const RUNS = Number(process.env.BENCH_IMPORT_RUNS ?? 3);
const SERIES = Number(process.env.BENCH_IMPORT_SERIES ?? 5000);
const FILES = Number(process.env.BENCH_IMPORT_FILES ?? 100_000);
const VISITS = Number(process.env.BENCH_FIRST_VISIT_RUNS ?? 5);
const IMPORT_BUDGET_S = 60;
const VISIT_BUDGET_MS = FILES <= 100_000 ? 50 : 100;
const SETTLE_MS = 10_000;
const TOOL = path.join(root, 'server', 'dist', 'tools', 'import-shoko.js');
const VIA = process.env.BENCH_IMPORT_VIA ?? 'tool';
const ROUND_AT_S = [0, 2, 5, 10, 20];
const ROUND_RUNS = Number(process.env.BENCH_IMPORT_ROUND_RUNS ?? 3);
// The whole collection in one answer (seconds at 100k, left over budget by design in first-visit): not a page visit.
const NOT_VISITED = ['File?pageSize=0 (client suites)'];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The Shoko folder (and the plain passwords of its users), generated once per size and kept. */
function ensureShokoFolder() {
  const dir = path.join(DATA_DIR, `shoko-folder-${SERIES}-${FILES}`);
  const users = path.join(dir, 'bench-users.json');
  if (fs.existsSync(users)) return { dir: path.join(dir, 'shoko'), users: JSON.parse(fs.readFileSync(users, 'utf8')) };
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  console.log(`generating a Shoko data folder of ${SERIES} series / ${FILES} files…`);
  const script = `import { writeShokoDataFolder } from '@shoko-ts/fakes/shoko-data';
    const m = await writeShokoDataFolder(${JSON.stringify(path.join(dir, 'shoko'))}, { size: 'large', series: ${SERIES}, files: ${FILES}, mediaRoot: ${JSON.stringify(path.join(dir, 'media'))} });
    process.stdout.write(JSON.stringify(m.users.map((u) => ({ name: u.name, password: u.password, isAdmin: u.isAdmin }))));`;
  const gen = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: path.join(root, 'server'),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (gen.status !== 0) throw new Error(`the Shoko folder generator failed: ${gen.stderr}`);
  fs.writeFileSync(users, gen.stdout);
  return { dir: path.join(dir, 'shoko'), users: JSON.parse(gen.stdout) };
}

/** Runs the import tool into an empty home (and database); wall clock in ms and the report. */
async function importOnce(shokoDir, home, databaseUrl) {
  fs.rmSync(home, { recursive: true, force: true });
  fs.mkdirSync(home, { recursive: true });
  if (databaseUrl) await recreateDatabase(databaseUrl);
  const env = { ...process.env, SHOKO_HOME: home };
  if (databaseUrl) env.SHOKO_DB = databaseUrl;
  else delete env.SHOKO_DB;
  const started = performance.now();
  const child = spawn(process.execPath, ['--openssl-legacy-provider', TOOL, '--from', shokoDir, '--json'], { env });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (err += chunk));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  const ms = performance.now() - started;
  if (code !== 0) throw new Error(`import-shoko exited ${code}: ${err.slice(-500)} ${out.slice(-500)}`);
  return { ms, report: JSON.parse(out) };
}

/** The console's heaviest reads on the imported collection, each timed from its first (cold) request. */
async function firstVisits(home, databaseUrl, admin) {
  const server = await startServer(home, databaseUrl, { SHOKO_READ_CACHE: 'off' });
  try {
    await server.waitStarted();
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const { apikey } = await server.call('POST', '/api/auth', { user: admin.name, pass: admin.password, device: 'bench' });
    const get = (url) => server.call('GET', `/api/v3/${url}`, undefined, apikey);
    const post = (url, body) => server.call('POST', `/api/v3/${url}`, body, apikey);
    const series = (await post('Filter/Preview/Series?pageSize=20&page=1', { ApplyAtSeriesLevel: true })).List.map((s) => s.IDs.ID);
    const groups = (await post('Filter/Preview/Group?pageSize=20&page=1', {})).List.map((g) => g.IDs.ID);
    const pick = (list, i) => list[i % list.length];
    const pages = {
      'Dashboard/Stats': () => get('Dashboard/Stats'),
      'Dashboard/SeriesSummary': () => get('Dashboard/SeriesSummary'),
      'Dashboard/RecentlyAddedEpisodes': () => get('Dashboard/RecentlyAddedEpisodes?pageSize=20&includeRestricted=false'),
      'Dashboard/ContinueWatchingEpisodes': () => get('Dashboard/ContinueWatchingEpisodes?pageSize=20&includeRestricted=false'),
      'Dashboard/NextUpEpisodes': () => get('Dashboard/NextUpEpisodes?pageSize=20&onlyUnwatched=true&includeRestricted=false'),
      'File (first pages)': (i) => get(`File?pageSize=50&page=${i + 1}`),
      'File (unrecognized)': () => get('File?pageSize=20&include_only=Unrecognized&sortOrder=-FileID'),
      'Collection groups page': (i) => post(`Filter/Preview/Group?pageSize=50&page=${i + 1}&randomImages=false`, {}),
      'Collection sorted by unwatched': () =>
        post('Filter/Preview/Group?pageSize=50&page=1', { Sorting: { Type: 'UnwatchedEpisodeCount', IsInverted: true } }),
      'Console search': (i) =>
        post('Filter/Preview/Series?pageSize=20&page=1', {
          ApplyAtSeriesLevel: true,
          Expression: { Type: 'AnyContains', Left: { Type: 'Names' }, Parameter: pick(['ka', 'to', 'shi', 'ra', 'no'], i) },
        }),
      'Group page': (i) => get(`Group/${pick(groups, i)}`),
      'Series page': (i) => get(`Series/${pick(series, i)}?includeDataFrom=AniDB`),
      'Series episodes': (i) => get(`Series/${pick(series, i)}/Episode?pageSize=100&includeDataFrom=AniDB&includeMissing=true`),
      'ReleaseManagement/MultipleReleases': () => get('ReleaseManagement/MultipleReleases/Series?pageSize=20&page=1'),
      'Tag/AniDB (all)': () => get('Tag/AniDB?pageSize=0&excludeDescriptions=true'),
    };
    const rows = [];
    for (const [name, request] of Object.entries(pages)) {
      const times = [];
      for (let i = 0; i < VISITS; i++) {
        const at = performance.now();
        await request(i);
        times.push(performance.now() - at);
      }
      const first = times[0];
      times.sort((a, b) => a - b);
      rows.push({ name, first: +first.toFixed(1), p50: +percentile(times, 50).toFixed(1), max: +times[times.length - 1].toFixed(1) });
    }
    return rows;
  } finally {
    await server.stop();
  }
}

/**
 * What is still marked for the maintained figures' refresh, read straight from the database: series and groups whose
 * figures are marked, names without their order key or fold, and Dashboard/Stats changes not yet applied.
 */
const PENDING_SQL = `SELECT
  (SELECT COUNT(*) FROM aggregate_dirty_series) + (SELECT COUNT(*) FROM aggregate_dirty_groups) AS figures,
  (SELECT COUNT(*) FROM series WHERE order_key IS NULL) + (SELECT COUNT(*) FROM groups WHERE order_key IS NULL) AS order_keys,
  (SELECT COUNT(*) FROM anidb_anime_titles WHERE folded IS NULL) + (SELECT COUNT(*) FROM anidb_anime WHERE main_title_folded IS NULL)
    + (SELECT COUNT(*) FROM series WHERE title_override IS NOT NULL AND title_override_folded IS NULL)
    + (SELECT COUNT(*) FROM groups WHERE name_folded IS NULL) AS folds,
  (SELECT COUNT(*) FROM collection_stats_changes) AS stats`;

/**
 * Polls the pending marks every 200 ms on a worker thread (a synchronous SQLite read must not hold the requests being
 * timed): `marks()` answers how many were marked at the first read, the most seen and the last time (Date.now()) any
 * were; `stop()` ends it.
 */
function watchPendingFigures(home, databaseUrl) {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
    const { createRequire } = require('node:module');
    const need = createRequire(workerData.serverPackage);
    const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
    const total = (row) => Object.values(row).reduce((n, v) => n + Number(v), 0);
    (async () => {
      let read;
      if (workerData.databaseUrl) {
        const client = new (need('pg').Client)({ connectionString: workerData.databaseUrl });
        client.on('error', () => undefined);
        await client.connect();
        read = async () => total((await client.query(workerData.sql)).rows[0]);
      } else {
        const sqlite = new (need('better-sqlite3'))(workerData.file, { readonly: true, fileMustExist: true });
        sqlite.pragma('busy_timeout = 5000');
        const statement = sqlite.prepare(workerData.sql);
        read = async () => total(statement.get());
      }
      for (;;) {
        const count = await read().catch(() => -1);
        parentPort.postMessage({ count, at: Date.now() });
        await sleep(200);
      }
    })();`,
    {
      eval: true,
      workerData: {
        serverPackage: path.join(root, 'server', 'package.json'),
        databaseUrl,
        file: path.join(home, 'SQLite', 'shoko.db'),
        sql: PENDING_SQL,
      },
    },
  );
  const seen = { first: null, peak: 0, lastMarkedAt: null, reads: 0 };
  worker.on('message', ({ count, at }) => {
    seen.reads++;
    seen.first ??= count;
    if (count !== 0) {
      seen.lastMarkedAt = at;
      seen.peak = Math.max(seen.peak, count);
    }
  });
  worker.on('error', () => undefined);
  return { marks: () => ({ ...seen }), stop: () => worker.terminate() };
}

/**
 * Asks `GET Init/Status` every 50 ms from a worker thread (the bench's own thread is busy with the rounds) and keeps
 * the longest wait for an answer, from the moment the previous answer came (or the probe started) until the next: a
 * server whose event loop is held (synchronous statements back to back) answers nothing for that long.
 */
function watchSilence(base) {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
    const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
    (async () => {
      let since = Date.now();
      for (;;) {
        await fetch(workerData.base + '/api/v3/Init/Status').then((r) => r.text()).catch(() => undefined);
        const now = Date.now();
        parentPort.postMessage({ from: since, to: now });
        await sleep(50);
        since = Date.now();
      }
    })();`,
    { eval: true, workerData: { base } },
  );
  let longest = { ms: 0, from: 0 };
  worker.on('message', ({ from, to }) => {
    if (to - from > longest.ms) longest = { ms: to - from, from };
  });
  worker.on('error', () => undefined);
  return { longest: () => ({ ...longest }), stop: () => worker.terminate() };
}

/**
 * The Shoko import made through the server's own API on an empty home, then the first visits right after it reported
 * Completed: rounds of every first-visit endpoint from +0, +2, +5, +10 and +20 s. Answers the import's phases, the
 * rounds and when the figures were last seen marked.
 */
async function importViaServer(shokoDir, home, databaseUrl, admin) {
  fs.rmSync(home, { recursive: true, force: true });
  fs.mkdirSync(home, { recursive: true });
  if (databaseUrl) await recreateDatabase(databaseUrl);
  const server = await startServer(home, databaseUrl, { SHOKO_READ_CACHE: 'off' });
  let pending = null;
  let silence = null;
  try {
    const started = performance.now();
    await server.call('POST', '/api/v3/ShokoImport/Start', { Folder: shokoDir });
    const steps = [];
    let status;
    for (;;) {
      status = await server.call('GET', '/api/v3/ShokoImport/Status');
      if (status.Step && steps.at(-1)?.step !== status.Step) steps.push({ step: status.Step, at: performance.now() - started });
      if (status.State === 'Completed' || status.State === 'Failed') break;
      await sleep(50);
    }
    const doneAt = performance.now();
    const doneWall = Date.now();
    if (status.State === 'Failed') throw new Error(`the import failed: ${status.Error}`);
    const since = () => +((performance.now() - doneAt) / 1000).toFixed(2);
    pending = watchPendingFigures(home, databaseUrl);
    silence = watchSilence(server.base);
    while ((await server.call('GET', '/api/v3/Init/Status')).State !== 'Started') await sleep(20);
    const startedAfter = since();
    const login = await server.call('POST', '/api/auth', { user: admin.name, pass: admin.password, device: 'bench' });
    const setupFrom = since();
    const { endpoints } = await firstVisitEndpoints(server.call, login.apikey);
    const setup = { from: setupFrom, took: +(since() - setupFrom).toFixed(2) };
    const rounds = [];
    for (const at of ROUND_AT_S) {
      const wait = doneAt + at * 1000 - performance.now();
      if (wait > 0) await sleep(wait);
      const round = { at, startedAt: since(), load: loadAverage(), results: {} };
      for (const [name, request] of Object.entries(endpoints)) {
        if (NOT_VISITED.includes(name)) continue;
        round.results[name] = await time(request, ROUND_RUNS, name);
      }
      round.endedAt = since();
      console.log(`  round +${at} s: ${round.startedAt}–${round.endedAt} s after done (load ${round.load})`);
      rounds.push(round);
    }
    // Until nothing is marked (at most a minute more).
    for (
      let waited = 0;
      waited < 60_000 && (pending.marks().reads === 0 || pending.marks().lastMarkedAt > Date.now() - 1_000);
      waited += 200
    )
      await sleep(200);
    const seen = pending.marks();
    const quiet = silence.longest();
    const longestSilence = { s: +(quiet.ms / 1000).toFixed(2), at: +((quiet.from - doneWall) / 1000).toFixed(2) };
    const marks = {
      atDone: seen.first,
      peak: seen.peak,
      lastSeenAt: seen.lastMarkedAt === null ? null : +((seen.lastMarkedAt - doneWall) / 1000).toFixed(2),
    };
    return {
      importS: (doneAt - started) / 1000,
      steps: steps.map((s) => ({ step: s.step, at: +(s.at / 1000).toFixed(1) })),
      startedAfter,
      longestSilence,
      setup,
      marks,
      rounds,
    };
  } finally {
    await pending?.stop();
    await silence?.stop();
    await server.stop();
  }
}

/** results/import-shoko-via-server.md: per database the import, the marks, and per endpoint each round's first / p95. */
function viaServerReport(byDb) {
  const lines = [
    `Shoko data folder: ${SERIES} series / ${FILES} files, imported through the server's own API (\`BENCH_IMPORT_VIA=server\`: ShokoImport/Start on an empty home, read cache off), then the endpoints of first-visit.bench.mjs (except \`File?pageSize=0\`) visited right after the status said Completed: rounds of ${ROUND_RUNS} requests per endpoint from ${ROUND_AT_S.map((s) => `+${s}`).join(', ')} s. Cells: first request / p95 of the round, ms; budget p95 < ${VISIT_BUDGET_MS} ms at this size (issue 45: < 100).`,
    '',
  ];
  for (const [db, r] of Object.entries(byDb)) {
    const names = Object.keys(r.rounds[0].results);
    lines.push(
      `**${db}**: import ${r.importS.toFixed(1)} s to Completed (${r.steps.map((s) => `${s.step} ${s.at}`).join('; ')}); Started ${r.startedAfter} s after Completed; longest wait for Init/Status (asked every 50 ms from Completed until the run ends) ${r.longestSilence.s} s from +${r.longestSilence.at} s; finding the ids to visit ${r.setup.took} s from +${r.setup.from} s; figures marked at Completed: ${r.marks.atDone}, last seen marked ${r.marks.lastSeenAt === null ? 'never' : `+${r.marks.lastSeenAt} s`} (at most ${r.marks.peak} marks). Rounds started at ${r.rounds.map((x) => `+${x.startedAt} s`).join(', ')} (load ${r.rounds[0].load} → ${r.rounds.at(-1).load}).`,
      '',
      `| endpoint | ${r.rounds.map((x) => `+${x.at} s`).join(' | ')} |`,
      `|---|${r.rounds.map(() => '---').join('|')}|`,
    );
    for (const name of names)
      lines.push(
        `| ${name} | ${r.rounds
          .map((x) => {
            const v = x.results[name];
            if (!v || v.error) return 'error';
            return `${v.first} / ${v.p95}${v.p95 >= VISIT_BUDGET_MS ? (v.p95 >= 100 ? ' ✗✗' : ' ✗') : ''}`;
          })
          .join(' | ')} |`,
      );
    const over = r.rounds.map((x) => Object.values(x.results).filter((v) => v.error || v.p95 >= 100).length);
    lines.push('', `Over 100 ms p95 per round: ${over.join(', ')} of ${names.length}.`, '');
    const failed = r.rounds.flatMap((x) =>
      Object.entries(x.results)
        .filter(([, v]) => v.error)
        .map(([n, v]) => `${n}: ${v.error}`),
    );
    if (failed.length) lines.push(`Errors: ${[...new Set(failed)].join('; ')}.`, '');
  }
  return lines.join('\n');
}

async function databaseOf(db) {
  if (db === 'sqlite') return { databaseUrl: null, release: () => {} };
  const { url, cluster } = await postgresCluster();
  const target = new URL(url);
  target.pathname = '/shoko_bench_import';
  return { databaseUrl: target.toString(), release: () => cluster?.stop() };
}

if (!fs.existsSync(TOOL)) throw new Error('Build the server first (npm run build)');
const shoko = ensureShokoFolder();
const admin = shoko.users.find((u) => u.isAdmin);
if (VIA === 'server') {
  const byDb = {};
  for (const db of DBS) {
    const { databaseUrl, release } = await databaseOf(db);
    try {
      console.log(`${db}: importing through the server (load ${loadAverage()})…`);
      byDb[db] = await importViaServer(shoko.dir, path.join(DATA_DIR, `import-shoko-server-${db}`), databaseUrl, admin);
      console.log(JSON.stringify({ ...byDb[db], rounds: undefined }));
    } finally {
      release();
    }
  }
  const summary = viaServerReport(byDb);
  console.log(`\n${summary}`);
  const results = path.join(path.dirname(new URL(import.meta.url).pathname), 'results');
  fs.mkdirSync(results, { recursive: true });
  fs.writeFileSync(path.join(results, 'import-shoko-via-server.md'), `${summary}\n`);
  fs.writeFileSync(path.join(results, 'import-shoko-via-server.json'), JSON.stringify(byDb, null, 2));
  process.exit(0);
}
const lines = [
  `Shoko data folder: ${SERIES} series / ${FILES} files (fakes/shoko-data, schema 138); ${RUNS} import(s) per database; budget ${IMPORT_BUDGET_S} s.`,
  '',
  '| database | import median (s) | runs (s) | rows imported | first visits within ' + VISIT_BUDGET_MS + ' ms | slowest first visit |',
  '| --- | --- | --- | --- | --- | --- |',
];
const details = [];
for (const db of DBS) {
  const { databaseUrl, release } = await databaseOf(db);
  const home = path.join(DATA_DIR, `import-shoko-${db}`);
  try {
    const runs = [];
    let report = null;
    for (let i = 0; i < RUNS; i++) {
      console.log(`${db}: import ${i + 1}/${RUNS} (load ${loadAverage()})…`);
      const result = await importOnce(shoko.dir, home, databaseUrl);
      runs.push(result.ms / 1000);
      report = result.report;
      console.log(`  ${(result.ms / 1000).toFixed(1)} s`);
    }
    const sorted = [...runs].sort((a, b) => a - b);
    const median = runs.length ? percentile(sorted, 50) : NaN;
    const imported = report ? report.Kinds.reduce((n, k) => n + k.Imported, 0) : NaN;
    console.log(`${db}: first visits after the import…`);
    const visits = await firstVisits(home, databaseUrl, admin);
    const within = visits.filter((v) => v.first <= VISIT_BUDGET_MS).length;
    const slowest = [...visits].sort((a, b) => b.first - a.first)[0];
    lines.push(
      `| ${db} | ${median.toFixed(1)}${median > IMPORT_BUDGET_S ? ' ✗' : ''} | ${runs.map((r) => r.toFixed(1)).join(', ')} | ${imported.toLocaleString('en')} | ${within} of ${visits.length} | ${slowest.name} ${slowest.first} ms |`,
    );
    details.push('', `First visits after the import, ${db} (ms: first request, p50 and max of ${VISITS}):`, '');
    details.push('| page | first | p50 | max |', '| --- | --- | --- | --- |');
    for (const v of visits) details.push(`| ${v.name} | ${v.first}${v.first > VISIT_BUDGET_MS ? ' ✗' : ''} | ${v.p50} | ${v.max} |`);
  } finally {
    release();
  }
}
const summary = [...lines, ...details].join('\n');
console.log(`\n${summary}`);
fs.mkdirSync(path.join(path.dirname(new URL(import.meta.url).pathname), 'results'), { recursive: true });
fs.writeFileSync(path.join(path.dirname(new URL(import.meta.url).pathname), 'results', 'import-shoko.md'), `${summary}\n`);
