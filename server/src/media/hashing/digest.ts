import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs/promises';
import zlib from 'node:zlib';

/** ED2K splits files into chunks of this many bytes. */
export const ED2K_CHUNK = 9_728_000;
const READ_SIZE = 4 * 1024 * 1024;

export interface FileHashes {
  size: number;
  /** The variant Shoko stores: no empty chunk appended for sizes that are exact multiples of the chunk size. */
  ED2K: string;
  /** The variant with the appended empty chunk, for exact multiples only; null otherwise. */
  ED2KAlternate: string | null;
  CRC32: string;
  MD5: string;
  SHA1: string;
}

const hex = (buffer: Buffer) => buffer.toString('hex').toUpperCase();
const md4 = () => createHash('md4');
const EMPTY_MD4 = () => md4().update(Buffer.alloc(0)).digest();

/** Incremental ED2K: MD4 per chunk, then MD4 of the chunk digests. */
class Ed2kHasher {
  private chunk: Hash = md4();
  private inChunk = 0;
  private readonly digests: Buffer[] = [];

  update(data: Buffer): void {
    let offset = 0;
    while (offset < data.length) {
      const take = Math.min(ED2K_CHUNK - this.inChunk, data.length - offset);
      this.chunk.update(data.subarray(offset, offset + take));
      this.inChunk += take;
      offset += take;
      if (this.inChunk === ED2K_CHUNK) {
        this.digests.push(this.chunk.digest());
        this.chunk = md4();
        this.inChunk = 0;
      }
    }
  }

  finish(size: number): { ed2k: string; alternate: string | null } {
    if (size < ED2K_CHUNK) return { ed2k: hex(this.chunk.digest()), alternate: null };
    const digests = this.inChunk > 0 ? [...this.digests, this.chunk.digest()] : this.digests;
    const exactMultiple = this.inChunk === 0;
    const ed2k = digests.length === 1 ? hex(digests[0]) : hex(md4().update(Buffer.concat(digests)).digest());
    const alternate = exactMultiple ? hex(md4().update(Buffer.concat([...digests, EMPTY_MD4()])).digest()) : null;
    return { ed2k, alternate };
  }
}

export class HashAbortedError extends Error {
  constructor() {
    super('Hashing was cancelled');
  }
}

/** All four hashes in one sequential read of the file. */
export async function hashFileInline(
  path: string,
  options: { onProgress?: (fraction: number) => void; shouldStop?: () => boolean } = {},
): Promise<FileHashes> {
  const handle = await fs.open(path, 'r');
  try {
    const { size } = await handle.stat();
    const ed2k = new Ed2kHasher();
    const md5 = createHash('md5');
    const sha1 = createHash('sha1');
    let crc = 0;
    const buffer = Buffer.allocUnsafe(READ_SIZE);
    let position = 0;
    let lastReported = 0;
    for (;;) {
      if (options.shouldStop?.()) throw new HashAbortedError();
      const { bytesRead } = await handle.read(buffer, 0, READ_SIZE, position);
      if (bytesRead === 0) break;
      const data = buffer.subarray(0, bytesRead);
      ed2k.update(data);
      md5.update(data);
      sha1.update(data);
      crc = zlib.crc32(data, crc);
      position += bytesRead;
      if (options.onProgress && size > 0 && position - lastReported >= size / 100) {
        lastReported = position;
        options.onProgress(Math.min(1, position / size));
      }
    }
    // A file that shrank while being read is not the file that was listed.
    if (position !== size) throw Object.assign(new Error(`The file changed size while being hashed (${size} → ${position} bytes)`), { code: 'ECHANGED' });
    const { ed2k: ED2K, alternate } = ed2k.finish(position);
    options.onProgress?.(1);
    return { size: position, ED2K, ED2KAlternate: alternate, CRC32: (crc >>> 0).toString(16).toUpperCase().padStart(8, '0'), MD5: hex(md5.digest()), SHA1: hex(sha1.digest()) };
  } finally {
    await handle.close();
  }
}
