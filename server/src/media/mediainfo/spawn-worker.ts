import type { Worker } from 'node:worker_threads';
import { spawnWorker } from '../hashing/spawn-worker.js';

/** Starts a MediaInfo worker (mediainfo-worker.js of the build, or mediainfo-worker.ts through tsx from sources). */
export function spawnMediaInfoWorker(): Worker {
  return spawnWorker(new URL('./mediainfo-worker.js', import.meta.url), new URL('./mediainfo-worker.ts', import.meta.url));
}
