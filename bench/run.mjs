// Runs every *.bench.mjs in this folder in turn (`npm run bench -- hashing` runs only names containing "hashing").
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { replaceResults } from './lib.mjs';

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
 * bench/REPORT.md: one section per benchmark, each opening with a block generated from its results/<name>.md (or its
 * JSON when it wrote no summary) with the date and the command that reproduces it. Only the block of a bench that just
 * ran is replaced: what engineers wrote in a section around it (analysis, earlier runs, what is left) stays.
 */
function writeReport() {
  const resultsDir = path.join(here, 'results');
  const reportPath = path.join(here, 'REPORT.md');
  if (!fs.existsSync(resultsDir)) return;
  let report = fs.existsSync(reportPath) ? fs.readFileSync(reportPath, 'utf8') : '# Benchmark report\n';
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const machine = `Machine: ${cpu}, ${os.availableParallelism()} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}.`;
  let updated = 0;
  for (const bench of benches) {
    const section = bench.replace(/\.bench\.mjs$/, '');
    // A bench's results are results/<section>.md|json, or one per variant: results/<section>-<variant>.md|json.
    const names = [
      ...new Set(
        fs
          .readdirSync(resultsDir)
          .filter((n) => /\.(md|json)$/.test(n))
          .map((n) => n.replace(/\.(md|json)$/, ''))
          .filter((n) => n === section || n.startsWith(`${section}-`)),
      ),
    ].sort();
    for (const name of names) {
      const md = path.join(resultsDir, `${name}.md`);
      const json = path.join(resultsDir, `${name}.json`);
      const measuredAt = fs.statSync(fs.existsSync(md) ? md : json).mtime.toISOString();
      const body = fs.existsSync(md)
        ? fs.readFileSync(md, 'utf8').trim()
        : ['```json', fs.readFileSync(json, 'utf8').trim(), '```'].join('\n');
      const block = [
        `<!-- results:${name} -->`,
        `Measured ${measuredAt} (${machine.replace(/\.$/, '')}). Reproduce: \`npm run bench -- ${section}\`.`,
        '',
        body,
        `<!-- /results:${name} -->`,
      ].join('\n');
      report = replaceResults(report, section, name, block);
      updated++;
    }
  }
  fs.writeFileSync(reportPath, report);
  console.log(`\nUpdated ${updated} section(s) of bench/REPORT.md`);
}
