import { parentPort } from 'node:worker_threads';
import { readShokoMediaBlob } from './media-blob.js';
import type { MediaBlobBatch, MediaBlobResult } from './media-blob-pool.js';

// Decodes batches of Shoko's MediaBlob columns off the main thread (media-blob-pool.ts).
parentPort?.on('message', (batch: MediaBlobBatch) => {
  const results: MediaBlobResult[] = batch.items.map(({ id, version, blob }) => {
    const decoded = readShokoMediaBlob(blob, version);
    return decoded.ok ? { id, json: JSON.stringify(decoded.mediaInfo) } : { id, failure: decoded.reason };
  });
  parentPort!.postMessage(results);
});
