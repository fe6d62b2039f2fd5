// Generated collections and built-server processes shared by the scale benchmarks (first-visit, load, import-stall).
// A collection is made once per size and database by `server/dist/tools/gen-collection.js` and kept in
// BENCH_DATA_DIR between runs; a bench that writes copies it first.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './lib.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SIZES = { '100k': { series: 5000, files: 100_000 }, '400k': { series: 20_000, files: 400_000 } };
export const DATA_DIR = process.env.BENCH_DATA_DIR ?? path.join(os.tmpdir(), 'shoko-bench-data');
// Bumped when the generator writes something new, so kept collections are made again.
const GENERATOR_VERSION = 4;

// BENCH_SERVER_DIST runs another build (e.g. a copy of dist from before a change, kept next to dist) for before/after.
const serverMain = () => path.resolve(process.env.BENCH_SERVER_DIST ?? path.join(root, 'server', 'dist'), 'main.js');

// BENCH_SERVER_NODE_ARGS adds node flags to every server a bench starts (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
// BENCH_SERVER_LOG=<file> appends every such server's output to the file, after a line with its start (epoch ms): with
// "--trace-gc" in BENCH_SERVER_NODE_ARGS, each collection's time since that start.
const serverOutput = () => {
  const file = process.env.BENCH_SERVER_LOG;
  if (!file) return 'ignore';
  fs.appendFileSync(file, `server started at ${Date.now()}\n`);
  return ['ignore', fs.openSync(file, 'a'), fs.openSync(file, 'a')];
};
const extraNodeArgs = () => (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);

export function requireBuiltServer() {
  for (const built of ['main.js', 'tools/gen-collection.js'])
    if (!fs.existsSync(path.join(root, 'server', 'dist', built))) throw new Error('Build the server first (npm run build)');
}

export const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');

/** The server's resident and peak resident memory in MiB, from /proc. */
export function memoryMiB(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: +(kib('VmRSS') / 1024).toFixed(1), peak: +(kib('VmHWM') / 1024).toFixed(1) };
}

/** utime + stime of a process in ms (clock ticks of 10 ms): what it cost in CPU, whatever else the cores did. */
export function cpuMs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Starts `server/dist/main.js` on `home` (and PostgreSQL `databaseUrl` when given) and waits until it answers HTTP.
 * `env` adds or overrides variables (e.g. SHOKO_READ_CACHE=off); `nodeArgs` go to node (e.g. --cpu-prof).
 */
export async function startServer(home, databaseUrl, env = {}, nodeArgs = []) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const childEnv = { ...process.env, SHOKO_HOME: home, SHOKO_PORT: String(port), SHOKO_HOST: '127.0.0.1', ...env };
  if (databaseUrl) childEnv.SHOKO_DB = databaseUrl;
  else delete childEnv.SHOKO_DB;
  const child = spawn(process.execPath, ['--openssl-legacy-provider', ...extraNodeArgs(), ...nodeArgs, serverMain()], {
    env: childEnv,
    stdio: serverOutput(),
  });
  let exited = false;
  child.once('exit', () => (exited = true));
  const call = async (method, url, body, key) => {
    const res = await fetch(base + url, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(key ? { apikey: key } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 200)}`);
    return res.headers.get('content-type')?.includes('json') && text ? JSON.parse(text) : text;
  };
  // Migrations at start-up may build indexes on a big collection: wait as long as the process lives.
  for (;;) {
    if (exited) throw new Error('the server stopped while starting');
    try {
      await call('GET', '/api/v3/Init/Status');
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  const waitStarted = async () => {
    while ((await call('GET', '/api/v3/Init/Status')).State !== 'Started') await new Promise((r) => setTimeout(r, 200));
  };
  const stop = async () => {
    if (exited) return;
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  };
  return { base, pid: child.pid, call, stop, waitStarted };
}

/** A generated collection of `size` in `home` (and `databaseUrl`), kept between runs; made when missing or out of date. */
export async function ensureCollection(home, databaseUrl, size) {
  const marker = path.join(home, 'bench-collection.json');
  const wanted = JSON.stringify({ ...size, generator: GENERATOR_VERSION });
  if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === wanted) return;
  fs.rmSync(home, { recursive: true, force: true });
  fs.mkdirSync(home, { recursive: true });
  if (databaseUrl) await recreateDatabase(databaseUrl);
  const server = await startServer(home, databaseUrl);
  try {
    await server.call('POST', '/api/v3/Init/DefaultUser', { Username: 'bench', Password: 'bench' });
    await server.call('GET', '/api/v3/Init/StartServer');
    await server.waitStarted();
  } finally {
    await server.stop();
  }
  const started = performance.now();
  console.log(`generating ${size.series} series / ${size.files} files into ${databaseUrl ? 'PostgreSQL' : 'SQLite'}…`);
  const gen = spawnSync(
    process.execPath,
    [
      '--openssl-legacy-provider',
      path.join(root, 'server', 'dist', 'tools', 'gen-collection.js'),
      '--series',
      String(size.series),
      '--files',
      String(size.files),
      '--home',
      home,
    ],
    { encoding: 'utf8', env: databaseUrl ? { ...process.env, SHOKO_DB: databaseUrl } : { ...process.env, SHOKO_DB: '' } },
  );
  if (gen.status !== 0) throw new Error(`generator failed: ${gen.stderr}`);
  console.log(`${gen.stdout.trim().split('\n').pop()} (${((performance.now() - started) / 1000).toFixed(0)} s with the set-up)`);
  fs.writeFileSync(marker, wanted);
}

/**
 * The ids of the `count` series with the most regular episodes, longest first. Filter/Preview/Series always answers by
 * name (as Shoko's does; its Sorting is ignored), so the ids come from Preview/Series/OnlyIDs, which keeps the filter's
 * order. `call` is a started server's.
 */
export async function longestSeriesIds(call, apikey, count) {
  const ids = await call(
    'POST',
    '/api/v3/Filter/Preview/Series/OnlyIDs',
    { ApplyAtSeriesLevel: true, Sorting: { Type: 'EpisodeCount', IsInverted: true } },
    apikey,
  );
  return ids.slice(0, count);
}

/** Drops the database of `url` and makes it again: empty, or a copy of database `template`; `dropOnly` only drops. */
export async function recreateDatabase(url, template = null, { dropOnly = false } = {}) {
  const { Client } = createRequire(path.join(root, 'server', 'package.json'))('pg');
  const target = new URL(url);
  const name = target.pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  // A cluster stopped under it must not end the run with an unhandled 'error' event: its query fails instead.
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    if (!dropOnly) await client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  } finally {
    await client.end();
  }
}

/** BENCH_PG_URL's cluster, or a throwaway one started now (`cluster` then stops it). */
export async function postgresCluster() {
  if (process.env.BENCH_PG_URL) return { url: process.env.BENCH_PG_URL, cluster: null };
  const { startPostgres } = await import(path.join(root, 'scripts', 'pg-cluster.mjs'));
  const cluster = await startPostgres();
  return { url: cluster.url, cluster };
}

/**
 * The kept collection of `size` for `db` ('sqlite' or 'postgres'), made when missing: its home and database URL.
 * PostgreSQL uses BENCH_PG_URL's cluster, or a throwaway one (then the collection is made again each run).
 * Call `release()` when done (stops a throwaway cluster).
 */
export async function keptCollection(db, size) {
  if (db === 'sqlite') {
    const home = path.join(DATA_DIR, `sqlite-${size.files}`);
    await ensureCollection(home, null, size);
    return { home, databaseUrl: null, release: () => {} };
  }
  if (db !== 'postgres') throw new Error(`unknown database ${db}`);
  const { url, cluster } = await postgresCluster();
  const target = new URL(url);
  target.pathname = `/shoko_bench_${size.files}`;
  // A throwaway cluster forgets the collection: its home (settings, marker) must go with it.
  const home = path.join(DATA_DIR, cluster ? `pg-throwaway-${size.files}` : `pg-${target.port}-${size.files}`);
  if (cluster) fs.rmSync(home, { recursive: true, force: true });
  try {
    await ensureCollection(home, target.toString(), size);
  } catch (e) {
    cluster?.stop();
    throw e;
  }
  return { home, databaseUrl: target.toString(), release: () => cluster?.stop() };
}
