import { HttpRateLimiter } from '../../providers/anidb/http/rate-limit.js';
import { LONG_TERM_GAP_MS } from '../../providers/anidb/pacing-bounds.js';
import { backoffPauseMs } from '../../providers/anidb/udp/backoff.js';
import { isLoopbackOverride, systemClock, type RateLimitClock } from '../../providers/anidb/udp/rate-limiter.js';

/**
 * The gap between pictures: AniDB's long-term 4 s, except toward a loopback fake (`SHOKO_ANIDB_IMAGE_URL` on this
 * machine: tests, the demo), where it is scaled by `SHOKO_ANIDB_LOOPBACK_PACING` like the other AniDB pacing (none by
 * default).
 */
export function anidbImageGapMs(env: NodeJS.ProcessEnv = process.env): number {
  if (!isLoopbackOverride(env.SHOKO_ANIDB_IMAGE_URL)) return LONG_TERM_GAP_MS;
  const scale = Number(env.SHOKO_ANIDB_LOOPBACK_PACING ?? 0);
  return Number.isFinite(scale) && scale > 0 ? LONG_TERM_GAP_MS * scale : 0;
}

/** What one picture download came back with: its HTTP status (the bytes are the caller's). */
export interface ImageFetchResult {
  status: number;
}

/** AniDB pictures cannot be downloaded now (an AniDB ban or back-off, or the image server's own back-off). */
export class AniDBImagesHeldError extends Error {}

/**
 * AniDB's image server answered with trouble (5xx, 429, 403) or not at all: the download fails and every picture
 * waits for the back-off pause.
 */
export class AniDBImageServerError extends Error {}

/** Statuses that mean "slow down or stop" rather than "this picture is missing". */
const TROUBLE = (status: number) => status >= 500 || status === 429 || status === 403;

/**
 * Pictures from AniDB's image server are AniDB requests too: one at a time, each starting at least one long-term gap
 * (4 s) after the previous one ended, none while AniDB has banned us or asked us to back off, and after failures in a
 * row a pause that grows (30 s … 2 h) instead of each queued picture trying at once. The queue holds the picture jobs
 * while `hold()` names a reason, and `onResume` tells it when the pacer's own pause is over.
 */
export class AniDBImagePacer {
  private readonly limiter: HttpRateLimiter;
  private readonly clock: RateLimitClock;
  private failureStreak = 0;
  private pause: { reason: string; until: number } | null = null;
  private resumeTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly deps: {
      /** Why AniDB must not be asked now (a ban, a back-off pause of the HTTP API), null when it may. */
      anidbHold: () => string | null;
      /** The pacer's own pause ended: held picture jobs may start. */
      onResume?: () => void;
      clock?: RateLimitClock;
      /** Shortest time from the end of one picture to the start of the next (default: AniDB's long-term 4 s). */
      gapMs?: number;
    },
  ) {
    this.clock = deps.clock ?? systemClock;
    const gapMs = deps.gapMs ?? anidbImageGapMs();
    this.limiter = new HttpRateLimiter({ shortGapMs: gapMs, longGapMs: gapMs, fastPeriodMs: 0, resetPeriodMs: Infinity }, this.clock);
  }

  /** Why pictures are held now, null when they may be downloaded. */
  hold(): string | null {
    const anidb = this.deps.anidbHold();
    if (anidb) return anidb;
    if (this.pause && this.clock.now() >= this.pause.until) this.pause = null;
    return this.pause?.reason ?? null;
  }

  /**
   * Runs one download in turn: fails with `AniDBImagesHeldError` while held (also when a hold began during the wait),
   * and with `AniDBImageServerError` after trouble, which starts or lengthens the back-off pause.
   */
  download<T extends ImageFetchResult>(work: () => Promise<T>): Promise<T> {
    return this.limiter.exclusive(async () => {
      this.assertNotHeld();
      await this.limiter.beforeSend();
      this.assertNotHeld();
      let result: T;
      try {
        result = await work();
      } catch (error) {
        this.backOff(`AniDB's image server did not answer (${error instanceof Error ? error.message : String(error)})`);
        throw new AniDBImageServerError(this.pause!.reason, { cause: error });
      } finally {
        this.limiter.finished();
      }
      if (TROUBLE(result.status)) {
        this.backOff(`AniDB's image server answered HTTP ${result.status}`);
        throw new AniDBImageServerError(this.pause!.reason);
      }
      this.failureStreak = 0;
      return result;
    });
  }

  /** How long `pictures` more downloads take at this pace, each taking `requestMs`. */
  estimateMs(pictures: number, requestMs = 0): number {
    return this.limiter.estimateMs(pictures, requestMs);
  }

  dispose(): void {
    if (this.resumeTimer) clearTimeout(this.resumeTimer);
    this.resumeTimer = null;
  }

  private assertNotHeld(): void {
    const reason = this.hold();
    if (reason) throw new AniDBImagesHeldError(`${reason}; AniDB pictures wait until that is over`);
  }

  private backOff(reason: string): void {
    const pauseMs = backoffPauseMs(++this.failureStreak);
    const until = this.clock.now() + pauseMs;
    this.pause = { reason: `${reason}; AniDB pictures pause for ${Math.round(pauseMs / 1000)} s`, until };
    this.dispose();
    this.resumeTimer = setTimeout(() => this.deps.onResume?.(), pauseMs + 10);
    this.resumeTimer.unref();
  }
}
