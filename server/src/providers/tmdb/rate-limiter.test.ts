import { describe, expect, it } from 'vitest';
import { TMDB_RATE_LIMIT, TmdbRateLimiter, type TmdbClock } from './rate-limiter.js';
import { retryAfterMs } from './transport.js';

/** Virtual time: sleeping moves the clock forward instantly. */
function virtualClock(): TmdbClock & { time: number } {
  const clock = {
    time: 0,
    now: () => clock.time,
    sleep: async (ms: number) => {
      clock.time += ms;
    },
  };
  return clock;
}

describe('TMDB rate limiter', () => {
  it('keeps Shoko-compatible production limits: 45 per 10 s, at most 6 in flight', () => {
    expect(TMDB_RATE_LIMIT).toMatchObject({ maxRequests: 45, windowMs: 10_000 });
    expect(TMDB_RATE_LIMIT.maxConcurrent).toBeGreaterThanOrEqual(1);
    expect(TMDB_RATE_LIMIT.maxConcurrent).toBeLessThanOrEqual(6);
  });

  it('lets a full window start at once and delays the rest until the oldest start leaves the window', async () => {
    const clock = virtualClock();
    const limiter = new TmdbRateLimiter({ maxRequests: 3, windowMs: 1_000, maxConcurrent: 10 }, clock);
    const startedAt: number[] = [];
    for (let i = 0; i < 7; i++) {
      const release = await limiter.acquire();
      startedAt.push(clock.now());
      release();
    }
    expect(startedAt).toEqual([0, 0, 0, 1_000, 1_000, 1_000, 2_000]);
  });

  it('caps requests in flight and hands a freed slot to the next waiter', async () => {
    const limiter = new TmdbRateLimiter({ maxRequests: 100, windowMs: 1_000, maxConcurrent: 2 }, virtualClock());
    const first = await limiter.acquire();
    await limiter.acquire();
    let thirdStarted = false;
    const third = limiter.acquire().then((release) => {
      thirdStarted = true;
      return release;
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(thirdStarted).toBe(false);
    first();
    first(); // releasing twice must not free a second slot
    (await third)();
    expect(thirdStarted).toBe(true);
    let fourthStarted = false;
    void limiter.acquire().then(() => (fourthStarted = true));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(fourthStarted).toBe(true);
  });
});

describe('Retry-After', () => {
  const now = Date.parse('2024-01-01T00:00:00Z');
  it('reads seconds and HTTP dates, defaulting to 1 s and capping long waits', () => {
    expect(retryAfterMs('4', now)).toBe(4_000);
    expect(retryAfterMs(null, now)).toBe(1_000);
    expect(retryAfterMs('0', now)).toBe(1_000);
    expect(retryAfterMs('soon', now)).toBe(1_000);
    expect(retryAfterMs('Mon, 01 Jan 2024 00:00:07 GMT', now)).toBe(7_000);
    expect(retryAfterMs('86400', now)).toBe(120_000);
  });
});
