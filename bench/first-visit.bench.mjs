// First visits at scale: every list and page endpoint the console and the client suites (web UI, Shokofin, Shoko Relay)
// open, plus the collection, group and series pages with each single expression and each sort criterion the server's
// filter catalogue offers, on a generated collection (5,000 series / 100,000 files, or 20,000 / 400,000), with the
// response cache off (SHOKO_READ_CACHE=off: the server keeps no other answer cache, so every request is computed).
// Prints p50/p95 per endpoint and the slowest ten; writes results/first-visit-<size>.md.
//   BENCH_FIRST_VISIT_SIZE=100k|400k   (default 100k)
//   BENCH_FIRST_VISIT_DBS=sqlite,postgres   (default both; PostgreSQL needs the Debian binaries or BENCH_PG_URL)
//   BENCH_PG_URL=postgres://…   an existing cluster: the collection is kept there in database shoko_bench_<files>
//   BENCH_PG_DATABASE=…   another database name for it (several people sharing one cluster)
//   BENCH_DATA_DIR=…   where generated collections are kept between runs (default <tmp>/shoko-bench-data)
//   BENCH_FIRST_VISIT_RUNS=15, BENCH_FIRST_VISIT_CATALOGUE_RUNS=5   requests per endpoint / per catalogue entry (0: skip it)
//   BENCH_FIRST_VISIT_SETTLE_MS=10000   how long after Started the measurement begins (default 10 s)
//   BENCH_FIRST_VISIT_ONLY=ReleaseManagement,Series/With   only the endpoints whose name contains one of these (default all)
//   BENCH_FIRST_VISIT_PREPARE_ONLY=1   only make the collections that are missing (startup.bench.mjs uses it)
import fs from 'node:fs';
import path from 'node:path';
import { DATA_DIR, ensureCollection, loadAverage, root, SIZES, startServer } from './collections.mjs';
import { firstVisitEndpoints, time } from './first-visit-endpoints.mjs';

const sizeName = process.env.BENCH_FIRST_VISIT_SIZE ?? '100k';
const size = SIZES[sizeName];
if (!size) throw new Error(`BENCH_FIRST_VISIT_SIZE must be one of ${Object.keys(SIZES).join(', ')}`);
const DBS = (process.env.BENCH_FIRST_VISIT_DBS ?? 'sqlite,postgres').split(',').map((d) => d.trim());
const RUNS = Number(process.env.BENCH_FIRST_VISIT_RUNS ?? 15);
// 0 skips the catalogue walk (a quick look at the fixed endpoints).
const CATALOGUE_RUNS = Number(process.env.BENCH_FIRST_VISIT_CATALOGUE_RUNS ?? 5);
const SETTLE_MS = Number(process.env.BENCH_FIRST_VISIT_SETTLE_MS ?? 10_000);
const ONLY = (process.env.BENCH_FIRST_VISIT_ONLY ?? '')
  .split(',')
  .map((part) => part.trim())
  .filter(Boolean);
const PREPARE_ONLY = process.env.BENCH_FIRST_VISIT_PREPARE_ONLY === '1';
const BUDGET_MS = size.files <= 100_000 ? 50 : 100;

// Operands of the catalogue walk: one plain selector per kind, a parameter per kind.
const SELECTOR_OF = { DateSelector: 'AirDate', NumberSelector: 'EpisodeCount', StringSelector: 'Name', StringSetSelector: 'Names' };
const COMPARE_OF = {
  DateSelector: { Type: 'DateGreaterThan', Parameter: '2010-01-01' },
  NumberSelector: { Type: 'NumberGreaterThan', Parameter: '6' },
  StringSelector: { Type: 'StringContains', Parameter: 'ka' },
  StringSetSelector: { Type: 'AnyContains', Parameter: 'ka' },
};
const PARAMETER_OF = { Date: '2010-01-01', Number: '6', String: 'ka', Bool: 'true', TimeSpan: '30.00:00:00', StringSet: 'ka' };

/** One filter expression using the catalogue entry `help`, as a whole condition (selectors wrapped in a comparison). */
function expressionFor(help) {
  const node = { Type: help.Expression };
  const operand = (kind) => (kind === 'Expression' ? { Type: 'HasVideoFiles' } : { Type: SELECTOR_OF[kind] });
  if (help.Left) node.Left = operand(help.Left);
  // Comparisons take Right or Parameter; logic (And, Or, Xor, Equals) takes Right.
  if (help.Right && (!help.Parameter || help.Right === 'Expression'))
    node.Right = help.Right === 'Expression' ? { Type: 'IsFinished' } : operand(help.Right);
  if (help.Parameter && !(help.Right === 'Expression')) {
    const pair = help.PossibleParameterPairs?.[0];
    // IDs (tags, custom tags, characters, creators) are numbers; the generator's tags start at 1000.
    const id = /ByID$|^HasCharacter|^HasCreator/.test(help.Expression) ? '1000' : undefined;
    node.Parameter =
      pair?.[0] ?? help.PossibleParameters?.[0] ?? id ?? (/Regex/.test(help.Expression) ? '^ka' : PARAMETER_OF[help.Parameter]);
    if (help.Expression === 'InSeason') node.Parameter = '2010';
    if (help.SecondParameter) node.SecondParameter = pair?.[1] ?? help.PossibleSecondParameters?.[0] ?? PARAMETER_OF[help.SecondParameter];
  }
  if (help.Type === 'Expression') return node;
  const compare = COMPARE_OF[help.Type];
  return compare ? { Type: compare.Type, Left: node, Parameter: compare.Parameter } : null;
}

async function benchDatabase(label, home, databaseUrl) {
  await ensureCollection(home, databaseUrl, size);
  if (PREPARE_ONLY) return [];
  const server = await startServer(home, databaseUrl, { SHOKO_READ_CACHE: 'off' });
  const results = [];
  try {
    await server.waitStarted();
    // The server prepares its search index in the background once started (2 s of quiet, then about 1 s of CPU at 400k
    // files); the measurement starts after it, so it times the pages rather than that one-off build beside them.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const { apikey } = await server.call('POST', '/api/auth', { user: 'bench', pass: 'bench', device: 'bench' });
    const post = (url, body) => server.call('POST', `/api/v3/${url}`, body, apikey);

    const { endpoints, groupIds, expressions, sortings, pick } = await firstVisitEndpoints(server.call, apikey);
    for (const [name, request] of Object.entries(endpoints)) {
      if (ONLY.length && !ONLY.some((part) => name.includes(part))) continue;
      const result = await time(request, RUNS);
      results.push({ kind: 'endpoint', name, ...result });
      console.log(`  ${label} ${name}: ${result.error ?? `p50 ${result.p50} / p95 ${result.p95} ms`}`);
    }

    // The catalogue: each expression and each sort criterion on the collection (groups), group and series pages.
    const pages = (filter) => ({
      collection: (i) => post(`Filter/Preview/Group?pageSize=50&page=${1 + (i % 3)}`, filter),
      group: (i) => post(`Filter/Preview/Group/${pick(groupIds, i)}/Series?includeDataFrom=AniDB`, filter),
      series: (i) => post(`Filter/Preview/Series?pageSize=50&page=${1 + (i % 3)}`, { ...filter, ApplyAtSeriesLevel: true }),
    });
    const walk = !CATALOGUE_RUNS
      ? []
      : [
          ...expressions
            .map((help) => ({ name: `expression ${help.Expression}`, expression: expressionFor(help) }))
            .filter((e) => e.expression)
            .map((e) => ({ name: e.name, filter: { Expression: e.expression } })),
          ...sortings.map((s) => ({ name: `sort ${s.Type}`, filter: { Sorting: { Type: s.Type, IsInverted: false } } })),
        ];
    let walked = 0;
    for (const entry of walk) {
      for (const [page, request] of Object.entries(pages(entry.filter))) {
        const result = await time(request, CATALOGUE_RUNS);
        results.push({ kind: 'catalogue', name: `${entry.name} (${page} page)`, ...result });
      }
      if (++walked % 20 === 0) console.log(`  ${label} catalogue: ${walked}/${walk.length}`);
    }
  } finally {
    await server.stop();
  }
  return results;
}

async function main() {
  for (const built of ['main.js', 'tools/gen-collection.js'])
    if (!fs.existsSync(path.join(root, 'server', 'dist', built))) throw new Error('Build the server first (npm run build)');
  const loadBefore = loadAverage();
  const byDb = {};
  for (const db of DBS) {
    if (db === 'sqlite') byDb.SQLite = await benchDatabase('SQLite', path.join(DATA_DIR, `sqlite-${size.files}`), null);
    else if (db === 'postgres') {
      let cluster = null;
      let url = process.env.BENCH_PG_URL;
      if (!url) {
        const { startPostgres } = await import(path.join(root, 'scripts', 'pg-cluster.mjs'));
        cluster = await startPostgres();
        url = cluster.url;
      }
      const target = new URL(url);
      target.pathname = `/${process.env.BENCH_PG_DATABASE ?? `shoko_bench_${size.files}`}`;
      // A throwaway cluster forgets the collection: its home (settings, marker) must go with it.
      const home = path.join(DATA_DIR, cluster ? `pg-throwaway-${size.files}` : `pg-${target.port}-${size.files}`);
      if (cluster) fs.rmSync(home, { recursive: true, force: true });
      try {
        byDb.PostgreSQL = await benchDatabase('PostgreSQL', home, target.toString());
      } finally {
        cluster?.stop();
      }
    } else throw new Error(`unknown database ${db}`);
  }
  const loadAfter = loadAverage();
  if (!PREPARE_ONLY) report(byDb, loadBefore, loadAfter);
}

function report(byDb, loadBefore, loadAfter) {
  const cell = (r) => (r ? (r.error ? 'error' : `${r.p50} / ${r.p95}`) : '–');
  const dbs = Object.keys(byDb);
  const names = [...new Set(Object.values(byDb).flatMap((rows) => rows.filter((r) => r.kind === 'endpoint').map((r) => r.name)))];
  const find = (db, name) => byDb[db].find((r) => r.name === name);
  const lines = [
    `First visits with the response cache off (SHOKO_READ_CACHE=off), ${size.series.toLocaleString('en')} series / ${size.files.toLocaleString('en')} files (generated: \`npm run gen:collection\`), request round trip on loopback in ms, p50 / p95 of ${RUNS} requests per endpoint (pages and search words vary) and ${CATALOGUE_RUNS} per catalogue entry and page, from ${SETTLE_MS / 1000} s after the server reported Started. Budget p95 < ${BUDGET_MS} ms. Reproduce this size with \`BENCH_FIRST_VISIT_SIZE=${sizeName} npm run bench -- first-visit\`. Load average (1/5/15 min) ${loadBefore} at the start, ${loadAfter} at the end: the 2 cores were shared.`,
    '',
    `| endpoint | ${dbs.join(' | ')} |`,
    `|---|${dbs.map(() => '---').join('|')}|`,
    ...names.map((name) => `| ${name} | ${dbs.map((db) => cell(find(db, name))).join(' | ')} |`),
    '',
  ];
  for (const db of dbs) {
    const rows = byDb[db];
    const ok = rows.filter((r) => !r.error);
    const over = ok.filter((r) => r.p95 >= BUDGET_MS);
    const catalogue = rows.filter((r) => r.kind === 'catalogue');
    const slowest = [...ok].sort((a, b) => b.p95 - a.p95).slice(0, 10);
    lines.push(
      `**${db}**: ${ok.length - over.length} of ${ok.length} request kinds within budget (${catalogue.length} of them from the filter catalogue); ${rows.length - ok.length} answered an error.`,
      '',
      `Slowest ten (p95, ms): ${slowest.map((r) => `${r.name} ${r.p95}`).join('; ')}.`,
      '',
    );
    const failed = rows.filter((r) => r.error);
    if (failed.length) lines.push(`Errors: ${failed.map((r) => `${r.name}: ${r.error}`).join('; ')}.`, '');
  }
  for (const db of dbs) {
    console.log(`\nslowest ten on ${db} (p95 ms):`);
    console.table(
      [...byDb[db]]
        .filter((r) => !r.error)
        .sort((a, b) => b.p95 - a.p95)
        .slice(0, 10)
        .map((r) => ({ name: r.name, p50: r.p50, p95: r.p95, first: r.first })),
    );
  }
  const dir = path.join(root, 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `first-visit-${sizeName}.json`), JSON.stringify({ size, loadBefore, loadAfter, byDb }, null, 2));
  fs.writeFileSync(path.join(dir, `first-visit-${sizeName}.md`), lines.join('\n'));
  console.log(lines.join('\n'));
}

await main();
