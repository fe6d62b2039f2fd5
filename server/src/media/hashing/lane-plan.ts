import type { HashAlgorithm } from './file-hashes.js';

/**
 * Relative cost per byte of each algorithm (ns/byte measured on x86-64 with OpenSSL 3: MD5 has no hardware help,
 * SHA-1 uses SHA-NI, CRC32 uses PCLMUL). Only the ratios matter: they decide how to split one file's work over threads.
 */
const COST: Record<HashAlgorithm, number> = { MD5: 1.56, ED2K: 0.94, SHA1: 0.58, CRC32: 0.32 };

const loadOf = (lane: HashAlgorithm[]) => lane.reduce((sum, algorithm) => sum + COST[algorithm], 0);

/** Splits algorithms over at most `maxLanes` threads, longest first onto the least loaded lane. */
function split(algorithms: readonly HashAlgorithm[], lanes: number): HashAlgorithm[][] {
  const plan: HashAlgorithm[][] = Array.from({ length: lanes }, () => []);
  for (const algorithm of [...algorithms].sort((a, b) => COST[b] - COST[a])) {
    plan.reduce((least, lane) => (loadOf(lane) < loadOf(least) ? lane : least)).push(algorithm);
  }
  return plan.filter((lane) => lane.length > 0);
}

/**
 * The fewest lanes (up to `maxLanes`) that reach the shortest time for one file: one hash cannot be split, so once
 * MD5 runs alone another thread adds nothing and is better left for the next file.
 */
export function planLanes(algorithms: readonly HashAlgorithm[], maxLanes: number): HashAlgorithm[][] {
  let best = split(algorithms, 1);
  for (let lanes = 2; lanes <= Math.min(maxLanes, algorithms.length); lanes++) {
    const candidate = split(algorithms, lanes);
    if (Math.max(...candidate.map(loadOf)) < Math.max(...best.map(loadOf)) * 0.95) best = candidate;
  }
  return best;
}
