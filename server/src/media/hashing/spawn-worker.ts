import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** URL of tsx's ESM loader API, found through its package exports (require.resolve would pick the CommonJS build). */
function tsxImportApi(): string {
  const manifestPath = createRequire(import.meta.url).resolve('tsx/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  return pathToFileURL(path.join(path.dirname(manifestPath), manifest.exports['./esm/api'].import.default)).href;
}

/**
 * Starts a worker thread (for every worker of the server; it lives here because the hashing folder must stay
 * self-contained, see transpileForNobody in test/other-user.ts): the compiled `.js` in a build (the caller makes both URLs from its own `import.meta.url`, so in
 * the bundle they point beside it); from TypeScript sources (vitest, tsx watch) there is no `.js`, so the worker imports
 * the `.ts` through tsx. Workers inherit the process's execArgv and OpenSSL settings.
 */
export function spawnWorker(compiled: URL, source: URL): Worker {
  if (existsSync(fileURLToPath(compiled))) return new Worker(compiled);
  const bootstrap = `import(${JSON.stringify(tsxImportApi())}).then(({ tsImport }) => tsImport(${JSON.stringify(source.href)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(bootstrap, { eval: true });
}
