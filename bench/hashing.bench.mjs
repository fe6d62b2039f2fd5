// Hashing throughput of the built server's HashPool against rhash, both computing ED2K + CRC32 + MD5 + SHA-1.
// `npm run bench` (or `node hashing.bench.mjs` here) builds the server first when its hashing sources changed.
import { spawn, spawnSync } from 'node:child_process';
import { createCipheriv, createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(benchDir, '..');
const hashingSources = path.join(root, 'server/src/media/hashing');
const hashingBuild = path.join(root, 'server/dist/media/hashing');
const resultsFile = path.join(benchDir, 'results/hashing.json');

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
const ROUNDS = Number(process.env.HASH_BENCH_ROUNDS ?? 5);
const TARGET_RATIO = 1.8;

// MD4 needs OpenSSL's legacy provider, as the server has it; hash workers inherit it from this process.
if (!process.execArgv.includes('--openssl-legacy-provider') && !hasOpensslMd4()) {
  const child = spawnSync(
    process.execPath,
    ['--openssl-legacy-provider', ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    { stdio: 'inherit' },
  );
  process.exit(child.status ?? 1);
}

function hasOpensslMd4() {
  try {
    createHash('md4');
    return true;
  } catch {
    return false;
  }
}

function newestMtime(dir) {
  return Math.max(
    ...fs
      .readdirSync(dir)
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .map((name) => fs.statSync(path.join(dir, name)).mtimeMs),
  );
}

function builtMtime() {
  const outputs = ['index.js', 'hash-worker.js'].map((name) => path.join(hashingBuild, name));
  return outputs.every((file) => fs.existsSync(file)) ? Math.min(...outputs.map((file) => fs.statSync(file).mtimeMs)) : 0;
}

function ensureServerBuilt() {
  if (builtMtime() >= newestMtime(hashingSources)) return;
  console.log('Building the server (npm run build -w server)…');
  const build = spawnSync('npm', ['run', 'build', '-w', 'server'], { cwd: root, stdio: 'inherit' });
  // tsc still writes its output when other folders have type errors; what matters here is a fresh hashing build.
  if (builtMtime() < newestMtime(hashingSources)) {
    console.error('✖ The server build did not produce server/dist/media/hashing; cannot benchmark.');
    process.exit(1);
  }
  if (build.status !== 0) console.warn('⚠ The server build reported errors elsewhere; the hashing build is fresh, continuing.');
}

function rhashVersion() {
  const result = spawnSync('rhash', ['--version'], { encoding: 'utf8' });
  if (result.error) {
    console.error('✖ rhash is not installed (apt-get install -y rhash); it is the reference this benchmark compares against.');
    process.exit(1);
  }
  return result.stdout.trim();
}

/** Pseudo-random content (AES-CTR keystream): incompressible and quick to produce. */
function writePseudoRandom(file, size, seed) {
  const cipher = createCipheriv('aes-128-ctr', Buffer.alloc(16, seed), Buffer.alloc(16));
  const zeros = Buffer.alloc(16 * MiB);
  const fd = fs.openSync(file, 'w');
  for (let written = 0; written < size; written += zeros.length)
    fs.writeSync(fd, cipher.update(zeros.subarray(0, Math.min(zeros.length, size - written))));
  fs.closeSync(fd);
}

/** Reads a file once so that both contenders find it in the page cache. */
function readThrough(file) {
  const buffer = Buffer.allocUnsafe(16 * MiB);
  const fd = fs.openSync(file, 'r');
  while (fs.readSync(fd, buffer, 0, buffer.length, null) > 0);
  fs.closeSync(fd);
}

async function timed(action) {
  const start = process.hrtime.bigint();
  const value = await action();
  return { seconds: Number(process.hrtime.bigint() - start) / 1e9, value };
}

function runRhash(files) {
  return new Promise((resolve, reject) => {
    const child = spawn('rhash', ['--ed2k', '--crc32', '--md5', '--sha1', ...files], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (data) => (output += data));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`rhash exited with ${code}`))));
  });
}

/** Our digests must appear in rhash's output (rhash's ED2K on exact chunk multiples is our ED2KAlternate). */
function checkAgreement(hashes, rhashOutput) {
  const output = rhashOutput.toLowerCase();
  for (const hash of hashes) {
    const ed2k = output.includes(hash.ED2K.toLowerCase()) || (hash.ED2KAlternate && output.includes(hash.ED2KAlternate.toLowerCase()));
    if (!ed2k || ![hash.CRC32, hash.MD5, hash.SHA1].every((digest) => output.includes(digest.toLowerCase()))) {
      throw new Error(`Our digests differ from rhash's: ${JSON.stringify(hash)}\n${rhashOutput}`);
    }
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mbPerSecond = (bytes, seconds) => bytes / 1e6 / seconds;

async function main() {
  const loadBefore = os.loadavg()[0];
  if (loadBefore > 0.5)
    console.warn(`⚠ Load average is ${loadBefore.toFixed(2)}: other work competes for the cores and lowers the pool's figures most.`);
  ensureServerBuilt();
  const rhashInfo = rhashVersion();
  const { HashPool, hashFile, hashEngineInfo } = await import(pathToFileURL(path.join(hashingBuild, 'index.js')).href);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-hash-bench-'));
  const cleanUp = () => fs.rmSync(dir, { recursive: true, force: true });
  process.once('SIGINT', () => (cleanUp(), process.exit(130)));
  const pool = new HashPool();
  try {
    console.log(`Writing test data to ${dir} (1 GiB file + 8 × 128 MiB)…`);
    const single = path.join(dir, 'single-1GiB.bin');
    writePseudoRandom(single, GiB, 1);
    const several = Array.from({ length: 8 }, (_, i) => path.join(dir, `part-${i + 1}-128MiB.bin`));
    several.forEach((file, i) => writePseudoRandom(file, 128 * MiB, i + 2));
    for (const file of [single, ...several]) readThrough(file);
    await pool.hash(several[0]); // starts the workers, a one-time cost the server pays at its first hash

    const scenarios = [
      { name: '1 file of 1 GiB', files: [single], ours: () => pool.hash(single).then((hash) => [hash]) },
      { name: '8 files of 128 MiB', files: several, ours: () => Promise.all(several.map((file) => pool.hash(file))) },
    ];
    const results = [];
    for (const scenario of scenarios) {
      const bytes = scenario.files.reduce((sum, file) => sum + fs.statSync(file).size, 0);
      const runs = { ours: [], rhash: [] };
      for (let round = 0; round < ROUNDS; round++) {
        const ours = await timed(scenario.ours);
        const rhash = await timed(() => runRhash(scenario.files));
        checkAgreement(ours.value, rhash.value);
        runs.ours.push(ours.seconds);
        runs.rhash.push(rhash.seconds);
        process.stdout.write(
          `  ${scenario.name}, round ${round + 1}: ours ${ours.seconds.toFixed(2)} s, rhash ${rhash.seconds.toFixed(2)} s\n`,
        );
      }
      const ours = mbPerSecond(bytes, median(runs.ours));
      const rhash = mbPerSecond(bytes, median(runs.rhash));
      results.push({ scenario: scenario.name, bytes, seconds: runs, oursMBps: ours, rhashMBps: rhash, ratio: ours / rhash });
    }
    const oneThread = await timed(() => hashFile(single));
    const oneThreadMBps = mbPerSecond(GiB, oneThread.seconds);

    console.log(`\nHashing ED2K + CRC32 + MD5 + SHA-1, median of ${ROUNDS} rounds, MB = 10^6 bytes`);
    console.log('Page cache: every file was read once beforehand, so neither side touches the disk (dropping the cache');
    console.log('is not reliably possible here); this measures hashing, not the disk.\n');
    const rows = results.map((r) => [r.scenario, r.oursMBps.toFixed(0), r.rhashMBps.toFixed(0), `${r.ratio.toFixed(2)}×`]);
    printTable(['', 'HashPool MB/s', 'rhash MB/s', 'ratio'], rows);
    console.log(`\nhashFile on one thread (no pool), 1 GiB: ${oneThreadMBps.toFixed(0)} MB/s`);
    const met = results.every((r) => r.ratio >= TARGET_RATIO);
    console.log(`Target ≥ ${TARGET_RATIO}× rhash in every scenario: ${met ? 'met' : 'NOT met'}`);

    const report = {
      date: new Date().toISOString(),
      node: process.version,
      cpu: os.cpus()[0]?.model,
      cores: os.availableParallelism(),
      poolSize: pool.size,
      engines: hashEngineInfo(),
      rhash: rhashInfo.split('\n')[0],
      rounds: ROUNDS,
      cache: 'warm for both (each file read once before timing)',
      loadAverage: { before: loadBefore, after: os.loadavg()[0] },
      results,
      oneThreadHashFileMBps: oneThreadMBps,
      target: { ratio: TARGET_RATIO, met },
    };
    fs.mkdirSync(path.dirname(resultsFile), { recursive: true });
    fs.writeFileSync(resultsFile, `${JSON.stringify(report, null, 2)}\n`);
    fs.writeFileSync(
      resultsFile.replace(/\.json$/, '.md'),
      [
        `ED2K + CRC32 + MD5 + SHA-1 in one read, median of ${ROUNDS} rounds, warm page cache, MB = 10^6 bytes; rhash: ${report.rhash}.`,
        '',
        '| scenario | shoko-ts MB/s | rhash MB/s | ratio |',
        '|---|---|---|---|',
        ...rows.map((r) => `| ${r.join(' | ')} |`),
        '',
        `Target ≥ ${TARGET_RATIO}× rhash in every scenario: ${met ? 'met' : 'NOT met'}. One thread without the pool: ${oneThreadMBps.toFixed(0)} MB/s.`,
      ].join('\n') + '\n',
    );
    console.log(`Wrote ${path.relative(root, resultsFile)}`);
  } finally {
    await pool.close();
    cleanUp();
  }
}

function printTable(header, rows) {
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i].length)));
  const line = (row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '─'.repeat(w)).join('  '));
  rows.forEach((row) => console.log(line(row)));
}

await main();
