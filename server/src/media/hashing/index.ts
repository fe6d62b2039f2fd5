export { ED2K_CHUNK_SIZE, Ed2kHasher, type Ed2kDigest, type ResettableHash } from './ed2k.js';
export { ALL_ALGORITHMS, HashError, type Digests, type FileHashes, type HashAlgorithm, type HashOptions } from './file-hashes.js';
export { createDigester, hashEngineInfo, type Digester, type HashEngineInfo } from './hash-engines.js';
export { hashFile } from './hash-file.js';
export { HashPool, type HashPoolOptions } from './hash-pool.js';
