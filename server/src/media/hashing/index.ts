export { ED2K_CHUNK, hashFileInline, type FileHashes } from './digest.js';
export { HashPool } from './hash-pool.js';
