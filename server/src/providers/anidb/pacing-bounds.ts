import type { RateLimitSettings } from '@shoko-ts/contract';

/** AniDB's long-term rule: no more than one request every 4 s over an extended time (counted here over an hour). */
export const LONG_TERM_GAP_MS = 4_000;
/** Requests the long-term rule allows in an hour. */
export const LONG_TERM_PER_HOUR = 3_600_000 / LONG_TERM_GAP_MS;

/**
 * Bounds on `AniDb.HTTPRateLimit` / `AniDb.UDPRateLimit` beyond the contract's 2–1000 that keep the long-term rule
 * whatever is configured:
 * - the slow rate (base × slow multiplier) is one request every 6 s or slower, so the fast start plus an hour at the
 *   slow rate stays far under 900 an hour;
 * - the fast start (the slow-rate period) is at most 30 base gaps, so it is a start and not a way of running fast;
 * - the quiet time that makes the pacing fast again (the reset period) is at least twice the fast start, so bursts
 *   separated by quiet spells average one request every 6 s or slower.
 */
export const PACING_BOUNDS = {
  range: { min: 2, max: 1000 },
  minSlowGapSeconds: 6,
  maxSlowRatePeriodMultiplier: 30,
  resetToPeriodRatio: 2,
} as const;

export type RateLimitField = keyof RateLimitSettings;

/** What in these settings would undo the pacing, by field; empty when they keep the rule. */
export function pacingProblems(settings: RateLimitSettings): Array<{ field: RateLimitField; message: string }> {
  const { min, max } = PACING_BOUNDS.range;
  const problems: Array<{ field: RateLimitField; message: string }> = [];
  for (const field of ['BaseRateInSeconds', 'SlowRateMultiplier', 'SlowRatePeriodMultiplier', 'ResetPeriodMultiplier'] as const) {
    const value = settings[field];
    if (!(value >= min && value <= max)) problems.push({ field, message: `The field ${field} must be between ${min} and ${max}.` });
  }
  if (problems.length) return problems;
  const { BaseRateInSeconds: base, SlowRateMultiplier: slow, SlowRatePeriodMultiplier: period, ResetPeriodMultiplier: reset } = settings;
  if (base * slow < PACING_BOUNDS.minSlowGapSeconds)
    problems.push({
      field: 'SlowRateMultiplier',
      message: `BaseRateInSeconds × SlowRateMultiplier must be at least ${PACING_BOUNDS.minSlowGapSeconds} s: AniDB allows one request every ${LONG_TERM_GAP_MS / 1000} s over time.`,
    });
  if (period > PACING_BOUNDS.maxSlowRatePeriodMultiplier)
    problems.push({
      field: 'SlowRatePeriodMultiplier',
      message: `The field SlowRatePeriodMultiplier must be between ${min} and ${PACING_BOUNDS.maxSlowRatePeriodMultiplier}: a longer fast start breaks AniDB's long-term rule.`,
    });
  else if (reset < period * PACING_BOUNDS.resetToPeriodRatio)
    problems.push({
      field: 'ResetPeriodMultiplier',
      message: `ResetPeriodMultiplier must be at least ${PACING_BOUNDS.resetToPeriodRatio} × SlowRatePeriodMultiplier (${period * PACING_BOUNDS.resetToPeriodRatio}): shorter quiet spells let bursts break AniDB's long-term rule.`,
    });
  return problems;
}

/**
 * The settings moved inside the bounds: settings saved before the bounds existed (or edited by hand) still pace
 * within AniDB's rules. Settings within the bounds come back unchanged.
 */
export function boundedRateLimit(settings: RateLimitSettings): RateLimitSettings {
  const { min, max } = PACING_BOUNDS.range;
  const clamp = (value: number, low: number, high: number) =>
    Number.isFinite(value) ? Math.min(high, Math.max(low, Math.round(value))) : low;
  const base = clamp(settings.BaseRateInSeconds, min, max);
  const slow = clamp(settings.SlowRateMultiplier, Math.max(min, Math.ceil(PACING_BOUNDS.minSlowGapSeconds / base)), max);
  const period = clamp(settings.SlowRatePeriodMultiplier, min, PACING_BOUNDS.maxSlowRatePeriodMultiplier);
  const reset = clamp(settings.ResetPeriodMultiplier, period * PACING_BOUNDS.resetToPeriodRatio, max);
  return { BaseRateInSeconds: base, SlowRateMultiplier: slow, SlowRatePeriodMultiplier: period, ResetPeriodMultiplier: reset };
}
