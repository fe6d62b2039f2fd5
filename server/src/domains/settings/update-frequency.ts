import { ScheduledUpdateFrequency } from '@shoko-ts/contract';

const HOUR = 60 * 60_000;

/** A `ScheduledUpdateFrequency` setting (`AniDb.*_UpdateFrequency`, `TraktTv.*Frequency`) in milliseconds; null = Never. */
export const UPDATE_FREQUENCY_MS: Record<number, number | null> = {
  [ScheduledUpdateFrequency.Never]: null,
  [ScheduledUpdateFrequency.HoursSix]: 6 * HOUR,
  [ScheduledUpdateFrequency.HoursTwelve]: 12 * HOUR,
  [ScheduledUpdateFrequency.Daily]: 24 * HOUR,
  [ScheduledUpdateFrequency.WeekOne]: 7 * 24 * HOUR,
  [ScheduledUpdateFrequency.MonthOne]: 30 * 24 * HOUR,
};
