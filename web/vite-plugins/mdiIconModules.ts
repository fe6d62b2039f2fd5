import fs from 'node:fs';
import { createRequire } from 'node:module';
import MagicString from 'magic-string';
import type { Plugin } from 'vite';

/** What an icon's import becomes: one module per icon, holding its SVG path. */
export const ICON_MODULE_PREFIX = 'virtual:mdi-icon/';
const RESOLVED_PREFIX = `\0${ICON_MODULE_PREFIX}`;

/** Every icon of @mdi/js by name, from its ES module (`export var mdiX = "M…";` per icon). */
function readIconPaths(): Map<string, string> {
  const file = createRequire(import.meta.url).resolve('@mdi/js/mdi.js');
  const source = fs.readFileSync(file, 'utf8');
  const paths = new Map<string, string>();
  for (const [, name, svgPath] of source.matchAll(/^export var (mdi\w+) = "([^"]*)";$/gm)) paths.set(name!, svgPath!);
  if (paths.size === 0) throw new Error(`no icons found in ${file}: has @mdi/js changed its layout?`);
  return paths;
}

interface ImportNode {
  type: string;
  start: number;
  end: number;
  source: { value: unknown };
  specifiers: Array<{ type: string; local: { name: string }; imported?: { type: string; name?: string; value?: unknown } }>;
}

/**
 * Gives each @mdi/js icon a module of its own in the build. @mdi/js is one module of some 7,000 exports, so every icon
 * any page uses went into the one chunk that held it, the entry's; with a module per icon the build's chunking puts each
 * icon with the pages that use it (`import { mdiX as y } from '@mdi/js'` becomes `import y from 'virtual:mdi-icon/mdiX'`).
 * Sources keep importing from @mdi/js (the development server and the tests use it as it is).
 */
export function mdiIconModules(): Plugin {
  let iconPaths: Map<string, string> | undefined;
  const pathOf = (name: string) => (iconPaths ??= readIconPaths()).get(name);
  return {
    name: 'shoko-mdi-icon-modules',
    apply: 'build',
    transform(code, id) {
      if (id.includes('/node_modules/') || !code.includes('@mdi/js')) return null;
      const program = this.parse(code) as unknown as { body: ImportNode[] };
      const rewritten = new MagicString(code);
      for (const node of program.body) {
        if (node.type !== 'ImportDeclaration' || node.source.value !== '@mdi/js') continue;
        const imports = node.specifiers.map((specifier) => {
          const imported = specifier.imported?.name ?? String(specifier.imported?.value ?? '');
          if (specifier.type !== 'ImportSpecifier' || !imported) this.error(`${id}: import @mdi/js icons by name`);
          if (pathOf(imported) === undefined) this.error(`${id}: @mdi/js has no icon ${imported}`);
          return `import ${specifier.local.name} from '${ICON_MODULE_PREFIX}${imported}';`;
        });
        rewritten.overwrite(node.start, node.end, imports.join(' '));
      }
      if (!rewritten.hasChanged()) return null;
      return { code: rewritten.toString(), map: rewritten.generateMap({ hires: true }) };
    },
    resolveId(id) {
      return id.startsWith(ICON_MODULE_PREFIX) ? `\0${id}` : null;
    },
    load(id) {
      if (!id.startsWith(RESOLVED_PREFIX)) return null;
      const svgPath = pathOf(id.slice(RESOLVED_PREFIX.length));
      if (svgPath === undefined) this.error(`@mdi/js has no icon ${id.slice(RESOLVED_PREFIX.length)}`);
      return { code: `export default ${JSON.stringify(svgPath)};`, moduleSideEffects: false };
    },
  };
}
