// Lint step: ESLint (eslint.config.js: recommended rules, import cycles, layering), `prettier --check`, the type
// check of the test code, the server's domain boundaries (scripts/check-domains.mjs) and the size of the server's
// source files, side by side.
// Exits non-zero when either finds something, after a summary per rule and per folder.
//   node scripts/lint.mjs [paths…]   (default: the whole tree)
//   --no-cache   lint every file (the caches live in node_modules/.cache and follow file content and config changes)
//   --fix        let ESLint fix what it can and prettier write the files, then report what is left
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { root } from './lib.mjs';

const args = process.argv.slice(2);
const useCache = !args.includes('--no-cache');
const fix = args.includes('--fix');
const targets = args.filter((a) => !a.startsWith('--'));
const paths = targets.length ? targets : ['.'];
const cacheDir = path.join(root, 'node_modules', '.cache');
const started = performance.now();
const seconds = (since) => ((performance.now() - since) / 1000).toFixed(1);

function runPrettier() {
  const prettierArgs = [
    path.join(root, 'node_modules', 'prettier', 'bin', 'prettier.cjs'),
    fix ? '--write' : '--check',
    '--log-level',
    'warn',
    ...(useCache ? ['--cache', '--cache-strategy', 'content', '--cache-location', path.join(cacheDir, 'prettier', 'cache.json')] : []),
    ...paths,
  ];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, prettierArgs, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (error) => resolve({ code: 1, output: String(error) }));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

async function runEslint() {
  const eslint = new ESLint({
    cwd: root,
    fix,
    cache: useCache,
    cacheLocation: path.join(cacheDir, 'eslint', 'cache.json'),
    cacheStrategy: 'content',
  });
  const results = await eslint.lintFiles(paths);
  if (fix) await ESLint.outputFixes(results);
  const formatter = await eslint.loadFormatter('stylish');
  return { results, text: await formatter.format(results) };
}

// Test code is type-checked like the code it tests (the server's and the browser tests' own configurations; the web's
// tests are in its tsconfig already and checked by its build). Only on a whole-tree run, and not with --fix.
const TEST_TYPE_CHECKS = [
  { name: 'server tests', project: path.join(root, 'server', 'tsconfig.test.json') },
  { name: 'browser tests', project: path.join(root, 'e2e', 'tsconfig.json') },
];

function runTypeCheck({ name, project }) {
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '-p', project, '--noEmit', '--pretty', 'false'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (error) => resolve({ name, code: 1, output: String(error) }));
    child.on('close', (code) => resolve({ name, code: code ?? 1, output }));
  });
}

const typeChecksRun = targets.length || fix ? Promise.resolve([]) : Promise.all(TEST_TYPE_CHECKS.map(runTypeCheck));

// The server's domains are reached only through their index.ts and import each other without a cycle (the script's
// header says what it enforces). Only on a whole-tree run, like the type checks.
function runDomainCheck() {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, 'scripts', 'check-domains.mjs')], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (error) => resolve({ code: 1, output: String(error) }));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}
const domainCheckRun = targets.length || fix ? Promise.resolve(null) : runDomainCheck();

// No source file of the server is over 500 lines (its tests aside): one that grows past it is split by concern.
const MAX_SERVER_FILE_LINES = 500;
function oversizedServerFiles(dir = path.join(root, 'server', 'src')) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return oversizedServerFiles(file);
    if (!entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts') || entry.name.endsWith('.d.ts')) return [];
    const content = fs.readFileSync(file, 'utf8');
    const lines = content.split('\n').length - (content.endsWith('\n') ? 1 : 0);
    return lines > MAX_SERVER_FILE_LINES ? [{ file: path.relative(root, file), lines }] : [];
  });
}
const oversized = targets.length || fix ? [] : oversizedServerFiles();
const prettierRun = runPrettier();
const eslintStarted = performance.now();
const { results, text } = await runEslint();
const eslintTime = seconds(eslintStarted);
const prettier = await prettierRun;

const errors = results.reduce((n, r) => n + r.errorCount, 0);
const warnings = results.reduce((n, r) => n + r.warningCount, 0);
// Files prettier would change: its --check warnings are "[warn] <file>", without the closing summary line.
const unformatted = prettier.output
  .split('\n')
  .map((line) => line.match(/^\[warn\] (.+)$/)?.[1])
  .filter((file) => file && !/^Code style issues/.test(file) && !/--write/.test(file));

if (text.trim()) console.log(text);
if (!fix && unformatted.length) {
  console.log('Not formatted as prettier prints them (fix with `npm run format` or `npx prettier --write <file>`):');
  for (const file of unformatted) console.log(`  ${file}`);
  console.log('');
} else if (prettier.code !== 0 && prettier.output.trim()) {
  console.log(prettier.output.trim());
}

if (errors + warnings > 0) {
  const byRule = new Map();
  const byFolder = new Map();
  for (const result of results) {
    const parts = path.relative(root, result.filePath).split(path.sep);
    const folder = parts.slice(0, parts[0] === 'server' && parts[2] === 'domains' ? 4 : 3).join('/');
    for (const message of result.messages) {
      const rule = message.ruleId ?? (message.fatal ? 'parse error' : 'other');
      byRule.set(rule, (byRule.get(rule) ?? 0) + 1);
      byFolder.set(folder, (byFolder.get(folder) ?? 0) + 1);
    }
  }
  const table = (map) => [...map].sort((a, b) => b[1] - a[1]).map(([name, count]) => `  ${String(count).padStart(4)}  ${name}`);
  console.log(['ESLint problems by rule:', ...table(byRule), 'by folder:', ...table(byFolder)].join('\n'));
}

const typeChecks = await typeChecksRun;
const typeErrors = typeChecks.map((check) => ({ ...check, errors: (check.output.match(/error TS\d+/g) ?? []).length }));
for (const check of typeErrors.filter((c) => c.code !== 0)) {
  console.log(`Type errors in the ${check.name} (${path.relative(root, TEST_TYPE_CHECKS.find((c) => c.name === check.name).project)}):`);
  console.log(check.output.trim(), '\n');
}

const domainCheck = await domainCheckRun;
if (domainCheck && domainCheck.code !== 0) console.log(`${domainCheck.output.trim()}\n`);

if (oversized.length) {
  console.log(`Server source files over ${MAX_SERVER_FILE_LINES} lines (split them by concern):`);
  for (const { file, lines } of oversized) console.log(`  ${file}: ${lines} lines`);
  console.log('');
}

const ok =
  errors === 0 && prettier.code === 0 && typeErrors.every((c) => c.code === 0) && (domainCheck?.code ?? 0) === 0 && !oversized.length;
const typeSummary = typeErrors.length
  ? `; types: ${typeErrors.map((c) => `${c.name} ${c.code === 0 ? 'clean' : `${c.errors || 'failed'} error(s)`}`).join(', ')}`
  : '';
console.log(
  `\n${ok ? '✔' : '✖'} lint: ESLint ${errors} error(s), ${warnings} warning(s) in ${results.length} files (${eslintTime} s); ` +
    `prettier: ${prettier.code === 0 ? 'all formatted' : unformatted.length ? `${unformatted.length} file(s) not formatted` : 'failed'}` +
    `${typeSummary}${domainCheck ? `; domains: ${domainCheck.code === 0 ? 'clean' : 'broken'}` : ''}` +
    `${oversized.length ? `; ${oversized.length} server file(s) over ${MAX_SERVER_FILE_LINES} lines` : ''}; ${seconds(started)} s${useCache ? ' (cached; --no-cache for a full run)' : ''}`,
);
process.exit(ok ? 0 : 1);
