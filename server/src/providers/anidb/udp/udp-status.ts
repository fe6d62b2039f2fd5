import { AniDBUpdateType, type AniDBState } from '@shoko-ts/contract';

/** The pauses and problems of the UDP API, in the shape the `anidb` SignalR feed sends (contract `AniDBState`). */
export type UdpStatusType = (typeof AniDBUpdateType)['UDPBan' | 'InvalidSession' | 'OverloadBackoff'];

export type UdpStatusListener = (state: AniDBState) => void;

/**
 * Tracks one `AniDBState` per update type. A raised state with a pause lowers itself when the pause is over (the
 * check is also made on every read, so a paused timer cannot keep a ban alive).
 */
export class UdpStatus {
  private readonly states = new Map<UdpStatusType, AniDBState>();
  private readonly pausedUntil = new Map<UdpStatusType, number>();
  private readonly timers = new Map<UdpStatusType, NodeJS.Timeout>();
  private readonly listeners = new Set<UdpStatusListener>();

  /** Failures in a row (silence, 503/504, 6xx) since AniDB last answered normally; each one doubles the pause. */
  failureStreak = 0;
  /** Credentials AniDB answered 500 LOGIN FAILED to: never sent again until they change. */
  rejectedCredentials: string | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  get(type: UdpStatusType): AniDBState {
    const until = this.pausedUntil.get(type);
    if (until !== undefined && this.now() >= until) this.lower(type);
    return this.states.get(type) ?? this.idle(type);
  }

  isRaised(type: UdpStatusType): boolean {
    return this.get(type).Value;
  }

  /** Milliseconds left in the pause of `type`, 0 when not paused. */
  remainingPauseMs(type: UdpStatusType): number {
    if (!this.isRaised(type)) return 0;
    return Math.max(0, (this.pausedUntil.get(type) ?? 0) - this.now());
  }

  /** Raises `type`; with `pauseMs` > 0 it lowers itself afterwards (a repeat restarts the pause). */
  raise(type: UdpStatusType, message: string, pauseMs = 0): void {
    this.clearTimer(type);
    if (pauseMs > 0) {
      this.pausedUntil.set(type, this.now() + pauseMs);
      const timer = setTimeout(() => this.lower(type), pauseMs);
      timer.unref();
      this.timers.set(type, timer);
    } else {
      this.pausedUntil.delete(type);
    }
    this.publish({
      Value: true,
      Message: message,
      UpdateType: type,
      UpdateTime: this.timestamp(),
      PauseTimeSecs: Math.round(pauseMs / 1000),
    });
  }

  /** Raises `type` until an absolute time (a ban read back from the database); nothing happens if that has passed. */
  raiseUntil(type: UdpStatusType, message: string, until: number): void {
    const pauseMs = until - this.now();
    if (pauseMs > 0) this.raise(type, message, pauseMs);
  }

  /** When the pause of `type` ends (ms since the epoch), null when not paused. */
  pausedUntilTime(type: UdpStatusType): number | null {
    return this.isRaised(type) ? (this.pausedUntil.get(type) ?? null) : null;
  }

  lower(type: UdpStatusType): void {
    this.clearTimer(type);
    this.pausedUntil.delete(type);
    if (!this.states.get(type)?.Value) return;
    this.publish({ ...this.idle(type), UpdateTime: this.timestamp() });
  }

  /** Registers a listener for every change; returns the function that removes it. */
  onChange(listener: UdpStatusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  dispose(): void {
    for (const type of [...this.timers.keys()]) this.clearTimer(type);
    this.listeners.clear();
  }

  private publish(state: AniDBState): void {
    this.states.set(state.UpdateType as UdpStatusType, state);
    for (const listener of this.listeners) listener(state);
  }

  private idle(type: UdpStatusType): AniDBState {
    return { Value: false, Message: null, UpdateType: type, UpdateTime: new Date(0).toISOString(), PauseTimeSecs: 0 };
  }

  private timestamp(): string {
    return new Date(this.now()).toISOString();
  }

  private clearTimer(type: UdpStatusType): void {
    clearTimeout(this.timers.get(type));
    this.timers.delete(type);
  }
}
