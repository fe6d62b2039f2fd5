// `npm run build -w server`, after tsc: bundles the server so a start reads and compiles one file instead of ~300
// modules (on Node 20 that loading was most of the cold start). tsc's per-module output stays in dist/ for the tools
// (dist/tools/*), the benches and the browser tests that import single modules; only dist/main.js is replaced:
//   dist/server.cjs   src/main.ts and everything it imports, one CommonJS file
//   dist/main.js      src/launch.ts: runs server.cjs through V8's code cache (see there)
//   dist/hash-worker.js, dist/mediainfo-worker.js, dist/media-blob-worker.js   the worker threads, bundled beside it: a worker is started from
//                     `new URL('./<name>.js', import.meta.url)`, which in the bundle is dist/, in tsc's output its folder
// esbuild comes with the workspace's tooling (vite and tsx depend on it).
// `node build.mjs --outdir <dir>` writes the bundles elsewhere (server/src/test/bundle.test.ts checks them there).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const { outdir } = parseArgs({ options: { outdir: { type: 'string', default: path.join(here, 'dist') } } }).values;

const common = {
  absWorkingDir: here,
  outdir,
  // The contract from its sources, as vitest sees it: the bundle does not depend on the contract's own build.
  alias: { '@shoko-ts/contract': path.join(here, '..', 'packages', 'contract', 'src', 'index.ts') },
  bundle: true,
  platform: 'node',
  target: 'node20',
  // Kept as packages: native addons (better-sqlite3, pg's optional pg-native) and packages that read files next to
  // their own modules (swagger-ui's static assets, mediainfo.js's WebAssembly).
  external: ['better-sqlite3', 'pg-native', '@fastify/swagger-ui', 'mediainfo.js'],
  legalComments: 'none',
  logLevel: 'warning',
};

await Promise.all([
  build({
    ...common,
    entryPoints: [{ in: 'src/main.ts', out: 'server' }],
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    // Our modules find files beside themselves through import.meta.url: in the bundle that is the bundle's own file.
    define: { 'import.meta.url': '__shokoModuleUrl' },
    banner: { js: 'var __shokoModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
    sourcemap: 'linked',
  }),
  build({
    ...common,
    entryPoints: [
      { in: 'src/launch.ts', out: 'main' },
      { in: 'src/media/hashing/hash-worker.ts', out: 'hash-worker' },
      { in: 'src/media/mediainfo/mediainfo-worker.ts', out: 'mediainfo-worker' },
      { in: 'src/domains/shoko-import/media-blob-worker.ts', out: 'media-blob-worker' },
    ],
    format: 'esm',
    // CommonJS packages inside an ES module bundle still call require() for Node's built-ins.
    banner: {
      js: "import { createRequire as __shokoCreateRequire } from 'node:module'; const require = __shokoCreateRequire(import.meta.url);",
    },
    sourcemap: 'linked',
  }),
]);

// Code caches of earlier builds can never match again (their names carry the bundle's size and time).
for (const name of fs.readdirSync(outdir)) if (name.endsWith('.v8cache')) fs.rmSync(path.join(outdir, name), { force: true });
