import { describe, expect, it } from 'vitest';
import { ANIDB_HTTP_PACING, HttpRateLimiter, httpPacingFromSettings } from './rate-limit.js';

/** A clock whose sleeps move it forward at once. */
function fakeClock() {
  let now = 1_000_000;
  return {
    now: () => now,
    sleep: async (ms: number) => void (now += ms),
    advance: (ms: number) => void (now += ms),
  };
}

/** Sends `count` requests back to back through the limiter, each answered after `answerMs`; returns the send times. */
async function send(limiter: HttpRateLimiter, clock: ReturnType<typeof fakeClock>, count: number, answerMs = 0): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    await limiter.beforeSend();
    times.push(clock.now());
    clock.advance(answerMs);
    limiter.finished();
  }
  return times;
}

const gapsOf = (times: number[]) => times.slice(1).map((time, i) => time - times[i]);

describe('AniDB HTTP pacing (AniDb.HTTPRateLimit)', () => {
  it('derives the gaps from the settings: base, base × slow multiplier, base × period and reset multipliers', () => {
    expect(
      httpPacingFromSettings({ BaseRateInSeconds: 2, SlowRateMultiplier: 3, SlowRatePeriodMultiplier: 5, ResetPeriodMultiplier: 60 }),
    ).toEqual({
      shortGapMs: 2_000,
      longGapMs: 6_000,
      fastPeriodMs: 10_000,
      resetPeriodMs: 120_000,
    });
    expect(
      httpPacingFromSettings({ BaseRateInSeconds: 4, SlowRateMultiplier: 2, SlowRatePeriodMultiplier: 3, ResetPeriodMultiplier: 10 }),
    ).toEqual({
      shortGapMs: 4_000,
      longGapMs: 8_000,
      fastPeriodMs: 12_000,
      resetPeriodMs: 40_000,
    });
  });

  it('moves settings saved past the bounds back inside them', () => {
    const pacing = httpPacingFromSettings({
      BaseRateInSeconds: 2,
      SlowRateMultiplier: 2,
      SlowRatePeriodMultiplier: 1000,
      ResetPeriodMultiplier: 2,
    });
    expect(pacing).toEqual({ shortGapMs: 2_000, longGapMs: 6_000, fastPeriodMs: 60_000, resetPeriodMs: 120_000 });
  });

  it('goes fast for the fast period, then slow, and fast again only after a quiet reset period', async () => {
    const clock = fakeClock();
    const limiter = new HttpRateLimiter(ANIDB_HTTP_PACING, clock);
    const first = gapsOf(await send(limiter, clock, 10));
    // 2 s apart while the client has been busy for at most 10 s, then 6 s apart.
    expect(first).toEqual([2_000, 2_000, 2_000, 2_000, 2_000, 2_000, 6_000, 6_000, 6_000]);
    // A quiet spell shorter than the reset period (2 min) keeps the slow rate.
    clock.advance(60_000);
    const stillSlow = await send(limiter, clock, 3);
    expect(gapsOf(stillSlow)).toEqual([6_000, 6_000]);
    // After more than 2 min quiet the first request goes at once and the pacing is fast again.
    clock.advance(120_001);
    const before = clock.now();
    const fastAgain = await send(limiter, clock, 4);
    expect(fastAgain[0]).toBe(before);
    expect(gapsOf(fastAgain)).toEqual([2_000, 2_000, 2_000]);
  });

  it('counts each gap from the end of the previous request, not from when it was sent', async () => {
    const clock = fakeClock();
    const limiter = new HttpRateLimiter(ANIDB_HTTP_PACING, clock);
    const times = await send(limiter, clock, 3, 1_500);
    expect(gapsOf(times)).toEqual([3_500, 3_500]);
    expect(limiter.nextDelay()).toBe(2_000);
  });

  it('applies new settings from the next request on', async () => {
    const clock = fakeClock();
    const limiter = new HttpRateLimiter(ANIDB_HTTP_PACING, clock);
    await send(limiter, clock, 1);
    limiter.setPacing(
      httpPacingFromSettings({ BaseRateInSeconds: 5, SlowRateMultiplier: 2, SlowRatePeriodMultiplier: 2, ResetPeriodMultiplier: 60 }),
    );
    expect(limiter.nextDelay()).toBe(5_000);
  });

  it('estimates the time of the requests left at this pacing', async () => {
    const clock = fakeClock();
    const limiter = new HttpRateLimiter(ANIDB_HTTP_PACING, clock);
    // Idle: the first goes at once, five more 2 s apart (10 s busy), then 6 s each.
    expect(limiter.estimateMs(1)).toBe(0);
    expect(limiter.estimateMs(6)).toBe(10_000);
    expect(limiter.estimateMs(7)).toBe(12_000);
    expect(limiter.estimateMs(1006)).toBe(12_000 + 999 * 6_000);
    // The estimate is what sending takes.
    const times = await send(limiter, clock, 50);
    expect(times[49] - times[0]).toBe(new HttpRateLimiter(ANIDB_HTTP_PACING, fakeClock()).estimateMs(50));
  });
});
