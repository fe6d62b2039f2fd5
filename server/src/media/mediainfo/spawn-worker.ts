import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

const compiledWorker = new URL('./mediainfo-worker.js', import.meta.url);
const sourceWorker = new URL('./mediainfo-worker.ts', import.meta.url);

/** URL of tsx's ESM loader API, found through its package exports. */
function tsxImportApi(): string {
  const manifestPath = createRequire(import.meta.url).resolve('tsx/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  return pathToFileURL(path.join(path.dirname(manifestPath), manifest.exports['./esm/api'].import.default)).href;
}

/**
 * Starts a MediaInfo worker: the compiled mediainfo-worker.js in a build; when running from TypeScript sources
 * (vitest, tsx watch) there is no .js beside this file, so the worker imports the .ts through tsx.
 */
export function spawnMediaInfoWorker(): Worker {
  if (existsSync(fileURLToPath(compiledWorker))) return new Worker(compiledWorker);
  const bootstrap = `import(${JSON.stringify(tsxImportApi())}).then(({ tsImport }) => tsImport(${JSON.stringify(sourceWorker.href)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(bootstrap, { eval: true });
}
