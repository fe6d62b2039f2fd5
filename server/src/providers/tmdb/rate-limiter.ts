import os from 'node:os';

/** Time source and sleeper, replaceable so tests need not wait seconds. */
export interface TmdbClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: TmdbClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export interface TmdbRateLimit {
  /** Requests allowed to start within any `windowMs`. */
  maxRequests: number;
  windowMs: number;
  /** Requests allowed in flight at once. */
  maxConcurrent: number;
}

/**
 * TMDB answers 429 somewhere around 40-50 requests per second per key; staying at 45 per 10 s with at most
 * min(6, cores) in flight (Shoko's local limits) keeps us far below that while a full refresh still runs quickly.
 */
export const TMDB_RATE_LIMIT: TmdbRateLimit = {
  maxRequests: 45,
  windowMs: 10_000,
  maxConcurrent: Math.max(1, Math.min(6, os.availableParallelism())),
};

/**
 * A sliding-window limiter plus a concurrency cap. `acquire()` resolves when a request may start and hands back the
 * function that frees its slot; every attempt (retries included) acquires anew, because TMDB counts requests.
 */
export class TmdbRateLimiter {
  private readonly startedAt: number[] = [];
  private inFlight = 0;
  private readonly waitingForSlot: (() => void)[] = [];
  /** Window bookkeeping is serialised so two waiters never both take the last free start. */
  private windowTurn: Promise<void> = Promise.resolve();

  constructor(
    private readonly limit: TmdbRateLimit = TMDB_RATE_LIMIT,
    private readonly clock: TmdbClock = systemClock,
  ) {}

  async acquire(): Promise<() => void> {
    await this.takeConcurrencySlot();
    try {
      await this.takeWindowStart();
    } catch (error) {
      this.releaseConcurrencySlot();
      throw error;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.releaseConcurrencySlot();
    };
  }

  private takeConcurrencySlot(): Promise<void> {
    if (this.inFlight < this.limit.maxConcurrent) {
      this.inFlight++;
      return Promise.resolve();
    }
    // The releasing request hands its slot straight to the next waiter, so inFlight stays unchanged.
    return new Promise((resolve) => this.waitingForSlot.push(resolve));
  }

  private releaseConcurrencySlot(): void {
    const next = this.waitingForSlot.shift();
    if (next) next();
    else this.inFlight--;
  }

  private takeWindowStart(): Promise<void> {
    const turn = this.windowTurn.then(async () => {
      for (;;) {
        const now = this.clock.now();
        while (this.startedAt.length > 0 && now - this.startedAt[0] >= this.limit.windowMs) this.startedAt.shift();
        if (this.startedAt.length < this.limit.maxRequests) {
          this.startedAt.push(now);
          return;
        }
        await this.clock.sleep(this.startedAt[0] + this.limit.windowMs - now);
      }
    });
    this.windowTurn = turn.catch(() => undefined);
    return turn;
  }
}
