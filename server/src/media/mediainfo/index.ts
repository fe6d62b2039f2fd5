import fs from 'node:fs/promises';
import mediaInfoFactory, { type MediaInfo } from 'mediainfo.js';
import { toMediaInfoModel } from './mapping.js';

export { standardResolution, timeSpanText, toMediaInfoModel } from './mapping.js';

let instance: Promise<MediaInfo<'object'>> | null = null;
let queue: Promise<unknown> = Promise.resolve();

/** MediaInfoLib compiled to WebAssembly, loaded once; analyses run one at a time on it. */
function mediaInfo(): Promise<MediaInfo<'object'>> {
  instance ??= mediaInfoFactory({ format: 'object', full: true, chunkSize: 1024 * 1024 });
  return instance;
}

/**
 * Reads a file's container and streams through its headers (MediaInfo asks for the chunks it needs, never the
 * whole file) and maps them to the contract's MediaInfo model. A file MediaInfo cannot read is an error.
 */
export function readMediaInfo(path: string, options: { timeoutMs?: number } = {}): Promise<ReturnType<typeof toMediaInfoModel>> {
  const run = async () => {
    const handle = await fs.open(path, 'r');
    let timer: NodeJS.Timeout | undefined;
    try {
      const { size } = await handle.stat();
      const analyzer = await mediaInfo();
      const readChunk = async (chunkSize: number, offset: number) => {
        const buffer = Buffer.alloc(chunkSize);
        const { bytesRead } = await handle.read(buffer, 0, chunkSize, offset);
        return new Uint8Array(buffer.buffer, buffer.byteOffset, bytesRead);
      };
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('MediaInfo timed out')), options.timeoutMs ?? 5 * 60_000);
      });
      const result = await Promise.race([analyzer.analyzeData(size, readChunk), timeout]);
      const tracks = (result as { media?: { track?: Array<{ '@type': string }> } }).media?.track ?? [];
      if (!tracks.some((t) => t['@type'] === 'Video' || t['@type'] === 'Audio')) throw new Error('MediaInfo found no audio or video streams');
      return toMediaInfoModel(result as never);
    } finally {
      clearTimeout(timer);
      await handle.close();
    }
  };
  const next = queue.then(run, run);
  queue = next.catch(() => undefined);
  return next;
}

export async function closeMediaInfo(): Promise<void> {
  if (!instance) return;
  const current = instance;
  instance = null;
  (await current.catch(() => null))?.close();
}
