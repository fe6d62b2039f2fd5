import type { RateLimitSettings } from '@shoko-ts/contract';

export interface RateLimitTimings {
  /** Packets allowed back to back after an idle period before spacing starts (AniDB: the first 5). */
  burst: number;
  /** Gap between packets once the burst is spent (AniDB: 2 s). */
  shortGapMs: number;
  /** Gap once the client has been busy for `longGapAfterMs` (AniDB asks for 4 s over long periods). */
  longGapMs: number;
  longGapAfterMs: number;
  /** This much silence ends a busy period: the burst and the short gap apply again. */
  resetAfterMs: number;
}

/** AniDB's published limits with Shoko's default tiers (2 s, 6 s after 10 s busy, reset after 120 s idle). */
export const ANIDB_UDP_RATE_LIMIT: RateLimitTimings = {
  burst: 5,
  shortGapMs: 2_000,
  longGapMs: 6_000,
  longGapAfterMs: 10_000,
  resetAfterMs: 120_000,
};

/** The tiers from the server settings' `AniDb.UDPRateLimit`. */
/** No spacing at all: only for a test or demo server on this machine (see `isLoopbackOverride`). */
export const NO_PACING: RateLimitTimings = {
  burst: Number.MAX_SAFE_INTEGER,
  shortGapMs: 0,
  longGapMs: 0,
  longGapAfterMs: 0,
  resetAfterMs: 0,
};

/**
 * True when an environment override (SHOKO_ANIDB_UDP / SHOKO_ANIDB_HTTP) points at this machine: the fakes of the
 * tests and the demo. AniDB's own servers always get the pacing of the settings.
 */
export function isLoopbackOverride(override: string | undefined): boolean {
  if (!override?.trim()) return false;
  const host = /^[a-z]+:\/\//i.test(override) ? new URL(override).hostname : override.slice(0, override.lastIndexOf(':'));
  return ['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host.toLowerCase());
}

export function timingsFromSettings(settings: RateLimitSettings): RateLimitTimings {
  const base = settings.BaseRateInSeconds * 1000;
  return {
    burst: ANIDB_UDP_RATE_LIMIT.burst,
    shortGapMs: base,
    longGapMs: base * settings.SlowRateMultiplier,
    longGapAfterMs: base * settings.SlowRatePeriodMultiplier,
    resetAfterMs: base * settings.ResetPeriodMultiplier,
  };
}

/** Time source and sleeper, replaceable so tests need not wait seconds. */
export interface RateLimitClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: RateLimitClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * Spaces packets out. Callers serialise their requests and await `beforeSend()` right before every datagram,
 * retries included: AniDB counts packets, not requests.
 */
export class RateLimiter {
  private lastSentAt: number | null = null;
  private busySince = 0;
  private sentThisPeriod = 0;

  constructor(
    private readonly timings: RateLimitTimings = ANIDB_UDP_RATE_LIMIT,
    private readonly clock: RateLimitClock = systemClock,
  ) {}

  /** `keepAlive` packets (PING) never get the long gap, as they only keep a NAT mapping open. */
  async beforeSend(options: { keepAlive?: boolean } = {}): Promise<void> {
    const now = this.clock.now();
    if (this.lastSentAt === null || now - this.lastSentAt > this.timings.resetAfterMs) {
      this.busySince = now;
      this.sentThisPeriod = 0;
    }
    if (this.lastSentAt !== null && this.sentThisPeriod >= this.timings.burst) {
      const busyFor = now - this.busySince;
      const gap = !options.keepAlive && busyFor > this.timings.longGapAfterMs ? this.timings.longGapMs : this.timings.shortGapMs;
      const wait = this.lastSentAt + gap - now;
      if (wait > 0) await this.clock.sleep(wait);
    }
    this.sentThisPeriod++;
    this.lastSentAt = this.clock.now();
  }
}
