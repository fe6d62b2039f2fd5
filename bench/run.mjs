// Runs every *.bench.mjs in this folder in turn (`npm run bench -- hashing` runs only names containing "hashing").
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
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
writeReport();
process.exit(failed ? 1 : 0);

/**
 * bench/REPORT.md: one section per benchmark from its results/<name>.md (or its JSON when it wrote no summary),
 * with the machine, the date and the command that reproduces it.
 */
function writeReport() {
  const resultsDir = path.join(here, 'results');
  if (!fs.existsSync(resultsDir)) return;
  const names = [
    ...new Set(
      fs
        .readdirSync(resultsDir)
        .filter((n) => /\.(md|json)$/.test(n))
        .map((n) => n.replace(/\.(md|json)$/, '')),
    ),
  ].sort();
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const sections = names.map((name) => {
    const md = path.join(resultsDir, `${name}.md`);
    const json = path.join(resultsDir, `${name}.json`);
    const measuredAt = fs.statSync(fs.existsSync(md) ? md : json).mtime.toISOString();
    const body = fs.existsSync(md)
      ? fs.readFileSync(md, 'utf8').trim()
      : ['```json', fs.readFileSync(json, 'utf8').trim(), '```'].join('\n');
    return [`## ${name}`, '', `Measured ${measuredAt}. Reproduce: \`npm run bench -- ${name}\`.`, '', body].join('\n');
  });
  const header = [
    '# Benchmark report',
    '',
    `Machine: ${cpu}, ${os.availableParallelism()} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}.`,
    `Written ${new Date().toISOString()} by \`npm run bench\` (each section shows when it was measured).`,
    '',
  ].join('\n');
  fs.writeFileSync(path.join(here, 'REPORT.md'), `${header}\n${sections.join('\n\n')}\n`);
  console.log(`\nWrote bench/REPORT.md (${sections.length} sections)`);
}
