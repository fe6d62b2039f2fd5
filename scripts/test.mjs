// `npm test`: install what is needed, build, then run unit + API tests (SQLite), the API tests again on
// PostgreSQL, the web unit tests and the browser tests; ends with one line "N passed, N failed".
import fs from 'node:fs';
import path from 'node:path';
import { buildAll, ensureInstalled, mustRun, root, run } from './lib.mjs';
import { findPostgresBin, startPostgres } from './pg-cluster.mjs';

const resultsDir = path.join(root, '.test-results');
fs.rmSync(resultsDir, { recursive: true, force: true });
fs.mkdirSync(resultsDir, { recursive: true });

function ensureDebianPackage(name, present) {
  if (present()) return;
  if (process.getuid?.() !== 0) {
    console.error(`Missing system package "${name}". Install it (as root: apt-get install -y ${name}) and run npm test again.`);
    process.exit(1);
  }
  console.log(`Installing Debian package ${name}…`);
  mustRun('apt-get', ['update', '-qq']);
  mustRun('apt-get', ['install', '-y', '-qq', '--no-install-recommends', name], { env: { DEBIAN_FRONTEND: 'noninteractive' } });
}

ensureInstalled();
ensureDebianPackage('chromium', () => fs.existsSync('/usr/bin/chromium'));
ensureDebianPackage('postgresql', () => findPostgresBin() !== null);
// The hashing tests compare our digests with rhash's.
ensureDebianPackage('rhash', () => ['/usr/bin/rhash', '/usr/local/bin/rhash'].some((p) => fs.existsSync(p)));
buildAll();

const runs = [];
const vitest = (name, cwd, args, env = {}) => {
  const output = path.join(resultsDir, `${name}.json`);
  const code = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${output}`, ...args], {
    cwd: path.join(root, cwd),
    env: { NODE_OPTIONS: '--openssl-legacy-provider', ...env },
  });
  runs.push({ name, output, code, kind: 'vitest' });
};

vitest('server-sqlite', 'server', []);

let pg;
try {
  pg = await startPostgres();
  console.log(`\nPostgreSQL suite on ${pg.url.replace(/\/\/[^@]*@/, '//')}`);
  vitest('server-postgres', 'server', ['api.test'], { SHOKO_TEST_DB: pg.url });
} catch (error) {
  console.error(`PostgreSQL suite could not start: ${error.message}`);
  runs.push({ name: 'server-postgres', output: null, code: 1, kind: 'vitest', failedToStart: true });
} finally {
  pg?.stop();
}

if (fs.existsSync(path.join(root, 'web', 'vitest.config.ts'))) vitest('web', 'web', ['--passWithNoTests']);

const playwrightOutput = path.join(resultsDir, 'playwright.json');
const e2eCode = run('npx', ['playwright', 'test', '-c', 'e2e'], {
  env: { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightOutput, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
});
runs.push({ name: 'e2e', output: playwrightOutput, code: e2eCode, kind: 'playwright' });

let passed = 0;
let failed = 0;
for (const r of runs) {
  if (!r.output || !fs.existsSync(r.output)) {
    failed += 1;
    console.error(`✖ ${r.name}: no results (exit ${r.code})`);
    continue;
  }
  const report = JSON.parse(fs.readFileSync(r.output, 'utf8'));
  let runPassed;
  let runFailed;
  if (r.kind === 'vitest') {
    runPassed = report.numPassedTests ?? 0;
    // A test file that fails to load has no failed tests but must still count.
    const brokenFiles = (report.testResults ?? []).filter((f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0).length;
    runFailed = (report.numFailedTests ?? 0) + brokenFiles;
  } else {
    runPassed = report.stats?.expected ?? 0;
    runFailed = (report.stats?.unexpected ?? 0) + (report.errors?.length ?? 0);
  }
  // A runner that exits non-zero without a counted failure still failed.
  if (r.code !== 0 && runFailed === 0) runFailed = 1;
  passed += runPassed;
  failed += runFailed;
}
const summary = `${passed} passed, ${failed} failed`;
fs.writeFileSync(path.join(resultsDir, 'summary.txt'), `${summary}\n`);
console.log(`\n${summary}`);
process.exit(failed === 0 && runs.every((r) => r.code === 0) ? 0 : 1);
