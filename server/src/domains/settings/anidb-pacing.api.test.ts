import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRunWithAniDB, createTestServer, type TestServer } from '../../test/harness.js';

describe('AniDB pacing settings that would break the long-term rule', () => {
  let server: TestServer;
  let adminKey: string;
  const patch = (body: unknown) => server.request({ method: 'PATCH', url: '/api/v3/Settings', key: adminKey, body });

  beforeAll(async () => {
    server = await createTestServer();
    adminKey = await completeFirstRunWithAniDB(server, { username: 'me', password: 'pw' });
  });
  afterAll(() => server.close());

  it('refuses a fast start longer than 30 base gaps, naming the field, and saves nothing', async () => {
    const res = await patch([{ op: 'replace', path: '/AniDb/HTTPRateLimit/SlowRatePeriodMultiplier', value: 1000 }]);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['AniDb.HTTPRateLimit.SlowRatePeriodMultiplier']);
    expect(res.json().errors['AniDb.HTTPRateLimit.SlowRatePeriodMultiplier'][0]).toMatch(/between 2 and 30/);
    expect(server.services.settings.current.AniDb.HTTPRateLimit.SlowRatePeriodMultiplier).toBe(5);
  });

  it('refuses a slow rate faster than one request every 6 s and a reset period shorter than twice the fast start', async () => {
    const res = await patch([
      { op: 'replace', path: '/AniDb/UDPRateLimit/SlowRateMultiplier', value: 2 },
      { op: 'replace', path: '/AniDb/HTTPRateLimit/SlowRatePeriodMultiplier', value: 20 },
      { op: 'replace', path: '/AniDb/HTTPRateLimit/ResetPeriodMultiplier', value: 30 },
    ]);
    expect(res.statusCode).toBe(400);
    const errors = res.json().errors;
    expect(Object.keys(errors).sort()).toEqual(['AniDb.HTTPRateLimit.ResetPeriodMultiplier', 'AniDb.UDPRateLimit.SlowRateMultiplier']);
    expect(errors['AniDb.UDPRateLimit.SlowRateMultiplier'][0]).toMatch(/at least 6 s/);
    expect(errors['AniDb.HTTPRateLimit.ResetPeriodMultiplier'][0]).toMatch(/at least 2 × SlowRatePeriodMultiplier \(40\)/);
  });

  it('keeps the contract range message for values outside 2–1000', async () => {
    const res = await patch([{ op: 'replace', path: '/AniDb/HTTPRateLimit/BaseRateInSeconds', value: 1 }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      'AniDb.HTTPRateLimit.BaseRateInSeconds': ['The field BaseRateInSeconds must be between 2 and 1000.'],
    });
  });

  it('accepts values within the bounds, numeric strings included, and paces by them', async () => {
    const res = await patch([
      { op: 'replace', path: '/AniDb/HTTPRateLimit/BaseRateInSeconds', value: '3' },
      { op: 'replace', path: '/AniDb/HTTPRateLimit/SlowRateMultiplier', value: '2' },
      { op: 'replace', path: '/AniDb/HTTPRateLimit/SlowRatePeriodMultiplier', value: '30' },
      { op: 'replace', path: '/AniDb/HTTPRateLimit/ResetPeriodMultiplier', value: '60' },
    ]);
    expect(res.statusCode).toBe(200);
    expect(server.services.settings.current.AniDb.HTTPRateLimit).toEqual({
      BaseRateInSeconds: 3,
      SlowRateMultiplier: 2,
      SlowRatePeriodMultiplier: 30,
      ResetPeriodMultiplier: 60,
    });
    expect(server.services.metadata.anidb.httpLimiter.current).toEqual({
      shortGapMs: 3_000,
      longGapMs: 6_000,
      fastPeriodMs: 90_000,
      resetPeriodMs: 180_000,
    });
  });
});
