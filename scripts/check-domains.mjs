// Domain boundaries of the server (issue 47): each folder of server/src/domains/ is a module with a public face.
//
// Rules, over every .ts file of server/src (imports, re-exports, `import type` and dynamic `import()` all count):
//   1. Public face. A file outside domains/B — another domain, the composition root above the domains (services.ts,
//      app.ts, main.ts), tools, db or http tests — imports domains/B only through domains/B/index.ts, never its store,
//      service file, routes or other internals. The composition root may also import a domain's <domain>.wiring.ts
//      directly (the function that builds the domain's parts).
//      Tests: a test file (*.test.ts) may reach the internals of its own domain, like any file of it; of another domain
//      it may import the index.ts and the seeding helpers the domain keeps for tests (test-support.ts, synthetic*.ts),
//      nothing else. The harnesses under src/test/ and src/conformance/ seed and drive whole servers and are exempt.
//   2. No store through the face. A store class a domain's index.ts hands on (a `…Store` from one of its *.store.ts
//      files) is for the wiring only: a file of another domain that takes it reaches into the other domain's queries,
//      which only that domain's services should run. The composition root and the domains' <domain>.wiring.ts, which
//      build the stores, may take them. (Row types and pure helpers of a store file are not queries and may be used.)
//   3. No cycle. The domain graph has an edge A → B when a non-test file of domains/A imports domains/B (any file of
//      it); that graph must have no cycle. Each cycle is printed with the imports that make its edges.
// Known violations the check still tolerates are listed in BASELINE below, each with its reason; the list may only
// shrink: an entry that no longer happens fails the check too, so that it is removed.
//   node scripts/check-domains.mjs        exits 1 on any violation not in the baseline or any stale baseline entry
//   node scripts/check-domains.mjs --graph  prints the domain graph as well
//   node scripts/check-domains.mjs --print-baseline  prints every current violation as a baseline entry
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { root } from './lib.mjs';

const src = path.join(root, 'server', 'src');
const domainsDir = path.join(src, 'domains');
const showGraph = process.argv.includes('--graph');
const printBaseline = process.argv.includes('--print-baseline');

// Tolerated violations: `importer -> imported` (paths relative to server/src), or `cycle: a -> b -> … -> a`.
// None is left: every domain is reached through its index.ts, no other domain takes a store class, and the domain graph
// has no cycle.
const BASELINE = [];

const rel = (file) => path.relative(src, file).split(path.sep).join('/');

function listTs(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listTs(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

function resolveImport(from, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base.replace(/\.js$/, '.ts'), base, `${base}.ts`, path.join(base, 'index.ts')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function domainOf(relPath) {
  const match = /^domains\/([^/]+)\//.exec(relPath);
  return match ? match[1] : null;
}

const isTest = (relPath) => /\.test\.ts$/.test(relPath) || /^(test|conformance)\//.test(relPath);
const isSeedingTool = (relPath) => /^(test|conformance)\//.test(relPath);
const isCompositionRoot = (relPath) => ['services.ts', 'app.ts', 'main.ts'].includes(relPath);
const isWiring = (relPath) => /^domains\/([^/]+)\/\1\.wiring\.ts$/.test(relPath);
const isTestFace = (relPath) => /^domains\/[^/]+\/(test-support|synthetic[^/]*)\.ts$/.test(relPath);

// Per domain, the names its index.ts hands on from a *.store.ts file.
const storeNames = new Map();
for (const entry of fs.readdirSync(domainsDir, { withFileTypes: true })) {
  const index = path.join(domainsDir, entry.name, 'index.ts');
  if (!entry.isDirectory() || !fs.existsSync(index)) continue;
  const names = new Set();
  for (const match of fs.readFileSync(index, 'utf8').matchAll(/export\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'([^']+\.store\.js)'/g)) {
    for (const name of namesOf(match[1]).filter((n) => /Store$/.test(n))) names.add(name);
  }
  storeNames.set(entry.name, names);
}

// The names an import or re-export clause takes (`a`, `type b`, `c as d` → a, b, c).
function namesOf(clause) {
  return clause
    .split(',')
    .map((part) =>
      part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0]
        .trim(),
    )
    .filter(Boolean);
}

const violations = []; // { key, text }
const edges = new Map(); // 'A' -> Map('B' -> [import text])

for (const file of listTs(src)) {
  const from = rel(file);
  const fromDomain = domainOf(from);
  const text = fs.readFileSync(file, 'utf8');
  const { importedFiles } = ts.preProcessFile(text, true, true);
  if (fromDomain && !isTest(from) && !isWiring(from)) {
    for (const match of text.matchAll(/(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g)) {
      const target = resolveImport(file, match[2]);
      const toDomain = target && domainOf(rel(target));
      if (!toDomain || toDomain === fromDomain || rel(target) !== `domains/${toDomain}/index.ts`) continue;
      for (const name of namesOf(match[1]).filter((n) => storeNames.get(toDomain)?.has(n))) {
        violations.push({
          key: `store: ${from} -> ${toDomain}.${name}`,
          text: `${from} takes the ${toDomain} domain's ${name} from its index.ts: ask the ${toDomain} domain's service instead`,
        });
      }
    }
  }
  for (const { fileName } of importedFiles) {
    const target = resolveImport(file, fileName);
    if (!target) continue;
    const to = rel(target);
    const toDomain = domainOf(to);
    if (!toDomain || toDomain === fromDomain) continue;
    const allowed =
      to === `domains/${toDomain}/index.ts` ||
      isSeedingTool(from) ||
      (isTest(from) && isTestFace(to)) ||
      (isCompositionRoot(from) && isWiring(to));
    if (!allowed) {
      violations.push({ key: `${from} -> ${to}`, text: `${from} imports ${to}: go through domains/${toDomain}/index.ts` });
    }
    if (fromDomain && !isTest(from)) {
      if (!edges.has(fromDomain)) edges.set(fromDomain, new Map());
      const targets = edges.get(fromDomain);
      if (!targets.has(toDomain)) targets.set(toDomain, []);
      targets.get(toDomain).push(`${from} -> ${to}`);
    }
  }
}

// Cycles: the strongly connected components of more than one domain (Tarjan), each shown as one closed walk.
function components(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const result = [];
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) result.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return result;
}

// The shortest cycle through `start` inside its component (breadth-first), to name one concrete circle.
function cycleThrough(start, members) {
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of [...(edges.get(v)?.keys() ?? [])].sort()) {
      if (!members.has(w)) continue;
      if (w === start) {
        const walk = [v];
        for (let p = previous.get(v); p !== null; p = previous.get(p)) walk.unshift(p);
        return [...walk, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
}

const cycles = [];
for (const component of components(edges)) {
  const members = new Set(component);
  const seen = new Set();
  for (const domain of component) {
    const walk = cycleThrough(domain, members);
    const key = `cycle: ${walk.join(' -> ')}`;
    const canonical = [...walk.slice(0, -1)].sort().join(',') + '|' + walk.length;
    if (walk.length < 3 || seen.has(canonical)) continue;
    seen.add(canonical);
    const lines = [];
    for (let i = 0; i + 1 < walk.length; i++) {
      const imports = edges.get(walk[i]).get(walk[i + 1]);
      lines.push(
        `    ${walk[i]} -> ${walk[i + 1]}: ${imports.slice(0, 3).join('; ')}${imports.length > 3 ? ` (+${imports.length - 3} more)` : ''}`,
      );
    }
    cycles.push({ key, text: `cycle ${walk.join(' → ')} (component: ${component.join(', ')})\n${lines.join('\n')}` });
  }
}

if (showGraph) {
  console.log('Domain graph (non-test imports):');
  for (const [from, targets] of [...edges].sort()) console.log(`  ${from} → ${[...targets.keys()].sort().join(', ')}`);
}

if (printBaseline) {
  for (const key of [...new Set([...violations, ...cycles].map((v) => v.key))].sort()) console.log(`  '${key}',`);
}

const tolerated = new Set(BASELINE);
const found = [...violations, ...cycles];
const foundKeys = new Set(found.map((v) => v.key));
const fresh = found.filter((v) => !tolerated.has(v.key));
const stale = BASELINE.filter((key) => !foundKeys.has(key));

const byKey = new Map(fresh.map((v) => [v.key, v]));
if (byKey.size) {
  console.log('Domain boundaries broken (scripts/check-domains.mjs):');
  for (const v of byKey.values()) console.log(`  ${v.text}`);
}
if (stale.length) {
  console.log('Baseline entries of scripts/check-domains.mjs that no longer happen (remove them):');
  for (const key of stale) console.log(`  ${key}`);
}
const ok = byKey.size === 0 && stale.length === 0;
console.log(
  `${ok ? '✔' : '✖'} domains: ${new Set(violations.map((v) => v.key)).size} import(s) past a public face or into a store, ${cycles.length} cycle(s); ` +
    `${BASELINE.length} tolerated in the baseline, ${byKey.size} new, ${stale.length} stale`,
);
process.exit(ok ? 0 : 1);
