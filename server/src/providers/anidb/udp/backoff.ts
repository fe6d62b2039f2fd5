/**
 * Pauses after consecutive failures (silence, 503/504, 6xx, failed HTTP requests): 30 s, then growing, at most 2 h.
 * Shared by both protocols; each keeps its own streak.
 */
export const BACKOFF_STEPS_MS = [30_000, 60_000, 2 * 60_000, 5 * 60_000, 10 * 60_000, 30 * 60_000, 60 * 60_000, 2 * 60 * 60_000];

/** The pause for the `streak`-th failure in a row (1-based). */
export function backoffPauseMs(streak: number): number {
  return BACKOFF_STEPS_MS[Math.min(Math.max(streak, 1), BACKOFF_STEPS_MS.length) - 1];
}

/** The streak a pause of this length stands for (a pause read back after a restart carries on growing from there). */
export function streakOfPause(pauseMs: number): number {
  return Math.max(1, BACKOFF_STEPS_MS.filter((step) => step <= pauseMs + 1_000).length);
}
