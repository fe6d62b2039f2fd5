import type { RateLimitSettings } from '@shoko-ts/contract';
import { ANIDB_UDP_RATE_LIMIT, timingsFromSettings, type RateLimitTimings } from '../udp/rate-limiter.js';

/**
 * AniDB allows one HTTP request every 2 s with no initial burst; the slow tier and the idle reset are the same
 * tiers Shoko applies to UDP.
 */
export const ANIDB_HTTP_RATE_LIMIT: RateLimitTimings = { ...ANIDB_UDP_RATE_LIMIT, burst: 1 };

/** The tiers from the server settings' `AniDb.HTTPRateLimit`. */
export function httpTimingsFromSettings(settings: RateLimitSettings): RateLimitTimings {
  return { ...timingsFromSettings(settings), burst: 1 };
}
