// Runs every *.bench.mjs in this folder in turn (`npm run bench -- hashing` runs only names containing "hashing").
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const benches = fs
  .readdirSync(here)
  .filter((name) => name.endsWith('.bench.mjs') && (filters.length === 0 || filters.some((filter) => name.includes(filter))))
  .sort();

let failed = 0;
for (const bench of benches) {
  console.log(`\n▶ ${bench}`);
  // The server runs with the legacy provider (MD4 for ED2K); benchmarks measure it the same way.
  const result = spawnSync(process.execPath, ['--openssl-legacy-provider', path.join(here, bench)], { stdio: 'inherit', cwd: here });
  if (result.status !== 0) {
    failed++;
    console.error(`✖ ${bench} failed (exit ${result.status ?? result.signal})`);
  }
}
process.exit(failed ? 1 : 0);
