import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const webDir = path.dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(fs.readFileSync(path.join(webDir, 'package.json'), 'utf8')) as { version: string };
const apiPort = process.env.SHOKO_PORT ?? '8111';
const apiTarget = `http://localhost:${apiPort}`;

function gitCommit(): string {
  if (process.env.SHOKO_COMMIT) return process.env.SHOKO_COMMIT;
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: webDir, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return '';
  }
}

/** Writes dist/version.json: the server reads it to answer Init/Version.WebUI. */
function versionFile(mode: string): Plugin {
  return {
    name: 'shoko-version-json',
    apply: 'build',
    generateBundle() {
      const info = {
        package: pkg.version,
        minimumServerVersion: '5.3.3.0',
        tag: `v${pkg.version}`,
        git: gitCommit(),
        date: new Date().toISOString(),
        channel: 'Stable',
        debug: mode !== 'production',
      };
      this.emitFile({ type: 'asset', fileName: 'version.json', source: `${JSON.stringify(info, null, 2)}\n` });
    },
  };
}

export default defineConfig(({ command, mode }) => ({
  // Built assets are addressed relative to index.html's <base>, which the server sets per base path (SHOKO_BASE_PATH).
  base: command === 'build' ? './' : '/webui/',
  plugins: [react(), tailwindcss(), versionFile(mode)],
  define: {
    __WEBUI_VERSION__: JSON.stringify(pkg.version),
  },
  resolve: {
    alias: {
      // The contract's TypeScript sources, so the console builds without a prebuilt contract package.
      '@shoko-ts/contract': path.resolve(webDir, '../packages/contract/src/index.ts'),
      '@': path.resolve(webDir, 'src'),
      // JASSUB's polyfill of requestVideoFrameCallback (GPL-3.0) is left out: every browser the console supports has it.
      'rvfc-polyfill': path.resolve(webDir, 'src/components/player/no-polyfill.ts'),
    },
  },
  // JASSUB starts its worker and finds its WebAssembly with `new URL(…, import.meta.url)`, which only works unbundled.
  optimizeDeps: { exclude: ['jassub'] },
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 800,
    rollupOptions: {
      // A page opened cold waits on every chunk it needs, each one more request to the server: small shared chunks
      // are merged into the chunks that use them (a few kB loaded twice costs less than a round trip).
      output: { experimentalMinChunkSize: 20_000 },
      // The contract's TypeBox schemas are built by calls at module level; the console reads only its constants, so
      // a schema nothing uses is dropped instead of loading about 100 kB of schemas and TypeBox on every page. The other
      // names are the contract's own schema helpers. One impure-looking statement (an object spread, a `.map` at module
      // level) keeps every schema it names and TypeBox with them: bundle-budget.test.ts checks that none is left.
      treeshake: { manualPureFunctions: ['Type', 'StringEnum', 'Nullable', 'counts', 'paged', 'pageQuery', 'Optional'] },
    },
  },
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/plex': { target: apiTarget, changeOrigin: true },
      '/signalr': { target: apiTarget, changeOrigin: true, ws: true },
    },
  },
}));
