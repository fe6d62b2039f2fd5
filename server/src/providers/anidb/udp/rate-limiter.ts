import type { RateLimitSettings } from '@shoko-ts/contract';
import { boundedRateLimit } from '../pacing-bounds.js';

/**
 * Packet pacing. Every packet waits at least `minGapMs` after the previous one (so there is never a burst, not
 * even after an idle period), and over longer stretches the rate falls to one packet every `averageGapMs`: a packet
 * may run ahead of that average schedule by at most `creditMs`, after which packets go out `averageGapMs` apart.
 */
export interface RateLimitTimings {
  /** Shortest gap between two packets (AniDB: 2 s). */
  minGapMs: number;
  /** Long-term average gap (AniDB UDP: 4 s; HTTP: 2 s). */
  averageGapMs: number;
  /** How far ahead of the average schedule packets may run at the short gap. */
  creditMs: number;
}

/** AniDB's UDP limits: 2 s between packets, 4 s on average once busy (about five packets at 2 s, then 4 s). */
export const ANIDB_UDP_RATE_LIMIT: RateLimitTimings = { minGapMs: 2_000, averageGapMs: 4_000, creditMs: 10_000 };

/** No spacing at all: only for a test or demo server on this machine (see `isLoopbackOverride`). */
export const NO_PACING: RateLimitTimings = { minGapMs: 0, averageGapMs: 0, creditMs: 0 };

/**
 * True when an environment override (SHOKO_ANIDB_UDP / SHOKO_ANIDB_HTTP) points at this machine: the fakes of the
 * tests and the demo. AniDB's own servers always get the pacing of the settings.
 */
export function isLoopbackOverride(override: string | undefined): boolean {
  if (!override?.trim()) return false;
  const host = /^[a-z]+:\/\//i.test(override) ? new URL(override).hostname : override.slice(0, override.lastIndexOf(':'));
  return ['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host.toLowerCase());
}

/**
 * The pacing toward a loopback fake: none, unless `SHOKO_ANIDB_LOOPBACK_PACING` gives a time scale (the demo and
 * the strict-fake tests use e.g. 0.05: AniDB's gaps, 20 times shorter, checked by a fake that scales its rules alike).
 */
export function loopbackTimings(real: RateLimitTimings, env: NodeJS.ProcessEnv = process.env): RateLimitTimings {
  const scale = Number(env.SHOKO_ANIDB_LOOPBACK_PACING ?? 0);
  if (!Number.isFinite(scale) || scale <= 0) return NO_PACING;
  return { minGapMs: real.minGapMs * scale, averageGapMs: real.averageGapMs * scale, creditMs: real.creditMs * scale };
}

/**
 * How long a ban by a loopback fake is waited out: `SHOKO_ANIDB_LOOPBACK_BAN_SECONDS` when set (tests that watch a
 * ban end), else undefined = AniDB's own length. Never used toward AniDB itself.
 */
export function loopbackBanMs(override: string | undefined, env: NodeJS.ProcessEnv = process.env): number | undefined {
  if (!isLoopbackOverride(override)) return undefined;
  const seconds = Number(env.SHOKO_ANIDB_LOOPBACK_BAN_SECONDS ?? 0);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}

/**
 * The UDP pacing from the settings' `AniDb.UDPRateLimit`, never faster than AniDB allows: the base rate is the
 * short gap (at least 2 s), base × slow multiplier the average (at least 4 s), and the credit lasts the slow-rate
 * period (base × period multiplier) at the short gap. Settings past the bounds of pacing-bounds.ts are moved inside.
 */
export function timingsFromSettings(configured: RateLimitSettings): RateLimitTimings {
  const settings = boundedRateLimit(configured);
  const minGapMs = Math.max(ANIDB_UDP_RATE_LIMIT.minGapMs, settings.BaseRateInSeconds * 1000);
  const averageGapMs = Math.max(ANIDB_UDP_RATE_LIMIT.averageGapMs, settings.BaseRateInSeconds * 1000 * settings.SlowRateMultiplier);
  const busyMs = settings.BaseRateInSeconds * 1000 * settings.SlowRatePeriodMultiplier;
  return { minGapMs, averageGapMs, creditMs: Math.max(0, Math.round((busyMs / minGapMs) * (averageGapMs - minGapMs))) };
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
 * Spaces packets out. One limiter per protocol for the whole process: clients that are rebuilt (a settings save)
 * keep using the same limiter, so a new client cannot send straight after the old one. Callers await `beforeSend()`
 * right before every datagram or request, retries included: AniDB counts packets, not requests. Each call books its
 * send time before it sleeps, so concurrent callers never share a slot.
 */
export class RateLimiter {
  private lastSentAt: number | null = null;
  /** Where the average schedule stands: the earliest time the next packet is "due" at the long-term rate. */
  private scheduleAt = Number.NEGATIVE_INFINITY;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private timings: RateLimitTimings = ANIDB_UDP_RATE_LIMIT,
    private readonly clock: RateLimitClock = systemClock,
  ) {}

  /** New timings (a settings save) apply from the next packet on; what was sent so far still counts. */
  setTimings(timings: RateLimitTimings): void {
    this.timings = timings;
  }

  get current(): RateLimitTimings {
    return this.timings;
  }

  /** Resolves when the next packet may go out. */
  async beforeSend(): Promise<void> {
    const { minGapMs, averageGapMs, creditMs } = this.timings;
    const now = this.clock.now();
    let sendAt = now;
    if (this.lastSentAt !== null) sendAt = Math.max(sendAt, this.lastSentAt + minGapMs);
    sendAt = Math.max(sendAt, this.scheduleAt - creditMs);
    // After an idle period the schedule restarts at the send time: idle time is not saved up as credit.
    this.scheduleAt = Math.max(this.scheduleAt, sendAt) + averageGapMs;
    this.lastSentAt = sendAt;
    if (sendAt > now) await this.clock.sleep(sendAt - now);
    // A sleep that ran late moves the packet, and the next one's gap is counted from when this one really went.
    if (this.lastSentAt === sendAt) this.lastSentAt = Math.max(sendAt, this.clock.now());
  }

  /** Runs `work` after every earlier `exclusive` work has finished: one request at a time whichever client asks. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work, work);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** How long `packets` more packets take from now at this pacing: the queue view's estimate of the AniDB work left. */
  estimateMs(packets: number): number {
    const { minGapMs, averageGapMs, creditMs } = this.timings;
    const start = this.clock.now();
    let last = this.lastSentAt;
    let schedule = this.scheduleAt;
    let at = start;
    for (let i = 0; i < packets; i++) {
      let sendAt = last === null ? at : Math.max(at, last + minGapMs);
      sendAt = Math.max(sendAt, schedule - creditMs);
      schedule = Math.max(schedule, sendAt) + averageGapMs;
      // Once the credit is spent, every further packet is one average gap later: no need to walk the rest.
      if (last !== null && sendAt === schedule - averageGapMs - creditMs && averageGapMs >= minGapMs)
        return sendAt + (packets - 1 - i) * averageGapMs - start;
      last = sendAt;
      at = sendAt;
    }
    return at - start;
  }

  /** Milliseconds the next packet would wait if it were sent now. */
  nextDelay(): number {
    const { minGapMs, creditMs } = this.timings;
    const now = this.clock.now();
    const earliest = Math.max(this.lastSentAt === null ? now : this.lastSentAt + minGapMs, this.scheduleAt - creditMs);
    return Math.max(0, earliest - now);
  }
}
