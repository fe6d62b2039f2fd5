// Load: 200 concurrent clients (autocannon, loopback) for 60 s on the collection, series and dashboard endpoints of a
// generated 5,000 series / 100,000 files collection, on SQLite and on PostgreSQL. Reports p50/p95/p99 latency,
// requests per second and errors. BENCH_LOAD_SECONDS, BENCH_LOAD_CONNECTIONS and BENCH_LOAD_SIZE ("series:files")
// shorten a run; BENCH_LOAD_DATABASES=sqlite skips PostgreSQL.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startPostgres } from '../scripts/pg-cluster.mjs';
import { freePort, percentile } from './lib.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.BENCH_LOAD_CONNECTIONS ?? 200);
const [SERIES, FILES] = (process.env.BENCH_LOAD_SIZE ?? '5000:100000').split(':').map(Number);
const DATABASES = (process.env.BENCH_LOAD_DATABASES ?? 'sqlite,postgres').split(',');

async function startServer(home, databaseUrl) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--openssl-legacy-provider', path.join(root, 'server', 'dist', 'main.js')], {
    env: { ...process.env, SHOKO_HOME: home, SHOKO_PORT: String(port), SHOKO_HOST: '127.0.0.1', SHOKO_DB: databaseUrl ?? '' },
    stdio: 'ignore',
  });
  const call = async (method, url, body, key) => {
    const res = await fetch(base + url, {
      method,
      headers: { 'content-type': 'application/json', ...(key ? { apikey: key } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
    return res.headers.get('content-type')?.includes('json') ? res.json() : res.text();
  };
  for (;;) {
    try {
      await call('GET', '/api/v3/Init/Status');
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  const waitStarted = async () => {
    while ((await call('GET', '/api/v3/Init/Status')).State !== 'Started') await new Promise((r) => setTimeout(r, 100));
  };
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  };
  return { base, call, stop, waitStarted };
}

async function loadOne(database, pgBaseUrl) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-load-'));
  let databaseUrl = null;
  if (database === 'postgres') {
    const name = `bench_load_${Date.now()}`;
    const pg = (await import('pg')).default;
    const admin = new pg.Client({ connectionString: pgBaseUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(pgBaseUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  }
  try {
    let server = await startServer(home, databaseUrl);
    await server.call('POST', '/api/v3/Init/DefaultUser', { Username: 'bench', Password: 'bench' });
    await server.call('GET', '/api/v3/Init/StartServer');
    await server.waitStarted();
    await server.stop();
    const gen = spawnSync(
      process.execPath,
      [
        '--openssl-legacy-provider',
        path.join(root, 'server', 'dist', 'tools', 'gen-collection.js'),
        '--series',
        String(SERIES),
        '--files',
        String(FILES),
        '--home',
        home,
      ],
      {
        encoding: 'utf8',
        env: { ...process.env, SHOKO_DB: databaseUrl ?? '' },
      },
    );
    if (gen.status !== 0) throw new Error(`generator failed: ${gen.stderr}`);
    server = await startServer(home, databaseUrl);
    try {
      await server.waitStarted();
      const { apikey } = await server.call('POST', '/api/auth', { user: 'bench', pass: 'bench', device: 'bench' });
      const page = await server.call('POST', '/api/v3/Filter/Preview/Group?pageSize=50&page=1', {}, apikey);
      const groupIds = page.List.map((g) => g.IDs.ID);
      const seriesIds = (await server.call('POST', `/api/v3/Filter/Preview/Group/${groupIds[0]}/Series`, {}, apikey)).map((s) => s.IDs.ID);
      const requests = [
        { method: 'POST', path: '/api/v3/Filter/Preview/Group?pageSize=50&page=1', body: '{}' },
        { method: 'POST', path: '/api/v3/Filter/Preview/Group?pageSize=50&page=7', body: '{}' },
        { method: 'POST', path: `/api/v3/Filter/Preview/Group/${groupIds[1] ?? groupIds[0]}/Series?includeDataFrom=AniDB`, body: '{}' },
        { method: 'GET', path: '/api/v3/Dashboard/Stats' },
        { method: 'GET', path: '/api/v3/Dashboard/SeriesSummary' },
        { method: 'GET', path: `/api/v3/Group/${groupIds[2] ?? groupIds[0]}` },
      ];
      // The series page's endpoint, when this build serves it.
      const seriesPath = `/api/v3/Series/${seriesIds[0]}?includeDataFrom=AniDB`;
      if ((await fetch(server.base + seriesPath, { headers: { apikey } })).ok) requests.push({ method: 'GET', path: seriesPath });
      // The series page's episode list, first page as the console asks for it.
      const episodesPath = `/api/v3/Series/${seriesIds[0]}/Episode?pageSize=26&page=1&includeDataFrom=AniDB&includeWatched=true`;
      if ((await fetch(server.base + episodesPath, { headers: { apikey } })).ok) requests.push({ method: 'GET', path: episodesPath });

      // Warm up: one round of every request, so the run measures the steady state, not the first cold queries.
      for (const r of requests)
        await fetch(server.base + r.path, { method: r.method, body: r.body, headers: { apikey, 'content-type': 'application/json' } });
      const times = [];
      const statuses = {};
      const instance = autocannon({
        url: server.base,
        connections: CONNECTIONS,
        duration: SECONDS,
        headers: { apikey, 'content-type': 'application/json' },
        requests,
      });
      instance.on('response', (_client, status, _bytes, responseTime) => {
        times.push(responseTime);
        statuses[status] = (statuses[status] ?? 0) + 1;
      });
      const result = await instance;
      times.sort((a, b) => a - b);
      return {
        database,
        series: SERIES,
        files: FILES,
        connections: CONNECTIONS,
        seconds: SECONDS,
        endpoints: requests.map((r) => `${r.method} ${r.path.split('?')[0]}`),
        requests: result.requests.total,
        rps: Math.round(result.requests.average),
        p50: +percentile(times, 50).toFixed(1),
        p95: +percentile(times, 95).toFixed(1),
        p99: +percentile(times, 99).toFixed(1),
        errors: result.errors + result.timeouts + result.non2xx,
        timeouts: result.timeouts,
        statuses: JSON.stringify(statuses),
      };
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

if (!fs.existsSync(path.join(root, 'server', 'dist', 'tools', 'gen-collection.js')))
  throw new Error('Build the server first (npm run build)');
let pg = null;
const rows = [];
try {
  for (const database of DATABASES) {
    if (database === 'postgres') pg ??= await startPostgres();
    console.log(`Load on ${database}: ${CONNECTIONS} clients for ${SECONDS} s on ${SERIES} series / ${FILES} files…`);
    rows.push(await loadOne(database, pg?.url));
  }
} finally {
  pg?.stop();
}
console.table(rows.map(({ endpoints, ...row }) => row));
fs.mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
fs.writeFileSync(path.join(root, 'bench', 'results', 'load.json'), JSON.stringify(rows, null, 2));
fs.writeFileSync(
  path.join(root, 'bench', 'results', 'load.md'),
  [
    `${CONNECTIONS} concurrent clients (autocannon on loopback) for ${SECONDS} s, cycling through: ${rows[0]?.endpoints.join(', ')}.`,
    '',
    '| database | series / files | requests | req/s | p50 ms | p95 ms | p99 ms | errors |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.database} | ${r.series.toLocaleString('en')} / ${r.files.toLocaleString('en')} | ${r.requests} | ${r.rps} | ${r.p50} | ${r.p95} | ${r.p99} | ${r.errors} |`,
    ),
    '',
  ].join('\n'),
);
if (rows.some((r) => r.errors > 0)) {
  console.error('Errors under load');
  process.exit(1);
}
