// `npm run build -w server`, after tsc: bundles the entry point into one file, so a start reads and compiles one module
// instead of ~300 (on Node 20 that loading was most of the cold start). tsc's per-module output stays in dist/ for the
// tools (dist/tools/*), the benches and the browser tests that import single modules; only dist/main.js is replaced.
// The worker threads get bundles of their own next to it (dist/hash-worker.js, dist/mediainfo-worker.js): a worker is
// started from `new URL('./<name>.js', import.meta.url)`, which in the bundle is dist/, in tsc's output its own folder.
// esbuild comes with the workspace's tooling (vite and tsx depend on it).
// `node build.mjs --outdir <dir>` writes the bundles elsewhere (server/src/test/bundle.test.ts checks them there).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const { outdir } = parseArgs({ options: { outdir: { type: 'string', default: path.join(here, 'dist') } } }).values;

await build({
  absWorkingDir: here,
  entryPoints: [
    { in: 'src/main.ts', out: 'main' },
    { in: 'src/media/hashing/hash-worker.ts', out: 'hash-worker' },
    { in: 'src/media/mediainfo/mediainfo-worker.ts', out: 'mediainfo-worker' },
  ],
  outdir,
  // The contract from its sources, as vitest sees it: the bundle does not depend on the contract's own build.
  alias: { '@shoko-ts/contract': path.join(here, '..', 'packages', 'contract', 'src', 'index.ts') },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Kept as packages: native addons (better-sqlite3, pg's optional pg-native) and packages that read files next to
  // their own modules (swagger-ui's static assets, mediainfo.js's WebAssembly).
  external: ['better-sqlite3', 'pg-native', '@fastify/swagger-ui', 'mediainfo.js'],
  // CommonJS packages inside an ES module bundle still call require() for Node's built-ins.
  banner: {
    js: "import { createRequire as __shokoCreateRequire } from 'node:module'; const require = __shokoCreateRequire(import.meta.url);",
  },
  legalComments: 'none',
  sourcemap: 'linked',
  logLevel: 'warning',
});
