// Discovery benchmark: 10,000 small video files in nested folders, discovered and queued by one scan of the built
// server. Reports the time from the scan request until every file has a record, and the server's peak memory.
// Then, once every file is hashed, the same folder is scanned again with nothing changed on disk: the time until that
// scan is done, and how many files were hashed again (the file-name cache by path, size and mtime must make it 0).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './lib.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FILES = Number(process.env.BENCH_DISCOVERY_FILES ?? 10_000);
const BUDGET_MS = 5000;

function makeTree(dir) {
  let made = 0;
  let bytes = 0;
  for (let show = 0; made < FILES; show++) {
    for (let season = 0; season < 4 && made < FILES; season++) {
      const folder = path.join(dir, `Show ${show}`, `Season ${season + 1}`);
      fs.mkdirSync(folder, { recursive: true });
      for (let ep = 0; ep < 25 && made < FILES; ep++, made++) {
        const content = `episode ${made}`;
        fs.writeFileSync(path.join(folder, `Show ${show} - ${String(ep + 1).padStart(2, '0')}.mkv`), content);
        bytes += content.length;
      }
      fs.writeFileSync(path.join(folder, 'notes.txt'), 'not a video');
    }
  }
  return bytes;
}

/** Lines of the server's log files matching `pattern` (the server logs each hash and each finished folder scan). */
function countLogLines(home, pattern) {
  const dir = path.join(home, 'logs');
  if (!fs.existsSync(dir)) return 0;
  let count = 0;
  for (const name of fs.readdirSync(dir).filter((n) => n.endsWith('.log')))
    count += fs
      .readFileSync(path.join(dir, name), 'utf8')
      .split('\n')
      .filter((line) => pattern.test(line)).length;
  return count;
}

const peakMemoryKiB = (pid) => Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

export async function benchDiscovery() {
  const main = path.join(root, 'server', 'dist', 'main.js');
  if (!fs.existsSync(main)) throw new Error('Build the server first (npm run build)');
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-home-'));
  const media = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-media-'));
  const videoBytes = makeTree(media);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--openssl-legacy-provider', main], {
    env: { ...process.env, SHOKO_HOME: home, SHOKO_PORT: String(port), SHOKO_HOST: '127.0.0.1' },
    stdio: 'ignore',
  });
  try {
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
    await call('POST', '/api/v3/Init/DefaultUser', { Username: 'bench', Password: 'bench' });
    await call('GET', '/api/v3/Init/StartServer');
    while ((await call('GET', '/api/v3/Init/Status')).State !== 'Started') await new Promise((r) => setTimeout(r, 100));
    const { apikey } = await call('POST', '/api/auth', { user: 'bench', pass: 'bench', device: 'bench' });
    // Hashing starts as soon as the first files are queued and shares the cores with the scan, as in real use.
    const folder = await call('POST', '/api/v3/ImportFolder', { Name: 'Bench', Path: media }, apikey);
    const started = performance.now();
    await call('GET', `/api/v3/ImportFolder/${folder.ID}/Scan`, undefined, apikey);
    let elapsed;
    for (;;) {
      const types = await call('GET', '/api/v3/Queue/Types', undefined, apikey);
      if ((types['Hash File'] ?? 0) >= FILES || !types['Scan Import Folder']) {
        const total = (await call('GET', '/api/v3/File?pageSize=1', undefined, apikey)).Total;
        if (total >= FILES) {
          elapsed = performance.now() - started;
          break;
        }
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const peak = peakMemoryKiB(child.pid);
    const rescan = await measureRescan(call, apikey, folder.ID, home);
    return {
      files: FILES,
      videoBytes,
      seconds: +(elapsed / 1000).toFixed(2),
      budgetSeconds: BUDGET_MS / 1000,
      withinBudget: elapsed < BUDGET_MS,
      peakMemoryMiB: +(peak / 1024).toFixed(1),
      ...rescan,
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(home, { recursive: true, force: true });
    fs.rmSync(media, { recursive: true, force: true });
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Waits until the queue is empty (every file hashed), then times a scan of the unchanged folder. */
async function measureRescan(call, apikey, folderId, home) {
  const queueEmpty = async () => (await call('GET', '/api/v3/Queue', undefined, apikey)).TotalCount === 0;
  const hashStarted = performance.now();
  while (!(await queueEmpty())) await sleep(500);
  const hashSeconds = +((performance.now() - hashStarted) / 1000).toFixed(1);
  const scanned = /Scanned .*video file/;
  const hashedLine = /Hashed .*\(ED2K/;
  await sleep(1000); // let the log file catch up with the last hash
  const scansBefore = countLogLines(home, scanned);
  const hashedBefore = countLogLines(home, hashedLine);
  const started = performance.now();
  await call('GET', `/api/v3/ImportFolder/${folderId}/Scan`, undefined, apikey);
  let rescanMs;
  for (;;) {
    if ((await queueEmpty()) && countLogLines(home, scanned) > scansBefore) {
      rescanMs = performance.now() - started;
      break;
    }
    await sleep(50);
  }
  await sleep(1000);
  return {
    hashedBeforeRescan: hashedBefore,
    secondsUntilAllHashed: hashSeconds,
    rescanSeconds: +(rescanMs / 1000).toFixed(2),
    rehashedOnRescan: countLogLines(home, hashedLine) - hashedBefore,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchDiscovery();
  console.table([result]);
  fs.mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
  fs.writeFileSync(path.join(root, 'bench', 'results', 'discovery.json'), JSON.stringify(result, null, 2));
  fs.writeFileSync(
    path.join(root, 'bench', 'results', 'discovery.md'),
    [
      `${result.files.toLocaleString('en')} small files in nested folders discovered and queued in ${result.seconds} s (budget ${result.budgetSeconds} s: ${result.withinBudget ? 'met' : 'NOT met'}); server peak RSS ${result.peakMemoryMiB} MiB.`,
      '',
      `Re-scan of the same ${result.files.toLocaleString('en')} files, unchanged on disk (${(result.videoBytes / 1000).toFixed(0)} kB of video files in all, ` +
        `${result.hashedBeforeRescan.toLocaleString('en')} hashed before it, hashing took ${result.secondsUntilAllHashed} s after discovery): ` +
        `${result.rescanSeconds} s until the scan was done and the queue empty; ${result.rehashedOnRescan} file(s) hashed again ` +
        `(the cache by path, size and modification time answers for the rest; a re-scan costs a directory walk and a stat per file, ` +
        `so the size of the files does not change it).`,
      '',
    ].join('\n'),
  );
}
