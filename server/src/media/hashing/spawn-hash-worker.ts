import type { Worker } from 'node:worker_threads';
import { spawnWorker } from './spawn-worker.js';

/** Starts a hash worker (hash-worker.js of the build, or hash-worker.ts through tsx from sources). */
export function spawnHashWorker(): Worker {
  return spawnWorker(new URL('./hash-worker.js', import.meta.url), new URL('./hash-worker.ts', import.meta.url));
}
