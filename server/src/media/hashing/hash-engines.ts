import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import { Ed2kHasher, type ResettableHash } from './ed2k.js';
import type { Digests, HashAlgorithm } from './file-hashes.js';

/** Hashes data for some of the algorithms; finish() returns the digests of exactly those. */
export interface Digester {
  update(data: Uint8Array): void;
  finish(): Partial<Digests>;
}

export interface HashEngineInfo {
  md4: 'openssl' | 'hash-wasm';
  crc32: 'zlib' | 'hash-wasm';
}

let opensslMd4: boolean | undefined;

/** OpenSSL 3 only offers MD4 when Node was started with --openssl-legacy-provider (a process-wide switch). */
function hasOpensslMd4(): boolean {
  if (opensslMd4 === undefined) {
    try {
      createHash('md4');
      opensslMd4 = true;
    } catch {
      opensslMd4 = false;
    }
  }
  return opensslMd4;
}

/** zlib.crc32 arrived in Node 20.15 / 22.2. */
const hasZlibCrc32 = (): boolean => typeof zlib.crc32 === 'function';

export function hashEngineInfo(): HashEngineInfo {
  return { md4: hasOpensslMd4() ? 'openssl' : 'hash-wasm', crc32: hasZlibCrc32() ? 'zlib' : 'hash-wasm' };
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex').toUpperCase();

function opensslHash(algorithm: string): ResettableHash {
  let hash = createHash(algorithm);
  return {
    update: (data) => hash.update(data),
    digest: () => {
      const digest = hash.digest();
      hash = createHash(algorithm);
      return digest;
    },
  };
}

async function createMd4(): Promise<ResettableHash> {
  if (hasOpensslMd4()) return opensslHash('md4');
  const { createMD4 } = await import('hash-wasm');
  const md4 = await createMD4();
  return {
    update: (data) => md4.update(data),
    digest: () => {
      const digest = md4.digest('binary');
      md4.init();
      return digest;
    },
  };
}

async function createCrc32(): Promise<{ update(data: Uint8Array): void; hex(): string }> {
  if (hasZlibCrc32()) {
    let crc = 0;
    return {
      update: (data) => (crc = zlib.crc32(data, crc)),
      hex: () => (crc >>> 0).toString(16).toUpperCase().padStart(8, '0'),
    };
  }
  const { createCRC32 } = await import('hash-wasm');
  const crc32 = await createCRC32();
  return { update: (data) => crc32.update(data), hex: () => crc32.digest('hex').toUpperCase() };
}

/** A digester for the given algorithms, each on the fastest engine this process offers. */
export async function createDigester(algorithms: readonly HashAlgorithm[]): Promise<Digester> {
  const parts: Digester[] = [];
  for (const algorithm of algorithms) {
    if (algorithm === 'ED2K') {
      const ed2k = new Ed2kHasher(await createMd4());
      parts.push({
        update: (data) => ed2k.update(data),
        finish: () => {
          const { ED2K, ED2KAlternate } = ed2k.digest();
          return { ED2K: hex(ED2K), ED2KAlternate: ED2KAlternate && hex(ED2KAlternate) };
        },
      });
    } else if (algorithm === 'CRC32') {
      const crc32 = await createCrc32();
      parts.push({ update: (data) => crc32.update(data), finish: () => ({ CRC32: crc32.hex() }) });
    } else {
      const hash = opensslHash(algorithm.toLowerCase());
      parts.push({ update: (data) => hash.update(data), finish: () => ({ [algorithm]: hex(hash.digest()) }) });
    }
  }
  return {
    update: (data) => {
      for (const part of parts) part.update(data);
    },
    finish: () => Object.assign({}, ...parts.map((part) => part.finish())),
  };
}
