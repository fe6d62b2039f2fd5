import { AniDBUpdateType, type AniDBState } from '@shoko-ts/contract';

export interface AniDBHttpBanState {
  banned: boolean;
  /** When requests may resume; null while not banned. */
  until: Date | null;
  reason: string | null;
  /** When the ban was seen; null while not banned. */
  since: Date | null;
}

export type AniDBHttpBanListener = (state: AniDBHttpBanState) => void;

/** A back-off pause of every HTTP request after failures in a row; times in ms since the epoch. */
export interface AniDBHttpPause {
  reason: string;
  since: number;
  until: number;
}

export type AniDBHttpPauseListener = (pause: AniDBHttpPause | null) => void;

const NOT_BANNED: AniDBHttpBanState = { banned: false, until: null, reason: null, since: null };

/**
 * The HTTP API's ban: raised for a fixed pause (a repeat restarts it) and lowered when the pause is over. Expiry is
 * also checked on every read, so a timer that fires late cannot keep a ban alive.
 */
export class HttpBanTracker {
  private current: AniDBHttpBanState = NOT_BANNED;
  private timer: NodeJS.Timeout | null = null;
  private readonly listeners = new Set<AniDBHttpBanListener>();

  private currentPause: AniDBHttpPause | null = null;
  private pauseTimer: NodeJS.Timeout | null = null;
  private readonly pauseListeners = new Set<AniDBHttpPauseListener>();

  /** Failed requests in a row (network errors, timeouts, 5xx); each one lengthens the next pause. */
  failureStreak = 0;

  constructor(private readonly now: () => number) {}

  /** The back-off pause in force, null when requests may go out (expiry is checked on every read). */
  get pause(): AniDBHttpPause | null {
    if (this.currentPause && this.now() >= this.currentPause.until) this.endPause();
    return this.currentPause;
  }

  /** Pauses every request until `until` (a repeat replaces the pause); nothing happens if that has passed. */
  pauseUntil(reason: string, until: number, since: number = this.now()): void {
    const pauseMs = until - this.now();
    if (pauseMs <= 0) return;
    this.clearPauseTimer();
    this.pauseTimer = setTimeout(() => this.endPause(), pauseMs);
    this.pauseTimer.unref();
    this.currentPause = { reason, since, until };
    for (const listener of this.pauseListeners) listener(this.currentPause);
  }

  endPause(): void {
    this.clearPauseTimer();
    if (!this.currentPause) return;
    this.currentPause = null;
    for (const listener of this.pauseListeners) listener(null);
  }

  /** Every pause start and end; returns the function that unsubscribes. */
  onPauseChange(listener: AniDBHttpPauseListener): () => void {
    this.pauseListeners.add(listener);
    return () => this.pauseListeners.delete(listener);
  }

  get state(): AniDBHttpBanState {
    if (this.current.until && this.now() >= this.current.until.getTime()) this.lower();
    return this.current;
  }

  raise(reason: string, pauseMs: number, since: number = this.now()): void {
    this.clearTimer();
    this.timer = setTimeout(() => this.lower(), pauseMs);
    this.timer.unref();
    this.publish({ banned: true, until: new Date(this.now() + pauseMs), reason, since: new Date(since) });
  }

  /** Raises the ban until an absolute time (read back from the database); nothing happens if that has passed. */
  raiseUntil(reason: string, until: number, since?: number): void {
    const pauseMs = until - this.now();
    if (pauseMs > 0) this.raise(reason, pauseMs, since);
  }

  lower(): void {
    this.clearTimer();
    if (this.current.banned) this.publish(NOT_BANNED);
  }

  onChange(listener: AniDBHttpBanListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  dispose(): void {
    this.clearTimer();
    this.clearPauseTimer();
    this.listeners.clear();
    this.pauseListeners.clear();
  }

  private clearPauseTimer(): void {
    if (this.pauseTimer) clearTimeout(this.pauseTimer);
    this.pauseTimer = null;
  }

  private publish(state: AniDBHttpBanState): void {
    this.current = state;
    for (const listener of this.listeners) listener(state);
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/** The ban in the shape of the `anidb` SignalR feed (`AniDB:AniDBHttpStateUpdate`). */
export function httpBanToAniDBState(state: AniDBHttpBanState, now: number = Date.now()): AniDBState {
  return {
    Value: state.banned,
    Message: state.reason,
    UpdateType: AniDBUpdateType.HTTPBan,
    UpdateTime: (state.since ?? new Date(now)).toISOString(),
    PauseTimeSecs: state.until ? Math.max(0, Math.round((state.until.getTime() - (state.since?.getTime() ?? now)) / 1000)) : 0,
  };
}

/** The back-off pause in the shape of the `anidb` SignalR feed: `OverloadBackoff`, raised while it lasts. */
export function httpPauseToAniDBState(pause: AniDBHttpPause | null, now: number = Date.now()): AniDBState {
  return {
    Value: pause !== null,
    Message: pause?.reason ?? null,
    UpdateType: AniDBUpdateType.OverloadBackoff,
    UpdateTime: new Date(pause?.since ?? now).toISOString(),
    PauseTimeSecs: pause ? Math.max(0, Math.round((pause.until - pause.since) / 1000)) : 0,
  };
}
