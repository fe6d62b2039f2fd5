import { availableParallelism } from 'node:os';
import { spawnWorker } from '../../media/hashing/spawn-worker.js';
import type { ShokoMediaBlobFailure } from './media-blob.js';

export interface MediaBlobBatch {
  items: Array<{ id: number; version: number; blob: Uint8Array }>;
}

export type MediaBlobResult = { id: number; json: string } | { id: number; failure: ShokoMediaBlobFailure };

const BATCH = 2_000;

/**
 * Decodes every file's media info on worker threads (one per core, at most four): at 100,000 files it is the costliest
 * part of reading a Shoko database (about 14 s on one core). The main thread maps the other kinds meanwhile.
 */
export async function decodeMediaBlobs(items: MediaBlobBatch['items']): Promise<Map<number, MediaBlobResult>> {
  const results = new Map<number, MediaBlobResult>();
  if (!items.length) return results;
  const threads = Math.max(1, Math.min(4, availableParallelism(), Math.ceil(items.length / BATCH)));
  let next = 0;
  const run = async () => {
    const worker = spawnWorker(new URL('./media-blob-worker.js', import.meta.url), new URL('./media-blob-worker.ts', import.meta.url));
    try {
      while (next < items.length) {
        const batch = items.slice(next, next + BATCH);
        next += BATCH;
        const answer = await new Promise<MediaBlobResult[]>((resolve, reject) => {
          const fail = (error: unknown) =>
            reject(error instanceof Error ? error : new Error(`media info worker exited (${String(error)})`));
          worker.once('message', (message: MediaBlobResult[]) => {
            worker.off('error', fail);
            worker.off('exit', fail);
            resolve(message);
          });
          worker.once('error', fail);
          worker.once('exit', fail);
          worker.postMessage({ items: batch } satisfies MediaBlobBatch);
        });
        for (const result of answer) results.set(result.id, result);
      }
    } finally {
      await worker.terminate();
    }
  };
  await Promise.all(Array.from({ length: threads }, run));
  return results;
}
