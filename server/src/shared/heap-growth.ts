import v8 from 'node:v8';

/** How far the heap may grow past what survived the last full collection before the next one, in percent. */
const HEAP_GROWTH_PERCENT = 100;

/**
 * Lets the heap double past what survived a full collection before the next one (unless node was started with its
 * own --heap-growing-percent). A server is idle most of the time, so V8 judges it memory-bound and keeps the heap
 * within 10-30 % of its live size. Every full collection marks the whole live heap (about 73 MB at 100,000 files:
 * 40-50 ms of marking, part of it inside requests), and one came for every 10-15 MB of request garbage that outlived
 * a young collection: right after a 100,000-file Shoko import, the first visits had one request in three at
 * 52-90 ms when it did. Doubled, none came in those visits; the cost is at most the live size again in memory.
 */
export function widenHeapGrowth(): void {
  const own = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) => /heap[-_]growing[-_]percent/.test(arg));
  if (!own) v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWTH_PERCENT}`);
}
