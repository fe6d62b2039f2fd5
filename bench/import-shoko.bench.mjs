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
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DATA_DIR, loadAverage, postgresCluster, recreateDatabase, root, startServer } from './collections.mjs';
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
