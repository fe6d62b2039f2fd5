import type { Digests, HashAlgorithm } from './file-hashes.js';

/**
 * The pool reads a file into `ring` (a SharedArrayBuffer of equal slots) and tells each worker of the file's team
 * which slot to hash; a worker hands a slot back with `consumed` once its algorithms have seen it.
 */
export type ToWorker =
  | { type: 'start'; jobId: number; ring: SharedArrayBuffer; slotSize: number; algorithms: HashAlgorithm[] }
  | { type: 'chunk'; jobId: number; slot: number; length: number }
  | { type: 'finish'; jobId: number }
  | { type: 'cancel'; jobId: number };

export type FromWorker =
  | { type: 'consumed'; jobId: number; slot: number; length: number }
  | { type: 'digests'; jobId: number; digests: Partial<Digests> }
  | { type: 'failed'; jobId: number; message: string };
