// The series page at scale: the browser test that opens a 1,500-episode series (One Piece-sized) and scrolls its
// Episodes tab to the end, run by Playwright with SERIES_BENCH_OUT so it hands its measurements over.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
for (const built of [path.join(root, 'server', 'dist', 'main.js'), path.join(root, 'web', 'dist', 'index.html')]) {
  if (!fs.existsSync(built)) throw new Error('Build the server and the console first (npm run build)');
}
const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-series-')), 'series.json');
const run = spawnSync(
  'npx',
  ['playwright', 'test', '-c', 'e2e', 'e2e/specs/series-scale.spec.ts', '--output', path.join(path.dirname(out), 'results')],
  {
    cwd: root,
    env: { ...process.env, SERIES_BENCH_OUT: out, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
    stdio: 'inherit',
  },
);
if (run.status !== 0 || !fs.existsSync(out)) {
  console.error('the series benchmark did not finish');
  process.exit(1);
}
const result = JSON.parse(fs.readFileSync(out, 'utf8'));
const median = [...result.serverFirstPageMs].sort((a, b) => a - b)[Math.floor(result.serverFirstPageMs.length / 2)];
const results = path.join(root, 'bench', 'results');
fs.mkdirSync(results, { recursive: true });
fs.writeFileSync(path.join(results, 'series.json'), JSON.stringify({ ...result, measuredAt: new Date().toISOString() }, null, 2));
fs.writeFileSync(
  path.join(results, 'series.md'),
  [
    `A series of ${result.episodes.toLocaleString('en')} episodes, SQLite, Chromium headless on this machine:`,
    `- server, first page of the Episodes tab (26 rows): median ${median.toFixed(1)} ms of ${result.serverFirstPageMs.length} requests;`,
    `- browser, from navigation to the first rows: ${Math.round(result.firstRowsMs)} ms;`,
    `- scrolled to episode ${result.episodes} in ${result.steps} viewport steps, rows in view at every step; longest wait for rows after a step ${Math.round(result.longestWaitMs)} ms.`,
  ].join('\n'),
);
console.log(`series: first page ${median.toFixed(1)} ms, first rows ${Math.round(result.firstRowsMs)} ms`);
