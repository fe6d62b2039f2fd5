/** The digests Shoko stores for every file, as upper-case hex. */
export interface FileHashes {
  size: number;
  /** ED2K as Shoko's own hasher computes it: no empty chunk appended for exact multiples of the chunk size. */
  ED2K: string;
  /** ED2K with the empty chunk appended (old eMule style); only for non-zero exact multiples, otherwise null. */
  ED2KAlternate: string | null;
  CRC32: string;
  MD5: string;
  SHA1: string;
}

export type HashAlgorithm = 'ED2K' | 'CRC32' | 'MD5' | 'SHA1';

export const ALL_ALGORITHMS: readonly HashAlgorithm[] = ['ED2K', 'CRC32', 'MD5', 'SHA1'];

export type Digests = Omit<FileHashes, 'size'>;

export interface HashOptions {
  /** Called with the fraction done (0..1), at most every 1 % or 250 ms, and once with 1 at the end. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/**
 * Why a file could not be hashed. `code` is the file-system code where there is one (ENOENT, EACCES, EISDIR…),
 * EFILECHANGED when the file changed size while being read, ABORT_ERR when cancelled, EWORKER when a worker died.
 */
export class HashError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = code === 'ABORT_ERR' ? 'AbortError' : 'HashError';
  }
}

/** Fixed key order, whichever workers delivered which digests. */
export function toFileHashes(size: number, digests: Partial<Digests>): FileHashes {
  const { ED2K, ED2KAlternate, CRC32, MD5, SHA1 } = digests as Digests;
  return { size, ED2K, ED2KAlternate: ED2KAlternate ?? null, CRC32, MD5, SHA1 };
}

export function abortError(path: string): HashError {
  return new HashError(`Hashing of ${path} was cancelled`, 'ABORT_ERR', path);
}
