import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Figures computed from the collection (filter Sizes, computed sub-filters), kept by key until the collection changes
 * (`clear`) or for `ttlMs`: time-based filters (newly added, recently watched) move without a change. Callers asking
 * at once share one computation; a failed one is not kept.
 */
export class KeptFigures {
  private readonly entries = new Map<string, { expires: number; value: Promise<unknown> }>();
  /** Set while `warm` runs: the computations started meanwhile, one after another. */
  private warmQueue: Promise<unknown> | null = null;

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const now = this.now();
    const kept = this.entries.get(key);
    if (kept && kept.expires > now) return kept.value as Promise<T>;
    const entry = { expires: now + this.ttlMs, value: this.warmQueue ? this.afterTurn(compute) : compute() };
    this.entries.set(key, entry);
    entry.value.catch(() => this.entries.get(key) === entry && this.entries.delete(key));
    return entry.value;
  }

  /**
   * Runs a warm-up that computes many figures. On SQLite each statement runs synchronously and the promises between
   * them resolve without returning to the event loop, so a warm-up of every account's filters held every request for
   * seconds (8 s right after a 100,000-file Shoko import, whose folder brings four accounts and Shoko's filters). While
   * it runs, computations go one at a time, each after a turn of the event loop, so requests are served between them.
   */
  async warm(run: () => Promise<void>): Promise<void> {
    this.warmQueue = Promise.resolve();
    try {
      await run();
    } finally {
      this.warmQueue = null;
    }
  }

  private afterTurn<T>(compute: () => Promise<T>): Promise<T> {
    const value = this.warmQueue!.catch(() => undefined)
      .then(() => nextTurn())
      .then(compute);
    this.warmQueue = value;
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
