import type { RateLimitSettings } from '@shoko-ts/contract';
import type { RateLimitTimings } from '../udp/rate-limiter.js';

/** AniDB allows one HTTP request every 2 s on average, with no burst. */
export const ANIDB_HTTP_RATE_LIMIT: RateLimitTimings = { minGapMs: 2_000, averageGapMs: 2_000, creditMs: 0 };

/** The pacing from the settings' `AniDb.HTTPRateLimit`: the base rate, never below AniDB's 2 s. */
export function httpTimingsFromSettings(settings: RateLimitSettings): RateLimitTimings {
  const gap = Math.max(ANIDB_HTTP_RATE_LIMIT.minGapMs, settings.BaseRateInSeconds * 1000);
  return { minGapMs: gap, averageGapMs: gap, creditMs: 0 };
}
