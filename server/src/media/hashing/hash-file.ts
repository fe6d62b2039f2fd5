import { ALL_ALGORITHMS, abortError, toFileHashes, type FileHashes, type HashOptions } from './file-hashes.js';
import { FileSource } from './file-source.js';
import { createDigester } from './hash-engines.js';
import { ProgressReporter } from './progress.js';

/** Large reads keep system-call overhead negligible next to hashing. */
const READ_SIZE = 2 * 1024 * 1024;

/**
 * Hashes a file on the calling thread: all four digests from one sequential read, the next read already running
 * while the current buffer is hashed. The HashPool spreads the same work over worker threads; this is the simple
 * path for scripts and for checking the pool.
 */
export async function hashFile(path: string, options: HashOptions = {}): Promise<FileHashes> {
  const { signal } = options;
  if (signal?.aborted) throw abortError(path);
  const source = await FileSource.open(path);
  const buffers = [new Uint8Array(READ_SIZE), new Uint8Array(READ_SIZE)];
  let pendingRead: Promise<number> | undefined;
  try {
    const digester = await createDigester(ALL_ALGORITHMS);
    const progress = new ProgressReporter(source.size, options.onProgress);
    let bytesDone = 0;
    pendingRead = source.readInto(buffers[0]);
    for (let turn = 0; ; turn ^= 1) {
      const length = await pendingRead;
      if (signal?.aborted) throw abortError(path);
      if (length === 0) break;
      pendingRead = source.readInto(buffers[turn ^ 1]);
      digester.update(buffers[turn].subarray(0, length));
      bytesDone += length;
      progress.update(bytesDone);
    }
    pendingRead = undefined;
    await source.checkUnchanged();
    const digests = digester.finish();
    progress.done();
    return toFileHashes(source.size, digests);
  } finally {
    // The file may only be closed once no read into it is still running.
    await pendingRead?.catch(() => undefined);
    await source.close();
  }
}
