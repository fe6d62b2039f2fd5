import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const SKIPPED = new Set(['node_modules', 'dist', '.git']);

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|mts|js|mjs|cjs)$/.test(entry.name) ? [full] : [];
  });
}

/**
 * A pg client or pool without an 'error' listener ends the process when PostgreSQL restarts or stops under it (an
 * unhandled 'error' event), and a pool's listener covers only its idle clients: one checked out needs its own, given
 * on 'connect'. Every file that makes a pg client or pool, in the server, its scripts and the benchmarks, is read here.
 */
describe('pg clients', () => {
  it('each listen for errors, and each pool gives its checked-out clients a listener too', () => {
    const files = ['server/src', 'scripts', 'bench', 'e2e'].flatMap((dir) => sourceFiles(path.join(repo, dir)));
    const makers = files
      .map((file) => ({ file: path.relative(repo, file), text: fs.readFileSync(file, 'utf8') }))
      .filter(({ text }) => /from 'pg'|\('pg'\)/.test(text));
    const constructions = makers.flatMap(({ file, text }) => {
      const clients = text.match(/new (?:pg\.)?Client\(/g)?.length ?? 0;
      const pools = text.match(/new (?:pg\.)?Pool\(/g)?.length ?? 0;
      const listeners = text.match(/\.on\('error'/g)?.length ?? 0;
      const connectListeners = text.match(/\.on\('connect'/g)?.length ?? 0;
      return clients + pools
        ? [
            {
              file,
              clients,
              pools,
              unheard: Math.max(0, clients + pools - listeners),
              poolsUnheardWhenOut: Math.max(0, pools - connectListeners),
            },
          ]
        : [];
    });
    // The files known to make them are found (the search itself works).
    expect(constructions.map((c) => c.file)).toEqual(expect.arrayContaining(['server/src/db/database.ts', 'server/src/test/pg-admin.ts']));
    expect(constructions.filter((c) => c.unheard > 0 || c.poolsUnheardWhenOut > 0)).toEqual([]);
  });
});
