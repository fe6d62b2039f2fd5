import type { RateLimitSettings } from '@shoko-ts/contract';

export interface RateLimitTimings {
  shortGapMs: number;
  longGapMs: number;
  /** After this much continuous activity the long gap applies. */
  longGapAfterMs: number;
  /** This much silence resets the activity clock. */
  resetAfterMs: number;
}

/** AniDB's tiers from the settings: 2 s between packets, 6 s once busy for 10 s, back to 2 s after 120 s idle. */
export function timingsFromSettings(settings: RateLimitSettings): RateLimitTimings {
  const base = settings.BaseRateInSeconds * 1000;
  return {
    shortGapMs: base,
    longGapMs: base * settings.SlowRateMultiplier,
    longGapAfterMs: base * settings.SlowRatePeriodMultiplier,
    resetAfterMs: base * settings.ResetPeriodMultiplier,
  };
}

/** Spaces requests out; callers await `wait()` right before sending. Requests are serialised by the caller. */
export class RateLimiter {
  private lastRequestAt = 0;
  private activeSince = 0;

  constructor(
    private readonly timings: RateLimitTimings,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  async wait(options: { short?: boolean } = {}): Promise<void> {
    const now = this.now();
    if (!this.lastRequestAt || now - this.lastRequestAt > this.timings.resetAfterMs) this.activeSince = now;
    const busyFor = now - this.activeSince;
    const gap = !options.short && busyFor > this.timings.longGapAfterMs ? this.timings.longGapMs : this.timings.shortGapMs;
    const elapsed = now - this.lastRequestAt;
    if (this.lastRequestAt && elapsed < gap) await this.sleep(gap - elapsed + 50);
    this.lastRequestAt = this.now();
  }
}
