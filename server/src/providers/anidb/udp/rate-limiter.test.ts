import { describe, expect, it } from 'vitest';
import { isLoopbackOverride, RateLimiter, type RateLimitClock } from './rate-limiter.js';

function fakeClock(): RateLimitClock & { slept: number[] } {
  let now = 1_000_000;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  };
}

const timings = { burst: 3, shortGapMs: 2000, longGapMs: 6000, longGapAfterMs: 10_000, resetAfterMs: 120_000 };

describe('UDP rate limiter', () => {
  it('lets a short burst through, then spaces packets by the short gap', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(timings, clock);
    for (let i = 0; i < 5; i++) await limiter.beforeSend();
    expect(clock.slept).toEqual([2000, 2000]);
  });

  it('switches to the long gap after a busy period, except for keep-alive pings', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(timings, clock);
    for (let i = 0; i < 10; i++) await limiter.beforeSend();
    expect(clock.slept.at(-1)).toBe(6000);
    await limiter.beforeSend({ keepAlive: true });
    expect(clock.slept.at(-1)).toBe(2000);
  });

  it('starts over after a long silence', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(timings, clock);
    for (let i = 0; i < 4; i++) await limiter.beforeSend();
    await clock.sleep(200_000);
    clock.slept.length = 0;
    for (let i = 0; i < 3; i++) await limiter.beforeSend();
    expect(clock.slept).toEqual([]);
  });
});

describe('isLoopbackOverride', () => {
  it('skips pacing only for environment overrides that point at this machine', () => {
    expect(isLoopbackOverride('127.0.0.1:9000')).toBe(true);
    expect(isLoopbackOverride('http://localhost:9001')).toBe(true);
    expect(isLoopbackOverride('[::1]:9000')).toBe(true);
    expect(isLoopbackOverride('api.anidb.net:9000')).toBe(false);
    expect(isLoopbackOverride('http://api.anidb.net:9001')).toBe(false);
    expect(isLoopbackOverride(undefined)).toBe(false);
    expect(isLoopbackOverride('')).toBe(false);
  });
});
