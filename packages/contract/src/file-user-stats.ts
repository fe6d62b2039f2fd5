import { Type, type Static } from '@sinclair/typebox';

/** A user's record of one file (contract files.md §1.6); `ResumePosition` is a TimeSpan text. */
export const FileUserStats = Type.Object({
  ResumePosition: Type.Union([Type.String(), Type.Null()]),
  WatchedCount: Type.Integer({ minimum: 0 }),
  LastWatchedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  LastUpdatedAt: Type.String({ format: 'date-time' }),
});
export type FileUserStats = Static<typeof FileUserStats>;

/** PUT body: every field optional, defaults of files.md §1.6 (position 0, count 0, never watched, updated now). */
export const FileUserStatsInput = Type.Partial(FileUserStats);
export type FileUserStatsInput = Static<typeof FileUserStatsInput>;

/** Playback events a player reports through File/{id}/Scrobble; anything else counts as no specific reason. */
export const SCROBBLE_EVENTS = ['play', 'resume', 'pause', 'stop', 'scrobble', 'user-interaction'] as const;
export type ScrobbleEvent = (typeof SCROBBLE_EVENTS)[number];
