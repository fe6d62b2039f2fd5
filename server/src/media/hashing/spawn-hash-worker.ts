import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

const compiledWorker = new URL('./hash-worker.js', import.meta.url);
const sourceWorker = new URL('./hash-worker.ts', import.meta.url);

/** tsx's ESM API, located through its package exports (require.resolve would pick the CommonJS build). */
function tsxEsmApi(): string {
  const manifestPath = createRequire(import.meta.url).resolve('tsx/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  return pathToFileURL(path.join(path.dirname(manifestPath), manifest.exports['./esm/api'].import.default)).href;
}

/**
 * Starts a hash worker. From the build it runs hash-worker.js; from TypeScript sources (vitest, tsx watch) there is
 * no .js next to this file, so the worker loads hash-worker.ts through tsx. Workers inherit the process's execArgv
 * and OpenSSL, so MD4 works in them exactly when it works in the main thread.
 */
export function spawnHashWorker(): Worker {
  if (existsSync(fileURLToPath(compiledWorker))) return new Worker(compiledWorker);
  const load = `import(${JSON.stringify(tsxEsmApi())}).then(({ tsImport }) => tsImport(${JSON.stringify(sourceWorker.href)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(load, { eval: true });
}
