// `npm test`: install what is needed, build, then run unit + API tests (SQLite), the API tests again on
// PostgreSQL, the web unit tests and the browser tests; ends with one line "N passed, N failed".
import fs from 'node:fs';
import path from 'node:path';
import { buildServer, ensureFfmpeg, ensureInstalled, isBuildStale, mustRun, root, run, runLabelled, WEB_BUILD } from './lib.mjs';
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
// The player's tests make their clips and sessions with ffmpeg; without it they are skipped and say so.
ensureFfmpeg();
// The server suites run the server from source (tsx) except the service-file tests, which start the built one; the
// console is built beside them, as only the browser tests need it.
buildServer();

const runs = [];

// Lint, the console's build and the two server suites run side by side (vitest gives each run one worker on two
// cores); their lines are prefixed with the run's name. Lint (ESLint: layering, import cycles, hooks, a11y; prettier
// --check) and the build each count as one check.
const vitestArgs = (name, args) => {
  const output = path.join(resultsDir, `${name}.json`);
  return { output, args: ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${output}`, ...args] };
};
const serverSuite = async (name, args, env = {}) => {
  const { output, args: argv } = vitestArgs(name, args);
  const code = await runLabelled(name, 'npx', argv, {
    cwd: path.join(root, 'server'),
    env: { NODE_OPTIONS: '--openssl-legacy-provider', ...env },
  });
  return { name, output, code, kind: 'vitest' };
};
const postgresSuite = async () => {
  let pg;
  try {
    pg = await startPostgres();
    console.log(`\nPostgreSQL suite on ${pg.url.replace(/\/\/[^@]*@/, '//')}`);
    return await serverSuite('server-postgres', ['api.test'], { SHOKO_TEST_DB: pg.url });
  } catch (error) {
    console.error(`PostgreSQL suite could not start: ${error.message}`);
    return { name: 'server-postgres', output: null, code: 1, kind: 'vitest', failedToStart: true };
  } finally {
    pg?.stop();
  }
};
const check = (name, failure, command, args) => runLabelled(name, command, args).then((code) => ({ name, code, kind: 'check', failure }));
const webBuild = isBuildStale(...WEB_BUILD)
  ? check('build-web', 'the console did not build; its errors are above', 'npm', ['run', 'build', '-w', 'web'])
  : Promise.resolve(null);
const sideBySide = await Promise.all([
  check('lint', 'ESLint or prettier found problems; `npm run lint` lists them', 'node', [path.join(root, 'scripts', 'lint.mjs')]),
  webBuild,
  serverSuite('server-sqlite', []),
  postgresSuite(),
]);
runs.push(...sideBySide.filter(Boolean));

const vitest = (name, cwd, args, env = {}) => {
  const { output, args: argv } = vitestArgs(name, args);
  const code = run('npx', argv, { cwd: path.join(root, cwd), env: { NODE_OPTIONS: '--openssl-legacy-provider', ...env } });
  runs.push({ name, output, code, kind: 'vitest' });
};

if (fs.existsSync(path.join(root, 'web', 'vitest.config.ts'))) vitest('web', 'web', ['--passWithNoTests']);

const playwrightOutput = path.join(resultsDir, 'playwright.json');
const e2eCode = run('npx', ['playwright', 'test', '-c', 'e2e'], {
  env: { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightOutput, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
});
runs.push({ name: 'e2e', output: playwrightOutput, code: e2eCode, kind: 'playwright' });

// Every failing test, one line each ("FAILED <runner>: <file> › <title>"), printed just above the total so the
// last lines of a run say what broke; .ci/run prints the same list from failures.txt.
const failures = [];
const rel = (file) => path.relative(root, file) || file;
const firstLine = (text) =>
  String(text ?? '')
    .split('\n')
    .find((l) => l.trim())
    ?.trim()
    .slice(0, 200) ?? '';

// The reason beside each failure: CI shows only the last lines of a run, so they must say what went wrong.
// eslint-disable-next-line no-control-regex -- the escape sequences of terminal colours are what is removed
const stripAnsi = (text) => String(text ?? '').replace(/\u001b\[[0-9;]*m/g, '');
const reason = (text) => {
  const lines = stripAnsi(text)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('at ') && !/^\d+ \|/.test(l) && !l.startsWith('> '));
  const joined = lines.slice(0, 4).join(' | ');
  return joined ? ` — ${joined.slice(0, 240)}` : '';
};

function vitestResults(r, report) {
  let runFailed = 0;
  for (const file of report.testResults ?? []) {
    const failedTests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of failedTests)
      failures.push(
        `FAILED ${r.name}: ${rel(file.name)} › ${[...(t.ancestorTitles ?? []), t.title].join(' › ')}${reason(t.failureMessages?.[0])}`,
      );
    runFailed += failedTests.length;
    // A file that fails to load, or whose beforeAll/afterAll fails, has no failed test but must still count.
    if (file.status === 'failed' && failedTests.length === 0) {
      failures.push(
        `FAILED ${r.name}: ${rel(file.name)} › (file) ${firstLine(file.message) || 'a beforeAll/afterAll hook failed, see its error above'}`,
      );
      runFailed += 1;
    }
  }
  return { runPassed: report.numPassedTests ?? 0, runFailed };
}

function playwrightResults(r, report) {
  const testDir = report.config?.rootDir ?? path.join(root, 'e2e');
  let runFailed = 0;
  // Top-level suites are the spec files (their title is the file name); nested ones are describe blocks.
  const walk = (suite, titles, isFile = false) => {
    const here = suite.title && !isFile ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const last = test.results?.at(-1)?.status;
        // "unexpected": failed every try; "flaky": failed then passed on a retry, which we also refuse.
        if (test.status === 'unexpected' || test.status === 'flaky') {
          const project = test.projectName ? ` [${test.projectName}]` : '';
          const how = test.status === 'flaky' ? ' (flaky: failed, then passed on retry)' : last && last !== 'failed' ? ` (${last})` : '';
          const error = test.results?.find((result) => result.error)?.error;
          failures.push(
            `FAILED ${r.name}: ${rel(path.join(testDir, spec.file))} › ${[...here, spec.title].join(' › ')}${project}${how}${reason(error?.message)}${error?.location ? ` (line ${error.location.line})` : ''}`,
          );
          runFailed += 1;
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of report.suites ?? []) walk(suite, [], true);
  for (const error of report.errors ?? []) {
    const where = error.location ? `${rel(error.location.file)}:${error.location.line}` : '(run)';
    failures.push(`FAILED ${r.name}: ${where} › ${firstLine(error.message) || 'error outside a test'}`);
    runFailed += 1;
  }
  return { runPassed: report.stats?.expected ?? 0, runFailed };
}

let passed = 0;
let failed = 0;
for (const r of runs) {
  if (r.kind === 'check') {
    if (r.code === 0) passed += 1;
    else {
      failed += 1;
      failures.push(`FAILED ${r.name}: ${r.failure} (exit ${r.code})`);
    }
    continue;
  }
  if (!r.output || !fs.existsSync(r.output)) {
    failed += 1;
    failures.push(`FAILED ${r.name}: (no results, exit ${r.code}${r.failedToStart ? ', did not start' : ''})`);
    continue;
  }
  let counts;
  try {
    const report = JSON.parse(fs.readFileSync(r.output, 'utf8'));
    counts = r.kind === 'vitest' ? vitestResults(r, report) : playwrightResults(r, report);
  } catch (error) {
    failed += 1;
    failures.push(`FAILED ${r.name}: (unreadable results ${rel(r.output)}: ${firstLine(error.message)})`);
    continue;
  }
  // A runner that exits non-zero without a counted failure (an unhandled error, a crash) still failed.
  if (r.code !== 0 && counts.runFailed === 0) {
    counts.runFailed = 1;
    failures.push(`FAILED ${r.name}: (exit ${r.code} without a failed test: an unhandled error or crash, see its output above)`);
  }
  passed += counts.runPassed;
  failed += counts.runFailed;
}
const summary = `${passed} passed, ${failed} failed`;
fs.writeFileSync(path.join(resultsDir, 'failures.txt'), failures.map((f) => `${f}\n`).join(''));
fs.writeFileSync(path.join(resultsDir, 'summary.txt'), `${summary}\n`);
console.log(failures.length ? `\n${failures.join('\n')}\n${summary}` : `\n${summary}`);
process.exit(failed === 0 && runs.every((r) => r.code === 0) ? 0 : 1);
