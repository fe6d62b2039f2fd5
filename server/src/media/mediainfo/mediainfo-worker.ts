import fs from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import mediaInfoFactory from 'mediainfo.js';
import { runAsBackgroundThread } from '../hashing/background-thread.js';
import type { MediaInfoDocument } from './track.js';
import type { AnalyseReply, AnalyseRequest } from './worker-protocol.js';

/*
 * Runs MediaInfoLib (WebAssembly) off the main thread: if it loops forever or aborts, the main thread stops this worker
 * and starts another, and the server carries on. The module is instantiated once per worker and reused.
 */

const port = parentPort!;
runAsBackgroundThread();
// MediaInfoLib asks for the pieces it needs (headers, index, tail); 1 MiB keeps the number of round trips low.
const analyzer = mediaInfoFactory({ format: 'object', chunkSize: 1024 * 1024 });
// A failed instantiation is reported to the request that awaits it, not as an unhandled rejection.
analyzer.catch(() => undefined);

async function analyse(path: string): Promise<MediaInfoDocument> {
  const handle = await fs.open(path, 'r');
  try {
    const { size } = await handle.stat();
    const readChunk = async (length: number, offset: number): Promise<Uint8Array> => {
      const buffer = Buffer.allocUnsafe(length);
      const { bytesRead } = await handle.read(buffer, 0, length, offset);
      return buffer.subarray(0, bytesRead);
    };
    return (await (await analyzer).analyzeData(size, readChunk)) as MediaInfoDocument;
  } finally {
    await handle.close();
  }
}

function failure(id: number, error: unknown): AnalyseReply {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'ENOENT') return { id, ok: false, reason: 'not-found', message: 'file not found', fatal: false };
  if (typeof code === 'string') return { id, ok: false, reason: 'unreadable', message, fatal: false };
  // Anything else came out of MediaInfoLib or its loader (a WebAssembly RuntimeError after an abort, a failed
  // instantiation); the instance may be left in a broken state, so it is not trusted again.
  return { id, ok: false, reason: 'crashed', message: `MediaInfoLib failed: ${message}`, fatal: true };
}

port.on('message', (request: AnalyseRequest) => {
  analyse(request.path).then(
    (document) => port.postMessage({ id: request.id, ok: true, document } satisfies AnalyseReply),
    (error: unknown) => port.postMessage(failure(request.id, error)),
  );
});
