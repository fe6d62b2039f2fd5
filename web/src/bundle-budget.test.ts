/// <reference types="node" />
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

// WEB_DIST: a build elsewhere (vite build --outDir), e.g. one a benchmark is using.
const dist = process.env.WEB_DIST ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
/**
 * The entry was 170 kB gzip with SignalR, react-toastify, JSON patches, @mdi/react and every icon of every page in it;
 * 130 kB without them.
 */
const BUDGET_BYTES = 140 * 1024;
/** Icons the entry's own modules may draw (the start-up shell draws none today: its pages bring their own). */
const ENTRY_ICONS_AT_MOST = 4;

/** The scripts the browser must load before the console can paint: the entry and what it preloads. */
function initialScripts(html: string): string[] {
  const refs = [
    ...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g),
  ].map((m) => m[1]);
  return [...new Set(refs)].map((ref) => path.join(dist, ref.replace(/^(\/webui\/|\.\/)/, '')));
}

interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isDynamicEntry?: boolean;
  imports?: string[];
}

/** The build's manifest (build.manifest): each module a page is loaded by, and the chunks each chunk imports. */
function readManifest(): Record<string, ManifestChunk> {
  return JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
}

/** The chunks a page loads: the entry's and each route module's, with everything they import statically. */
function chunksOfPage(manifest: Record<string, ManifestChunk>, routeModules: string[]): ManifestChunk[] {
  const chunks = new Map<string, ManifestChunk>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} has no chunk of its own in the build's manifest (merged into another?)`);
    if (chunks.has(chunk.file)) return;
    chunks.set(chunk.file, chunk);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of ['index.html', ...routeModules]) visit(key);
  return [...chunks.values()];
}

/** The chunk of the live feed's SignalR client, which signed-in pages load once drawn (and the login page ahead). */
const signalrChunk = (manifest: Record<string, ManifestChunk>) => manifest['src/realtime/connection.ts']!.file;

/** A chunk that is a page's (a lazily loaded page, tab, step or layout, by the name Vite gives it after its module). */
const isPageChunk = (chunk: ManifestChunk) => !!chunk.isDynamicEntry && /(Page|Tab|Step|Layout)$/.test(chunk.name ?? '');

const SIGNED_IN = 'src/app/layout/MainLayout.tsx';
const SERIES = [SIGNED_IN, 'src/pages/collection/series/SeriesOutlet.tsx'];
/** The modules the router loads for a page (the layout and the page, the series pages also their outlet). */
const PAGES: Record<string, string[]> = {
  login: ['src/pages/login/LoginPage.tsx'],
  dashboard: [SIGNED_IN, 'src/pages/dashboard/DashboardPage.tsx'],
  collection: [SIGNED_IN, 'src/pages/collection/CollectionPage.tsx'],
  'series overview': [...SERIES, 'src/pages/collection/series/OverviewTab.tsx'],
  'series episodes': [...SERIES, 'src/pages/collection/series/EpisodesTab.tsx'],
  'file search': [SIGNED_IN, 'src/pages/utilities/file-search/FileSearchPage.tsx'],
  'release management': [SIGNED_IN, 'src/pages/utilities/release-management/ReleaseManagementPage.tsx'],
  'unrecognized files': [SIGNED_IN, 'src/pages/utilities/unrecognized/UnrecognizedFilesPage.tsx'],
  settings: [SIGNED_IN, 'src/pages/settings/SettingsLayout.tsx', 'src/pages/settings/GeneralSettingsPage.tsx'],
};

// `npm test` builds the console before running this; a bare `vitest` run without a build has nothing to measure.
describe.skipIf(!fs.existsSync(path.join(dist, 'index.html')))('console bundle budget', () => {
  it('keeps the initial JavaScript under 140 kB gzip (heavy pages load lazily)', () => {
    const scripts = initialScripts(fs.readFileSync(path.join(dist, 'index.html'), 'utf8'));
    expect(scripts.length).toBeGreaterThan(0);
    const gzipped = scripts.reduce((total, file) => total + gzipSync(fs.readFileSync(file), { level: 9 }).length, 0);
    expect(gzipped, `initial JavaScript is ${(gzipped / 1024).toFixed(1)} kB gzip`).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it('leaves the icons of the pages, SignalR and the JSON patches out of the initial scripts', () => {
    const scripts = initialScripts(fs.readFileSync(path.join(dist, 'index.html'), 'utf8'));
    const code = scripts.map((file) => fs.readFileSync(file, 'utf8')).join('\n');
    // Every icon's SVG path, from @mdi/js itself: any of them in the initial scripts is an icon drawn by the entry's code.
    const mdi = fs.readFileSync(createRequire(import.meta.url).resolve('@mdi/js/mdi.js'), 'utf8');
    const iconPaths = new Set([...mdi.matchAll(/^export var mdi\w+ = "([^"]+)";$/gm)].map((m) => m[1]));
    expect(iconPaths.size).toBeGreaterThan(5000);
    const icons = new Set([...code.matchAll(/"(M[^"]{8,})"/g)].map((m) => m[1]).filter((svgPath) => iconPaths.has(svgPath)));
    expect(icons.size, `${icons.size} icons in the initial scripts`).toBeLessThanOrEqual(ENTRY_ICONS_AT_MOST);
    // SignalR's user agent and fast-json-patch's error names: loaded beside the page (realtime/aggregateFeed.ts) or when
    // settings are saved, in chunks of their own.
    expect(code.includes('Microsoft SignalR/'), 'SignalR in the initial scripts').toBe(false);
    expect(code.includes('OPERATION_PATH_UNRESOLVABLE'), 'fast-json-patch in the initial scripts').toBe(false);
    const assets = fs.readdirSync(path.join(dist, 'assets')).filter((name) => name.endsWith('.js'));
    const holding = (text: string) => assets.filter((name) => fs.readFileSync(path.join(dist, 'assets', name), 'utf8').includes(text));
    expect(holding('Microsoft SignalR/').map((name) => name.replace(/-[\w-]{8}\.js$/, ''))).toEqual(['signalr']);
    expect(holding('OPERATION_PATH_UNRESOLVABLE').map((name) => name.replace(/-[\w-]{8}\.js$/, ''))).toEqual(['json-patch']);
  });

  it("preloads the opened page's chunks beside the entry (route-preloads script, run before the entry)", () => {
    const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
    const src = /<script src="\.\/(assets\/route-preloads-[\w-]+\.js)"><\/script>/.exec(html)?.[1];
    expect(src, 'index.html loads the route-preloads script').toBeDefined();
    const script = fs.readFileSync(path.join(dist, src!), 'utf8');
    const routes = JSON.parse(/var routes = (\[.*\]);/.exec(script)![1]!) as Array<[string, string[]]>;
    const preloadsOf = (consolePath: string) => routes.find(([pattern]) => new RegExp(pattern).test(consolePath))?.[1] ?? [];
    const manifest = readManifest();
    const initial = new Set(initialScripts(html).map((file) => path.relative(dist, file)));
    for (const [consolePath, modules] of [
      ['/dashboard', PAGES.dashboard!],
      ['/collection', PAGES.collection!],
      ['/collection/series/12/overview', PAGES['series overview']!],
      ['/utilities/file-search', PAGES['file search']!],
      ['/settings/general', PAGES.settings!],
      ['/login', PAGES.login!],
    ] as const) {
      const wanted = chunksOfPage(manifest, [...modules])
        .map((chunk) => chunk.file)
        .filter((file) => !initial.has(file));
      // The live feed's client only ahead of a login: a signed-in page loads it once drawn.
      const feed = consolePath === '/login' ? [signalrChunk(manifest)] : [];
      expect(new Set(preloadsOf(consolePath)), consolePath).toEqual(new Set([...wanted, ...feed]));
    }
    for (const [, files] of routes) for (const file of files) expect(fs.existsSync(path.join(dist, file)), file).toBe(true);
  });

  it('asks for no favicon file and never for the theme stylesheet twice', () => {
    const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
    expect(/<link\s+rel="icon"[^>]*href="([^"]*)"/.exec(html)?.[1]).toMatch(/^data:image\/svg\+xml,/);
    // After the console's stylesheet, so the start-up has no reason to move it (a moved link is fetched again).
    const theme = html.indexOf('id="theme-css"');
    const own = html.search(/<link rel="stylesheet"[^>]+href="\.\/assets\/index-[\w-]+\.css"/);
    expect(own).toBeGreaterThan(0);
    expect(theme).toBeGreaterThan(own);
  });

  it('carries no TypeBox: the console reads the contract constants and types, never its schemas', () => {
    const assets = path.join(dist, 'assets');
    const withSchemas = fs
      .readdirSync(assets)
      .filter((name) => name.endsWith('.js') && fs.readFileSync(path.join(assets, name), 'utf8').includes('TypeBox.Kind'));
    expect(withSchemas).toEqual([]);
  });

  it("loads no other page's code with a page, in a dozen script files at most", () => {
    const manifest = readManifest();
    for (const [name, routeModules] of Object.entries(PAGES)) {
      const chunks = chunksOfPage(manifest, routeModules);
      const own = new Set(routeModules.map((module) => path.basename(module, '.tsx')));
      const others = chunks.filter((chunk) => isPageChunk(chunk) && !own.has(chunk.name!)).map((chunk) => chunk.name);
      expect(others, `the ${name} page loads the chunks of ${others.join(', ')}`).toEqual([]);
      expect(chunks.length, `the ${name} page loads ${chunks.length} scripts`).toBeLessThanOrEqual(12);
    }
    // What used to happen: the series page's chunks held the Backups and Ignored Files pages and the settings.
    const series = new Set(chunksOfPage(manifest, PAGES['series overview']!).map((chunk) => chunk.file));
    for (const page of [
      'src/pages/settings/BackupsSettingsPage.tsx',
      'src/pages/utilities/unrecognized/IgnoredFilesPage.tsx',
      'src/pages/settings/SettingsLayout.tsx',
    ]) {
      expect(manifest[page], `${page} has a chunk of its own`).toBeDefined();
      expect(series.has(manifest[page]!.file), page).toBe(false);
    }
  });

  it('loads no Headless UI before a page draws, and the virtualizer only with the pages that draw long lists', () => {
    const manifest = readManifest();
    const holding = (files: string[], text: string) =>
      files.filter((file) => fs.readFileSync(path.join(dist, file), 'utf8').includes(text));
    for (const [name, routeModules] of Object.entries(PAGES)) {
      const files = chunksOfPage(manifest, routeModules).map((chunk) => chunk.file);
      // The attribute every Headless UI component writes: dialogs load theirs when opened (components/Modal.tsx), and the
      // Utilities menu is the layout's own; the layout held all of Headless UI, about 100 kB, for every signed-in page.
      expect(holding(files, 'data-headlessui-state'), `Headless UI in the scripts of the ${name} page`).toEqual([]);
      // One of @tanstack/virtual-core's exports.
      if (!/collection|series|unrecognized|file search|release management/.test(name)) {
        expect(holding(files, 'observeElementOffset'), `the virtualizer in the scripts of the ${name} page`).toEqual([]);
      }
    }
  });

  it('keeps the dashboard grid library out of the dashboard until its layout is edited', () => {
    const manifest = readManifest();
    const dashboard = chunksOfPage(manifest, PAGES.dashboard!).map((chunk) => chunk.file);
    const withGrid = dashboard.filter((file) => fs.readFileSync(path.join(dist, file), 'utf8').includes('react-draggable'));
    expect(withGrid).toEqual([]);
  });

  it('has a Brotli and a gzip variant beside each script, with the same bytes once decoded', () => {
    const assets = path.join(dist, 'assets');
    const scripts = fs.readdirSync(assets).filter((name) => name.endsWith('.js') && fs.statSync(path.join(assets, name)).size >= 4096);
    expect(scripts.length).toBeGreaterThan(0);
    for (const name of scripts) {
      const source = fs.readFileSync(path.join(assets, name));
      expect(brotliDecompressSync(fs.readFileSync(path.join(assets, `${name}.br`))).equals(source), `${name}.br`).toBe(true);
      expect(gunzipSync(fs.readFileSync(path.join(assets, `${name}.gz`))).equals(source), `${name}.gz`).toBe(true);
    }
  });
});
