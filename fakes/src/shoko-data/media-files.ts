import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import { md4 } from 'hash-wasm';
import type { FileHashes } from './values.js';

/** ED2K splits files into chunks of this many bytes; a file under one chunk hashes to the MD4 of its bytes. */
const ED2K_CHUNK = 9_728_000;

/**
 * A few KB of deterministic bytes standing in for a video: an EBML header's magic followed by a SHA-512 chain of
 * `seed`, so every file has its own content and hashes.
 */
export function videoBytes(seed: string, size: number): Buffer {
  const data = Buffer.alloc(size);
  data.set([0x1a, 0x45, 0xdf, 0xa3]);
  let block = createHash('sha512').update(seed).digest();
  for (let offset = 4; offset < size; offset += block.length) {
    data.set(block.subarray(0, Math.min(block.length, size - offset)), offset);
    block = createHash('sha512').update(block).digest();
  }
  return data;
}

/** The four hashes Shoko stores for a file, upper-case hex. Only files under one ED2K chunk are ever written here. */
export async function hashesOf(data: Buffer): Promise<FileHashes> {
  if (data.length >= ED2K_CHUNK) throw new Error('videoBytes files stay under one ED2K chunk');
  return {
    ed2k: (await md4(data)).toUpperCase(),
    crc32: zlib.crc32(data).toString(16).padStart(8, '0').toUpperCase(),
    md5: createHash('md5').update(data).digest('hex').toUpperCase(),
    sha1: createHash('sha1').update(data).digest('hex').toUpperCase(),
  };
}
