// Load: 200 concurrent clients (autocannon, loopback) for 60 s on the collection, series and dashboard endpoints of a
// generated collection (5,000 series / 100,000 files, or 20,000 / 400,000), on SQLite and on PostgreSQL. Reports
// p50/p95/p99 latency, requests per second, errors, and the server's resident memory after the run.
//   BENCH_LOAD_SECONDS, BENCH_LOAD_CONNECTIONS   shorten a run
//   BENCH_LOAD_SIZES=100k,400k   (default 100k)   BENCH_LOAD_DATABASES=sqlite,postgres   (default both)
//   BENCH_PG_URL, BENCH_DATA_DIR   as for first-visit: where kept collections live
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { cpuMs, keptCollection, loadAverage, memoryMiB, requireBuiltServer, root, SIZES, startServer } from './collections.mjs';
import { percentile } from './lib.mjs';

const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.BENCH_LOAD_CONNECTIONS ?? 200);
const SIZE_NAMES = (process.env.BENCH_LOAD_SIZES ?? '100k').split(',').map((s) => s.trim());
const DATABASES = (process.env.BENCH_LOAD_DATABASES ?? 'sqlite,postgres').split(',').map((s) => s.trim());

async function loadOne(database, sizeName) {
  const size = SIZES[sizeName];
  if (!size) throw new Error(`BENCH_LOAD_SIZES: unknown size ${sizeName}`);
  const collection = await keptCollection(database, size);
  try {
    const server = await startServer(collection.home, collection.databaseUrl);
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
      const cpuAtStart = cpuMs(server.pid);
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
      // The server's own CPU per answer: what a request costs whatever else shares the cores (a busy machine stretches
      // the round trips, not this).
      const serverCpuMsPerRequest = +((cpuMs(server.pid) - cpuAtStart) / Math.max(1, result.requests.total)).toFixed(3);
      times.sort((a, b) => a - b);
      const memory = memoryMiB(server.pid);
      return {
        database,
        series: size.series,
        files: size.files,
        rssMiB: memory.rss,
        peakRssMiB: memory.peak,
        load: loadAverage(),
        connections: CONNECTIONS,
        seconds: SECONDS,
        endpoints: requests.map((r) => `${r.method} ${r.path.split('?')[0]}`),
        requests: result.requests.total,
        rps: Math.round(result.requests.average),
        p50: +percentile(times, 50).toFixed(1),
        p95: +percentile(times, 95).toFixed(1),
        p99: +percentile(times, 99).toFixed(1),
        // autocannon counts timeouts among its errors already.
        errors: result.errors + result.non2xx,
        timeouts: result.timeouts,
        serverCpuMsPerRequest,
        statuses: JSON.stringify(statuses),
      };
    } finally {
      await server.stop();
    }
  } finally {
    collection.release();
  }
}

requireBuiltServer();
const rows = [];
for (const sizeName of SIZE_NAMES)
  for (const database of DATABASES) {
    console.log(`Load on ${database}: ${CONNECTIONS} clients for ${SECONDS} s on ${sizeName}…`);
    rows.push(await loadOne(database, sizeName));
  }
console.table(rows.map(({ endpoints, ...row }) => row));
fs.mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
fs.writeFileSync(path.join(root, 'bench', 'results', 'load.json'), JSON.stringify(rows, null, 2));
fs.writeFileSync(
  path.join(root, 'bench', 'results', 'load.md'),
  [
    `${CONNECTIONS} concurrent clients (autocannon on loopback) for ${SECONDS} s, cycling through: ${rows[0]?.endpoints.join(', ')}.`,
    '',
    '| database | series / files | requests | req/s | p50 ms | p95 ms | p99 ms | errors | server CPU ms / request | RSS after (peak) MiB | load 1/5/15 after |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.database} | ${r.series.toLocaleString('en')} / ${r.files.toLocaleString('en')} | ${r.requests} | ${r.rps} | ${r.p50} | ${r.p95} | ${r.p99} | ${r.errors} | ${r.serverCpuMsPerRequest} | ${r.rssMiB} (${r.peakRssMiB}) | ${r.load} |`,
    ),
    '',
  ].join('\n'),
);
if (rows.some((r) => r.errors > 0)) {
  console.error('Errors under load');
  process.exit(1);
}
