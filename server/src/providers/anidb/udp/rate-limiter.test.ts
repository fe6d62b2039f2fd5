import { describe, expect, it } from 'vitest';
import { isLoopbackOverride, RateLimiter, timingsFromSettings, type RateLimitClock } from './rate-limiter.js';

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

const timings = { minGapMs: 2000, averageGapMs: 4000, creditMs: 6000 };

/** Send times of `count` packets sent as fast as the limiter lets them. */
async function sendTimes(limiter: RateLimiter, clock: ReturnType<typeof fakeClock>, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    await limiter.beforeSend();
    times.push(clock.now());
  }
  return times;
}

const gapsOf = (times: number[]) => times.slice(1).map((time, i) => time - times[i]);

describe('AniDB rate limiter', () => {
  it('never sends two packets closer than the short gap, not even the first ones', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(timings, clock);
    const gaps = gapsOf(await sendTimes(limiter, clock, 6));
    expect(gaps.every((gap) => gap >= 2000)).toBe(true);
    expect(gaps.slice(0, 3)).toEqual([2000, 2000, 2000]);
  });

  it('falls to the long-term average once the credit is spent', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(timings, clock);
    const times = await sendTimes(limiter, clock, 50);
    expect(gapsOf(times).slice(-10)).toEqual(Array(10).fill(4000));
    // 50 packets take at least 49 average gaps, less the credit.
    expect(times.at(-1)! - times[0]).toBeGreaterThanOrEqual(49 * 4000 - 6000);
  });

  it('sends no burst after an idle period: the first packets after it are still spaced', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(timings, clock);
    await sendTimes(limiter, clock, 20);
    await clock.sleep(200_000);
    clock.slept.length = 0;
    const gaps = gapsOf(await sendTimes(limiter, clock, 5));
    expect(gaps.every((gap) => gap >= 2000)).toBe(true);
    // Idle time is not saved up: after the short gaps the credit allows, the average applies again.
    const later = gapsOf(await sendTimes(limiter, clock, 10));
    expect(later.slice(-3)).toEqual([4000, 4000, 4000]);
  });

  it('books a slot per caller, so concurrent callers are spaced too', async () => {
    // Time stands still while they wait, so each wait shows the slot its caller got.
    const slept: number[] = [];
    const clock = { now: () => 5_000_000, sleep: async (ms: number) => void slept.push(ms) };
    const limiter = new RateLimiter(timings, clock);
    await limiter.beforeSend();
    await Promise.all([limiter.beforeSend(), limiter.beforeSend(), limiter.beforeSend()]);
    expect(slept).toEqual([2000, 4000, 6000]);
  });

  it('keeps what was sent when the timings change', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(timings, clock);
    await limiter.beforeSend();
    limiter.setTimings({ minGapMs: 3000, averageGapMs: 4000, creditMs: 10_000 });
    expect(limiter.nextDelay()).toBe(3000);
  });

  it("derives pacing from the settings without going below AniDB's limits", () => {
    const defaults = { BaseRateInSeconds: 2, SlowRateMultiplier: 3, SlowRatePeriodMultiplier: 5, ResetPeriodMultiplier: 60 };
    expect(timingsFromSettings(defaults)).toEqual({ minGapMs: 2000, averageGapMs: 6000, creditMs: 20_000 });
    const reckless = { BaseRateInSeconds: 1, SlowRateMultiplier: 1, SlowRatePeriodMultiplier: 2, ResetPeriodMultiplier: 2 };
    const fast = timingsFromSettings(reckless);
    expect(fast.minGapMs).toBe(2000);
    // Moved inside the bounds that keep the long-term rule: the slow rate at 6 s or slower.
    expect(fast.averageGapMs).toBe(6000);
    // A fast start of 1000 base gaps is cut to 30: the credit ahead of the average is 30 short gaps' worth.
    const longStart = timingsFromSettings({ ...defaults, SlowRatePeriodMultiplier: 1000, ResetPeriodMultiplier: 1000 });
    expect(longStart.creditMs).toBe(30 * (6000 - 2000));
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
