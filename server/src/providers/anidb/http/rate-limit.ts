import type { RateLimitSettings } from '@shoko-ts/contract';
import { boundedRateLimit } from '../pacing-bounds.js';
import { systemClock, type RateLimitClock } from '../udp/rate-limiter.js';

/**
 * The HTTP pacing of `AniDb.HTTPRateLimit`: requests go `shortGapMs` apart until the client has been busy for
 * `fastPeriodMs`, then `longGapMs` apart, until a quiet spell longer than `resetPeriodMs` makes it fast again. Every
 * gap is counted from the end of the previous request (its answer), not from when it was sent.
 */
export interface HttpPacing {
  shortGapMs: number;
  longGapMs: number;
  fastPeriodMs: number;
  resetPeriodMs: number;
}

/** The pacing of the settings (moved inside the bounds that keep AniDB's long-term rule). */
export function httpPacingFromSettings(settings: RateLimitSettings): HttpPacing {
  const { BaseRateInSeconds, SlowRateMultiplier, SlowRatePeriodMultiplier, ResetPeriodMultiplier } = boundedRateLimit(settings);
  const baseMs = BaseRateInSeconds * 1000;
  return {
    shortGapMs: baseMs,
    longGapMs: baseMs * SlowRateMultiplier,
    fastPeriodMs: baseMs * SlowRatePeriodMultiplier,
    resetPeriodMs: baseMs * ResetPeriodMultiplier,
  };
}

/** The contract's defaults (2 s, ×3, ×5, ×60): 2 s apart for the first 10 s of use, then 6 s, fast again after 2 min quiet. */
export const ANIDB_HTTP_PACING: HttpPacing = httpPacingFromSettings({
  BaseRateInSeconds: 2,
  SlowRateMultiplier: 3,
  SlowRatePeriodMultiplier: 5,
  ResetPeriodMultiplier: 60,
});

/** The pacing with every time multiplied by `scale` (the loopback fakes of the tests and the demo); 0 = no pacing. */
export function scaledHttpPacing(pacing: HttpPacing, scale: number): HttpPacing {
  const factor = Number.isFinite(scale) && scale > 0 ? scale : 0;
  return {
    shortGapMs: pacing.shortGapMs * factor,
    longGapMs: pacing.longGapMs * factor,
    fastPeriodMs: pacing.fastPeriodMs * factor,
    resetPeriodMs: pacing.resetPeriodMs * factor,
  };
}

/**
 * Paces AniDB HTTP requests, one at a time for the whole process (clients rebuilt after a settings save share it).
 * Callers run their work in `exclusive`, and around every request (retries included) await `beforeSend()` and call
 * `finished()` once the answer is in.
 */
export class HttpRateLimiter {
  /** When the previous request ended; null before the first one. */
  private lastEndAt: number | null = null;
  /** When the current busy spell began (a quiet spell longer than the reset period ends it). */
  private busySince = 0;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private pacing: HttpPacing = ANIDB_HTTP_PACING,
    private readonly clock: RateLimitClock = systemClock,
  ) {}

  /** New pacing (a settings save) applies from the next request on; the busy spell so far still counts. */
  setPacing(pacing: HttpPacing): void {
    this.pacing = pacing;
  }

  get current(): HttpPacing {
    return this.pacing;
  }

  /** Resolves when the next request may go out. */
  async beforeSend(): Promise<void> {
    const delay = this.nextDelay();
    const now = this.clock.now();
    if (this.lastEndAt === null || now - this.lastEndAt > this.pacing.resetPeriodMs) this.busySince = now;
    if (delay > 0) await this.clock.sleep(delay);
  }

  /** The request's answer is in (or it failed): the next gap counts from now. */
  finished(): void {
    this.lastEndAt = this.clock.now();
  }

  /** Milliseconds the next request would wait if it were sent now. */
  nextDelay(): number {
    if (this.lastEndAt === null) return 0;
    const now = this.clock.now();
    return Math.max(0, this.lastEndAt + this.gapAt(now) - now);
  }

  /** The gap that applies to a request asked for at `at`: short while fast, long after the fast period. */
  private gapAt(at: number): number {
    const { shortGapMs, longGapMs, fastPeriodMs, resetPeriodMs } = this.pacing;
    if (this.lastEndAt === null || at - this.lastEndAt > resetPeriodMs) return shortGapMs;
    return at - this.busySince > fastPeriodMs ? longGapMs : shortGapMs;
  }

  /**
   * How long `requests` more requests take from now at this pacing, each answered after `requestMs`: the queue view's
   * estimate of the AniDB work left.
   */
  estimateMs(requests: number, requestMs = 0): number {
    const { shortGapMs, longGapMs, fastPeriodMs, resetPeriodMs } = this.pacing;
    const start = this.clock.now();
    let at = start;
    let lastEnd = this.lastEndAt;
    let busySince = this.busySince;
    for (let i = 0; i < requests; i++) {
      if (lastEnd === null || at - lastEnd > resetPeriodMs) busySince = at;
      const sendAt = lastEnd === null ? at : Math.max(at, lastEnd + (at - busySince > fastPeriodMs ? longGapMs : shortGapMs));
      lastEnd = sendAt + requestMs;
      at = lastEnd;
      // Once slow, every further request is one long gap plus its answer: no need to walk the rest one by one.
      if (at - busySince > fastPeriodMs) return at + (requests - 1 - i) * (longGapMs + requestMs) - start;
    }
    return at - start;
  }

  /** Runs `work` after every earlier `exclusive` work has finished: one request at a time whichever client asks. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work, work);
    this.queue = result.catch(() => undefined);
    return result;
  }
}
