// Console bundle size: the JavaScript the browser loads before the console paints (the entry and its preloads), and
// everything else that loads lazily, gzip level 9. Reads the built console in web/dist (`npm run build` first).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'web', 'dist');
const BUDGET_KB = 200;
if (!fs.existsSync(path.join(dist, 'index.html'))) {
  console.error('Build the console first (npm run build)');
  process.exit(1);
}
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const initial = new Set(
  [...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g), ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)].map((m) =>
    path.join(dist, m[1].replace(/^\/webui\//, '')),
  ),
);
const walk = (dir) =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
const gz = (file) => gzipSync(fs.readFileSync(file), { level: 9 }).length;
const all = walk(dist).filter((f) => f.endsWith('.js'));
const initialKb = [...initial].reduce((sum, f) => sum + gz(f), 0) / 1024;
const lazyKb = all.filter((f) => !initial.has(f)).reduce((sum, f) => sum + gz(f), 0) / 1024;
const results = path.join(root, 'bench', 'results');
fs.mkdirSync(results, { recursive: true });
fs.writeFileSync(
  path.join(results, 'bundle.json'),
  JSON.stringify({ initialKb: +initialKb.toFixed(1), lazyKb: +lazyKb.toFixed(1), chunks: all.length }, null, 2),
);
fs.writeFileSync(
  path.join(results, 'bundle.md'),
  `Console JavaScript, gzip -9: initial ${initialKb.toFixed(1)} kB in ${initial.size} file(s) (budget ${BUDGET_KB} kB: ${initialKb <= BUDGET_KB ? 'met' : 'NOT met'}); ${lazyKb.toFixed(1)} kB more in ${all.length - initial.size} lazily loaded chunks (the script editor among them).`,
);
console.log(`bundle: initial ${initialKb.toFixed(1)} kB gzip, lazy ${lazyKb.toFixed(1)} kB`);
