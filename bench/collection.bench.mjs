// Collection browsing benchmark: a generated collection (5,000 series / 100,000 files, and 500 / 10,000 to show the
// cost is flat in collection size) served by the built server. Times the collection page (50 groups, default sort),
// a live filter with three conditions, the series of a group and a search, as p50/p95 of the request round trip on
// loopback (server time plus well under a millisecond of HTTP).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, percentile } from './lib.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SIZES = (process.env.BENCH_COLLECTION_SIZES ?? '5000:100000,500:10000').split(',').map((pair) => pair.split(':').map(Number));
const RUNS = Number(process.env.BENCH_COLLECTION_RUNS ?? 60);
const TARGET_P95_MS = 50;

async function startServer(home) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--openssl-legacy-provider', path.join(root, 'server', 'dist', 'main.js')], {
    env: { ...process.env, SHOKO_HOME: home, SHOKO_PORT: String(port), SHOKO_HOST: '127.0.0.1' },
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
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  };
  return { call, stop };
}

async function measure(fn) {
  for (let i = 0; i < 5; i++) await fn(i);
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await fn(i);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: +percentile(times, 50).toFixed(1), p95: +percentile(times, 95).toFixed(1) };
}

export async function benchCollection(series, files) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-collection-'));
  try {
    // First run creates the user whose watch state the generator fills in.
    let server = await startServer(home);
    await server.call('POST', '/api/v3/Init/DefaultUser', { Username: 'bench', Password: 'bench' });
    await server.call('GET', '/api/v3/Init/StartServer');
    while ((await server.call('GET', '/api/v3/Init/Status')).State !== 'Started') await new Promise((r) => setTimeout(r, 100));
    await server.stop();
    const gen = spawnSync(
      process.execPath,
      [
        '--openssl-legacy-provider',
        path.join(root, 'server', 'dist', 'tools', 'gen-collection.js'),
        '--series',
        String(series),
        '--files',
        String(files),
        '--home',
        home,
      ],
      { encoding: 'utf8' },
    );
    if (gen.status !== 0) throw new Error(`generator failed: ${gen.stderr}`);
    server = await startServer(home);
    try {
      while ((await server.call('GET', '/api/v3/Init/Status')).State !== 'Started') await new Promise((r) => setTimeout(r, 100));
      const { apikey } = await server.call('POST', '/api/auth', { user: 'bench', pass: 'bench', device: 'bench' });
      const call = (method, url, body) => server.call(method, url, body, apikey);
      const firstPage = await call('POST', '/api/v3/Filter/Preview/Group?pageSize=50&page=1', {});
      const multi = firstPage.List.filter((g) => g.Size > 1).map((g) => g.IDs.ID);
      const threeConditions = {
        ApplyAtSeriesLevel: true,
        Expression: {
          Type: 'And',
          Left: { Type: 'HasTag', Parameter: 'action' },
          Right: {
            Type: 'And',
            Left: { Type: 'HasUnwatchedEpisodes' },
            Right: { Type: 'NumberGreaterThan', Left: { Type: 'EpisodeCountSelector' }, Parameter: '6' },
          },
        },
        Sorting: { Type: 'Name', IsInverted: false },
      };
      const search = (i) => ({
        ApplyAtSeriesLevel: true,
        Expression: { Type: 'AnyContains', Left: { Type: 'NamesSelector' }, Parameter: ['kaze', 'hoshi', 'academy', 'tsuki'][i % 4] },
        Sorting: { Type: 'Name', IsInverted: false },
      });
      const pages = Math.max(1, Math.ceil(firstPage.Total / 50));
      const results = {
        collectionPage: await measure((i) =>
          call('POST', `/api/v3/Filter/Preview/Group?pageSize=50&page=${(i % Math.min(pages, 10)) + 1}`, {}),
        ),
        filter3Conditions: await measure(() => call('POST', '/api/v3/Filter/Preview/Group?pageSize=50&page=1', threeConditions)),
        groupSeries: await measure((i) =>
          call(
            'POST',
            `/api/v3/Filter/Preview/Group/${multi[i % multi.length] ?? firstPage.List[0].IDs.ID}/Series?includeDataFrom=AniDB&includeDataFrom=TMDB&recursive=true&includeMissing=true`,
            {},
          ),
        ),
        search: await measure((i) => call('POST', '/api/v3/Filter/Preview/Group?pageSize=50&page=1', search(i))),
      };
      return { series, files, groups: firstPage.Total, runs: RUNS, ...results };
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!fs.existsSync(path.join(root, 'server', 'dist', 'tools', 'gen-collection.js')))
    throw new Error('Build the server first (npm run build)');
  const rows = [];
  for (const [series, files] of SIZES) rows.push(await benchCollection(series, files));
  const flat = rows.map((r) => ({
    series: r.series,
    files: r.files,
    groups: r.groups,
    ...Object.fromEntries(
      ['collectionPage', 'filter3Conditions', 'groupSeries', 'search'].flatMap((k) => [
        [`${k} p50`, r[k].p50],
        [`${k} p95`, r[k].p95],
      ]),
    ),
  }));
  console.table(flat);
  const worst = Math.max(...rows.flatMap((r) => ['collectionPage', 'filter3Conditions', 'groupSeries', 'search'].map((k) => r[k].p95)));
  fs.mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
  fs.writeFileSync(path.join(root, 'bench', 'results', 'collection.json'), JSON.stringify(rows, null, 2));
  const lines = rows.map(
    (r) =>
      `| ${r.series.toLocaleString('en')} / ${r.files.toLocaleString('en')} | ${['collectionPage', 'filter3Conditions', 'groupSeries', 'search'].map((k) => `${r[k].p50} / ${r[k].p95}`).join(' | ')} |`,
  );
  fs.writeFileSync(
    path.join(root, 'bench', 'results', 'collection.md'),
    [
      `Collection browsing, request round trip on loopback in ms (p50 / p95 of ${RUNS} runs); target p95 < ${TARGET_P95_MS} ms: ${worst < TARGET_P95_MS ? 'met' : 'NOT met'}.`,
      '',
      '| series / files | collection page | filter, 3 conditions | group series | search |',
      '|---|---|---|---|---|',
      ...lines,
      '',
    ].join('\n'),
  );
}
