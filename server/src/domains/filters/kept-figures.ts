/**
 * Figures computed from the collection (filter Sizes, computed sub-filters), kept by key until the collection changes
 * (`clear`) or for `ttlMs`: time-based filters (newly added, recently watched) move without a change. Callers asking
 * at once share one computation; a failed one is not kept.
 */
export class KeptFigures {
  private readonly entries = new Map<string, { expires: number; value: Promise<unknown> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const now = this.now();
    const kept = this.entries.get(key);
    if (kept && kept.expires > now) return kept.value as Promise<T>;
    const entry = { expires: now + this.ttlMs, value: compute() };
    this.entries.set(key, entry);
    entry.value.catch(() => this.entries.get(key) === entry && this.entries.delete(key));
    return entry.value;
  }

  clear(): void {
    this.entries.clear();
  }
}
