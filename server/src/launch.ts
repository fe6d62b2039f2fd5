/**
 * The built entry point (dist/main.js, made from this file by server/build.mjs): runs the bundled server
 * (dist/server.cjs, every module of main.ts in one CommonJS file) through V8's code cache. Node 20 has no compile
 * cache of its own, and compiling the bundle's functions again on every start was a fifth of a cold start's CPU.
 *
 * The cache is V8's compiled code of the bundle as it stood when a process exited, in a file beside the bundle named
 * after the bundle's size, modification time and the Node version, so a rebuild or another Node never reads a stale
 * one (V8 itself checks little more than the source length). A start without a usable cache writes one when it exits;
 * where dist/ is read-only (a container image) the server simply starts without it.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { widenHeapGrowth } from './shared/heap-growth.js';

// Before the cache is read: V8 refuses a cache made under other flags, and the cache is made as the process exits.
widenHeapGrowth();
const bundle = fileURLToPath(new URL('./server.cjs', import.meta.url));
const source = fs.readFileSync(bundle, 'utf8');
const { size, mtimeMs } = fs.statSync(bundle);
const cacheFile = path.join(path.dirname(bundle), `.server.cjs.${size}-${Math.round(mtimeMs)}-${process.version}.v8cache`);

let cachedData: Buffer | undefined;
try {
  cachedData = fs.readFileSync(cacheFile);
} catch {
  // No cache yet: this start compiles everything and leaves one behind.
}
const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
  filename: bundle,
  cachedData,
});
if (!cachedData || script.cachedDataRejected) {
  process.once('exit', () => {
    try {
      const partial = `${cacheFile}.${process.pid}`;
      fs.writeFileSync(partial, script.createCachedData());
      fs.renameSync(partial, cacheFile);
    } catch {
      // A read-only or full disk only costs the next start its cache.
    }
  });
}
const cjsModule = { exports: {} };
const run = script.runInThisContext() as (...args: unknown[]) => void;
run(cjsModule.exports, createRequire(bundle), cjsModule, bundle, path.dirname(bundle));
