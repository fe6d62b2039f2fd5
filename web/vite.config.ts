import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rollup } from 'vite';
import { mdiIconModules } from './vite-plugins/mdiIconModules';
import { routePreloads } from './vite-plugins/routePreloads';

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

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
/** What is worth compressing: text and WebAssembly (images and fonts are compressed already). */
const COMPRESSIBLE = /\.(js|mjs|css|wasm|svg|json|map)$/;

/**
 * Writes `<asset>.br` and `<asset>.gz` beside each built asset, which the server sends to a browser that accepts the
 * encoding (@fastify/static's preCompressed): the console's scripts travel at a quarter of their size without the
 * server compressing on every request. A variant that saves less than a tenth is left out (the server then sends the
 * file as it is). Files over a megabyte get a lower Brotli quality, which keeps the build's time reasonable.
 */
function precompressedAssets(): Plugin {
  return {
    name: 'shoko-precompressed-assets',
    apply: 'build',
    async writeBundle(options, bundle) {
      const outDir = options.dir!;
      const files = Object.keys(bundle).filter((name) => name.startsWith('assets/') && COMPRESSIBLE.test(name));
      await Promise.all(
        files.map(async (name) => {
          const file = path.join(outDir, name);
          const source = await fs.promises.readFile(file);
          if (source.length < 1024) return;
          const quality = source.length > 1024 * 1024 ? 9 : 11;
          const variants: Array<[string, Buffer]> = [
            ['.br', await brotli(source, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality } })],
            ['.gz', await gzip(source, { level: 9 })],
          ];
          for (const [ext, compressed] of variants) {
            if (compressed.length < source.length * 0.9) await fs.promises.writeFile(file + ext, compressed);
          }
        }),
      );
    },
  };
}

/** The console's part a lazily loaded module belongs to, by its path: a page area, the layout, or a shared folder. */
function areaOf(id: string): string {
  const page = /[\\/]web[\\/]src[\\/](pages[\\/]collection[\\/]series|pages[\\/][^\\/.]+|app[\\/]layout)[\\/.]/.exec(id);
  return page ? page[1]!.replace(/\\/g, '/').replace(/^pages\//, '') : 'other';
}

/**
 * Which chunk a module goes to, so that a page loads its own code and a few shared chunks, never another page's
 * (Rollup's merging of small chunks put the Backups and Ignored Files pages into the series page's chunks):
 * - what the entry reaches goes to the entry's chunk (`app`; named, because Rollup puts the unnamed dependencies of
 *   a named chunk into it, which would carry the entry's libraries into the layout's);
 * - what a single lazily loaded page reaches stays in that page's chunk;
 * - what several pages share goes to `common` if the login page uses it (a few form parts: what the login needs
 *   before anything else), to `layout` if the signed-in layout does (every signed-in page loads it anyway), to
 *   `<area>-shared` if the pages of one area share it (the settings, the utilities, the series tabs), else to `shared`.
 */
/**
 * Code loaded on demand beside a page rather than with the entry, by the module the console imports dynamically: each
 * gets a chunk of its own with what it reaches that the entry does not (by the rules below it would join `shared`, which
 * several pages load).
 */
const ON_DEMAND: Array<[RegExp, string]> = [
  // The live feed's SignalR client: started at start-up beside the page's scripts (realtime/aggregateFeed.ts).
  [/[\\/]web[\\/]src[\\/]realtime[\\/]connection\.ts$/, 'signalr'],
  // JSON patches of the server settings: when saving them (api/settings.ts) and on the settings pages.
  [/[\\/]node_modules[\\/]fast-json-patch[\\/]/, 'json-patch'],
  // Toasts: their container is drawn lazily at start-up (app/Toasts.tsx); pages that raise toasts import it too.
  [/[\\/]node_modules[\\/]react-toastify[\\/]/, 'toastify'],
];

/**
 * Libraries that get a chunk of their own, whoever uses them: Headless UI (with its floating anchors, React Aria's focus
 * helpers and the virtualizer its Combobox brings) is loaded only when a dialog or menu opens (components/Modal.tsx,
 * app/layout/UtilitiesMenu.tsx) or on the player page, and the virtualizer only by the pages with long lists; by the
 * rules below both would join `layout` or `shared`, which every signed-in page loads before its content.
 */
const VIRTUALIZER = /[\\/]node_modules[\\/]@tanstack[\\/](react-virtual|virtual-core)[\\/]/;
const LIBRARY_CHUNKS: Array<[RegExp, string]> = [
  [
    /[\\/]node_modules[\\/](@headlessui|@floating-ui|react-aria|@react-aria|react-stately|@react-stately|use-sync-external-store)[\\/]/,
    'headlessui',
  ],
  [VIRTUALIZER, 'virtual'],
];

function chunkFor(): Rollup.GetManualChunk {
  const roots = new Map<string, Set<string>>();
  /** The entry (`entry`) and the lazily loaded modules whose static imports reach `id`. */
  const rootsOf = (id: string, meta: Rollup.ManualChunkMeta): Set<string> => {
    let found = roots.get(id);
    if (found) return found;
    found = new Set();
    const seen = new Set([id]);
    for (const current of seen) {
      const info = meta.getModuleInfo(current);
      if (!info) continue;
      if (info.isEntry) found.add('entry');
      if (info.dynamicImporters.length) found.add(current);
      for (const importer of info.importers) seen.add(importer);
    }
    roots.set(id, found);
    return found;
  };
  return (id, meta) => {
    const users = rootsOf(id, meta);
    if (users.has('entry')) return 'app';
    for (const [library, name] of LIBRARY_CHUNKS) if (library.test(id)) return name;
    for (const [root, name] of ON_DEMAND) if ([...users].some((user) => root.test(user))) return name;
    if (users.size < 2) return undefined;
    const areas = new Set([...users].map(areaOf));
    if (areas.has('login')) return 'common';
    if (areas.has('app/layout')) return 'layout';
    return areas.size === 1 ? `${[...areas][0]!.replace(/\//g, '-')}-shared` : 'shared';
  };
}

/**
 * Moves the theme stylesheet's link after the console's own stylesheet, so an uploaded theme wins where both set a
 * colour without the page moving the link at start-up (a moved link is fetched again: one request more in the first
 * wave of every page).
 */
function themeStylesheetLast(): Plugin {
  return {
    name: 'shoko-theme-stylesheet-last',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const link = /\n\s*<link id="theme-css"[^>]*>/.exec(html);
        return link ? html.replace(link[0], '').replace('</head>', `${link[0].trim()}\n  </head>`) : html;
      },
    },
  };
}

export default defineConfig(({ command, mode }) => ({
  // Built assets are addressed relative to index.html's <base>, which the server sets per base path (SHOKO_BASE_PATH).
  base: command === 'build' ? './' : '/webui/',
  plugins: [react(), tailwindcss(), mdiIconModules(), routePreloads(), themeStylesheetLast(), versionFile(mode), precompressedAssets()],
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
    // dist/.vite/manifest.json: which chunks each page loads, for bundle-budget.test.ts (the server does not serve it).
    manifest: true,
    rollupOptions: {
      output: { manualChunks: chunkFor() },
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
