// Renamer preview benchmark: one Renamer/Preview request over 10,000 recognised files with the default script, on a
// temporary SQLite database (the server's own API test harness, run by vitest with RENAMER_BENCH=1).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-renamer-')), 'renamer.json');

const run = spawnSync('npx', ['vitest', 'run', 'src/domains/renamer/preview-bench.api.test.ts'], {
  cwd: path.join(root, 'server'),
  env: { ...process.env, RENAMER_BENCH: '1', RENAMER_BENCH_OUT: out },
  stdio: 'inherit',
});
if (run.status !== 0 || !fs.existsSync(out)) {
  console.error('the renamer preview benchmark did not finish');
  process.exit(1);
}
const result = JSON.parse(fs.readFileSync(out, 'utf8'));
const [cold, warm] = result.runsMs;
const results = path.join(root, 'bench', 'results');
fs.mkdirSync(results, { recursive: true });
fs.writeFileSync(path.join(results, 'renamer.json'), JSON.stringify({ ...result, measuredAt: new Date().toISOString() }, null, 2));
fs.writeFileSync(
  path.join(results, 'renamer.md'),
  [
    `Renamer preview of ${result.files.toLocaleString('en')} recognised files with the default script (move and rename), one request, SQLite:`,
    `first request ${(cold / 1000).toFixed(2)} s, second ${(warm / 1000).toFixed(2)} s.`,
  ].join('\n'),
);
console.log(`renamer preview: ${cold} ms, then ${warm} ms`);
