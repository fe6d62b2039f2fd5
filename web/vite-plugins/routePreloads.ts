import type { OutputBundle, OutputChunk } from 'rollup';
import type { Plugin } from 'vite';

/** A console path (after `/webui`) and the modules the router loads for it, from web/. */
export type RouteModules = Array<[pattern: RegExp, modules: string[]]>;

// Not the live feed's client (app/layout starts it once drawn): preloaded, it took one of the six connections the
// page's code and first requests queue for.
const SIGNED_IN = ['src/app/layout/MainLayout.tsx'];
const SERIES = [...SIGNED_IN, 'src/pages/collection/series/SeriesOutlet.tsx'];
const SETTINGS = [...SIGNED_IN, 'src/pages/settings/SettingsLayout.tsx'];

/** The pages people open directly (a bookmark, a reload, the address after a login), first match wins. */
export const ROUTE_MODULES: RouteModules = [
  // The login page loads the landing page's code itself while the user types (app/landing.ts); the live feed's client
  // too, so that it connects as soon as the dashboard is drawn.
  [/^\/login\/?$/, ['src/pages/login/LoginPage.tsx', 'src/realtime/connection.ts']],
  [/^\/(dashboard\/?)?$/, [...SIGNED_IN, 'src/pages/dashboard/DashboardPage.tsx']],
  [/^\/collection\/series\/\d+\/episodes\/?$/, [...SERIES, 'src/pages/collection/series/EpisodesTab.tsx']],
  [/^\/collection\/series\/\d+(\/overview)?\/?$/, [...SERIES, 'src/pages/collection/series/OverviewTab.tsx']],
  [/^\/collection\/series\/\d+\//, SERIES],
  [/^\/collection(\/(group|filter)\/.*)?\/?$/, [...SIGNED_IN, 'src/pages/collection/CollectionPage.tsx']],
  [/^\/utilities\/file-search\/?$/, [...SIGNED_IN, 'src/pages/utilities/file-search/FileSearchPage.tsx']],
  [/^\/utilities\/release-management(\/\w+)?\/?$/, [...SIGNED_IN, 'src/pages/utilities/release-management/ReleaseManagementPage.tsx']],
  [/^\/utilities(\/unrecognized(\/files)?)?\/?$/, [...SIGNED_IN, 'src/pages/utilities/unrecognized/UnrecognizedFilesPage.tsx']],
  [/^\/settings(\/general)?\/?$/, [...SETTINGS, 'src/pages/settings/GeneralSettingsPage.tsx']],
  [/^\/settings\//, SETTINGS],
  [/^\/(collection|utilities|log)(\/|$)/, SIGNED_IN],
];

/** The chunk holding a module, or undefined. */
function chunkOf(bundle: OutputBundle, module: string): OutputChunk | undefined {
  const suffix = `/web/${module}`;
  return Object.values(bundle).find(
    (output): output is OutputChunk => output.type === 'chunk' && output.moduleIds.some((id) => id.replace(/\\/g, '/').endsWith(suffix)),
  );
}

/** The script that adds the page's chunks as module preloads, by the path it is opened at. */
function preloadScript(table: Array<[string, string[]]>): string {
  return `(function () {
  var routes = ${JSON.stringify(table)};
  var match = /\\/webui(\\/[^?#]*)?$/i.exec(location.pathname);
  var path = (match && match[1]) || '/';
  for (var i = 0; i < routes.length; i++) {
    if (!new RegExp(routes[i][0]).test(path)) continue;
    routes[i][1].forEach(function (file) {
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = new URL(file, document.baseURI).href;
      document.head.appendChild(link);
    });
    return;
  }
})();
`;
}

/**
 * Starts loading the opened page's chunks beside the entry instead of after it: the router asks for a page's code only
 * once the entry has arrived and run, so a page opened directly waited for two rounds of scripts. A small classic script
 * (the server's Content-Security-Policy allows no inline script), run from index.html before the entry, looks the path up
 * in a table built from the bundle and adds `<link rel="modulepreload">` for the chunks the router will import.
 */
export function routePreloads(routes: RouteModules = ROUTE_MODULES): Plugin {
  let scriptFile: string | null = null;
  return {
    name: 'shoko-route-preloads',
    apply: 'build',
    generateBundle(_options, bundle) {
      const entry = Object.values(bundle).find((output): output is OutputChunk => output.type === 'chunk' && output.isEntry);
      const withEntry = new Set<string>();
      const addWithImports = (files: Set<string>, file: string) => {
        if (files.has(file)) return;
        files.add(file);
        const chunk = bundle[file];
        if (chunk?.type === 'chunk') for (const imported of chunk.imports) addWithImports(files, imported);
      };
      if (entry) addWithImports(withEntry, entry.fileName);
      const table: Array<[string, string[]]> = [];
      for (const [pattern, modules] of routes) {
        const files = new Set<string>();
        for (const module of modules) {
          const chunk = chunkOf(bundle, module);
          if (chunk) addWithImports(files, chunk.fileName);
          else this.warn(`route preloads: ${module} is in no chunk (moved or renamed?)`);
        }
        table.push([pattern.source, [...files].filter((file) => !withEntry.has(file))]);
      }
      const ref = this.emitFile({ type: 'asset', name: 'route-preloads.js', source: preloadScript(table) });
      scriptFile = this.getFileName(ref);
    },
    transformIndexHtml: {
      order: 'post',
      handler() {
        if (!scriptFile) return [];
        return [{ tag: 'script', attrs: { src: `./${scriptFile}` }, injectTo: 'head' }];
      },
    },
  };
}
