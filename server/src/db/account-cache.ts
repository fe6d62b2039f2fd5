/**
 * Every request looks up who owns its API key, and most look up which tags that user may not see; both change only
 * when an account or a key is written. This keeps the answers in memory. Every write to `users` or `api_keys` goes
 * through `written`, which forgets everything before and after the write; a read that was in flight across a write
 * (possible on PostgreSQL's pool) does not store what it read, so a revoked key or a changed restriction never
 * outlives its write.
 */
export class AccountCache {
  private generation = 0;
  private readonly entries = new Map<string, unknown>();

  constructor(private readonly capacity = 10_000) {}

  /** Changes with every write to `users` or `api_keys`: a cache of its own outside this one compares it. */
  get version(): number {
    return this.generation;
  }

  /** The cached answer for `key`, or `load()`'s (kept unless a write happened meanwhile or it is undefined). */
  async read<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (this.entries.has(key)) return this.entries.get(key) as T;
    const seen = this.generation;
    const value = await load();
    if (value !== undefined && seen === this.generation) {
      if (this.entries.size >= this.capacity) this.entries.clear();
      this.entries.set(key, value);
    }
    return value;
  }

  async written<T>(write: () => Promise<T>): Promise<T> {
    this.forget();
    try {
      return await write();
    } finally {
      this.forget();
    }
  }

  private forget(): void {
    this.generation++;
    this.entries.clear();
  }
}
