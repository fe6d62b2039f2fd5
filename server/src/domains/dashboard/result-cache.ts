/**
 * Results of whole-collection aggregates, kept for a few seconds and shared by concurrent callers: a dashboard opened
 * by many clients at once costs one query, not one per client. Anything that changes the collection clears it.
 */
export class ResultCache {
  private readonly entries = new Map<string, { expires: number; value: Promise<unknown> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && hit.expires > this.now()) return hit.value as Promise<T>;
    const value = compute();
    this.entries.set(key, { expires: this.now() + this.ttlMs, value });
    // A failure is not kept: the next caller asks again.
    value.catch(() => this.entries.delete(key));
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
