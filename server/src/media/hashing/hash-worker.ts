import { parentPort } from 'node:worker_threads';
import { hashFileInline } from './digest.js';

/** Messages: { id, path } to hash, { id, cancel: true } to stop. Replies: progress, result or error. */
const cancelled = new Set<number>();

parentPort!.on('message', (message: { id: number; path?: string; cancel?: boolean }) => {
  if (message.cancel) {
    cancelled.add(message.id);
    return;
  }
  const { id, path } = message;
  let lastSent = 0;
  hashFileInline(path!, {
    shouldStop: () => cancelled.has(id),
    onProgress: (fraction) => {
      const now = Date.now();
      if (now - lastSent < 250 && fraction < 1) return;
      lastSent = now;
      parentPort!.postMessage({ id, progress: fraction });
    },
  })
    .then((result) => parentPort!.postMessage({ id, result }))
    .catch((error: NodeJS.ErrnoException) => parentPort!.postMessage({ id, error: { message: error.message, code: error.code } }))
    .finally(() => cancelled.delete(id));
});
