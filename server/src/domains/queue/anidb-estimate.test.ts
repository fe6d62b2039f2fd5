import { describe, expect, it } from 'vitest';
import { ANIDB_HTTP_PACING, HttpRateLimiter } from '../../providers/anidb/http/rate-limit.js';
import { RateLimiter, timingsFromSettings } from '../../providers/anidb/udp/rate-limiter.js';
import { AniDBImagePacer } from '../images/index.js';
import { AniDBWorkEstimator } from './anidb-estimate.js';

const clock = { now: () => 1_000_000, sleep: async () => {} };
const defaults = { BaseRateInSeconds: 2, SlowRateMultiplier: 3, SlowRatePeriodMultiplier: 5, ResetPeriodMultiplier: 60 };

function estimator(httpHold: string | null = null) {
  const udp = new RateLimiter(timingsFromSettings(defaults), clock);
  const http = new HttpRateLimiter(ANIDB_HTTP_PACING, clock);
  const images = new AniDBImagePacer({ anidbHold: () => null, clock, gapMs: 4_000 });
  return new AniDBWorkEstimator({
    typeCounts: async () => ({
      'Get Cross-References for File': 10,
      'Get AniDB Anime Data': 100,
      'Download AniDB Image': 50,
      'Hash File': 7,
    }),
    udp: { jobTypes: ['Get Cross-References for File', 'Add File to MyList'], estimateMs: (n) => udp.estimateMs(n), hold: () => null },
    http: { jobTypes: ['Get AniDB Anime Data'], estimateMs: (n) => http.estimateMs(n), hold: () => httpHold, holdMs: () => 60_000 },
    images: { jobTypes: ['Download AniDB Image'], estimateMs: (n) => images.estimateMs(n), hold: () => null },
  });
}

describe('the AniDB work left in the queue', () => {
  it('counts the pictures the queued anime downloads will bring', async () => {
    const images = new AniDBImagePacer({ anidbHold: () => null, clock, gapMs: 4_000 });
    const idle = { jobTypes: [], estimateMs: () => 0, hold: () => null };
    const estimate = await new AniDBWorkEstimator({
      typeCounts: async () => ({ 'Get AniDB Anime Data': 10, 'Download AniDB Image': 4 }),
      udp: idle,
      http: idle,
      images: {
        jobTypes: ['Download AniDB Image'],
        estimateMs: (n) => images.estimateMs(n),
        hold: () => null,
        expected: (counts) => counts['Get AniDB Anime Data'] * 5,
      },
    }).estimate();
    // 4 queued and 50 to come: 54 pictures, 4 s apart.
    expect(estimate.Images).toEqual({ Requests: 4, Expected: 50, Seconds: 53 * 4, HeldReason: null });
    expect(estimate.TotalSeconds).toBe(53 * 4);
  });

  it('takes each stream at its pacing and adds them up', async () => {
    expect(await estimator().estimate()).toEqual({
      // UDP: five packets 2 s apart on the credit, then one every 6 s: the 10th goes out after 34 s.
      Udp: { Requests: 10, Expected: 0, Seconds: 34, HeldReason: null },
      // HTTP: 2 s apart for the first 10 s of use (7 requests by 12 s), then 6 s each.
      Http: { Requests: 100, Expected: 0, Seconds: 12 + 93 * 6, HeldReason: null },
      // Pictures: one every 4 s.
      Images: { Requests: 50, Expected: 0, Seconds: 49 * 4, HeldReason: null },
      TotalSeconds: 34 + 12 + 93 * 6 + 49 * 4,
    });
  });

  it('adds the rest of a ban or back-off pause to the stream it holds', async () => {
    const { Http, TotalSeconds } = await estimator('AniDB HTTP ban: banned').estimate();
    expect(Http).toEqual({ Requests: 100, Expected: 0, Seconds: 60 + 12 + 93 * 6, HeldReason: 'AniDB HTTP ban: banned' });
    expect(TotalSeconds).toBe(34 + 60 + 12 + 93 * 6 + 49 * 4);
  });
});
