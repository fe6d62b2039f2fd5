/// <reference types="node" />
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const BUDGET_BYTES = 200 * 1024;

/** The scripts the browser must load before the console can paint: the entry and what it preloads. */
function initialScripts(html: string): string[] {
  const refs = [
    ...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g),
  ].map((m) => m[1]);
  return [...new Set(refs)].map((ref) => path.join(dist, ref.replace(/^(\/webui\/|\.\/)/, '')));
}

// `npm test` builds the console before running this; a bare `vitest` run without a build has nothing to measure.
describe.skipIf(!fs.existsSync(path.join(dist, 'index.html')))('console bundle budget', () => {
  it('keeps the initial JavaScript under 200 kB gzip (heavy pages load lazily)', () => {
    const scripts = initialScripts(fs.readFileSync(path.join(dist, 'index.html'), 'utf8'));
    expect(scripts.length).toBeGreaterThan(0);
    const gzipped = scripts.reduce((total, file) => total + gzipSync(fs.readFileSync(file), { level: 9 }).length, 0);
    expect(gzipped, `initial JavaScript is ${(gzipped / 1024).toFixed(1)} kB gzip`).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it('carries no TypeBox: the console reads the contract constants and types, never its schemas', () => {
    const assets = path.join(dist, 'assets');
    const withSchemas = fs
      .readdirSync(assets)
      .filter((name) => name.endsWith('.js') && fs.readFileSync(path.join(assets, name), 'utf8').includes('TypeBox.Kind'));
    expect(withSchemas).toEqual([]);
  });
});
