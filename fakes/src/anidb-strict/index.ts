/**
 * AniDB's published rules, enforced the way AniDB enforces them: a client that sends faster than allowed, asks for
 * the same anime twice within a day, or keeps talking during a ban is banned (the first reply says so, then
 * silence), and every request during the ban starts the ban again. Shared by the strict UDP and HTTP fakes.
 */

export interface StrictPacing {
  /** Shortest gap AniDB allows between two requests (UDP and HTTP: 2 s). */
  minGapMs: number;
  /** Long-term average gap (UDP: 4 s; HTTP: 2 s). */
  averageGapMs: number;
  /** Requests AniDB lets through above the average before the long-term rule bites (UDP: 5). */
  burst: number;
  /** The window the long-term average is counted over. */
  windowMs: number;
  /** Arrival jitter forgiven on each short gap (loopback timers and a busy machine are not exact). */
  toleranceMs: number;
}

export interface StrictRules {
  pacing: StrictPacing;
  /**
   * AniDB's long-term rule, one request every 4 s "over an extended time", held here as at most `max` requests in
   * any `windowMs` (an hour: 900). Unset = not checked.
   */
  longTerm?: { windowMs: number; max: number };
  /** The clock requests are stamped with (a bench's fake clock); default `Date.now`. */
  now?: () => number;
  /** How long a ban lasts; restarted by every request during it. */
  banMs: number;
  /** HTTP: the same anime may be asked for once in this long (AniDB: a day). */
  animeRepeatMs?: number;
}

/**
 * AniDB's numbers, with time scaled by `scale` (0.05 = 20× faster) for tests and the demo; the day rule stays a day.
 * `images` is AniDB's image server, held to the same short-term rule as HTTP. Every protocol is held to the long-term
 * rule: at most 900 requests in any hour (scaled).
 */
export function anidbStrictRules(protocol: 'udp' | 'http' | 'images', scale = 1, banMs = 30 * 60_000): StrictRules {
  const minGapMs = 2_000 * scale;
  const averageGapMs = (protocol === 'udp' ? 4_000 : 2_000) * scale;
  return {
    pacing: { minGapMs, averageGapMs, burst: protocol === 'udp' ? 5 : 1, windowMs: 60_000 * scale, toleranceMs: minGapMs / 2 },
    longTerm: { windowMs: 3_600_000 * scale, max: 900 },
    banMs,
    ...(protocol === 'http' ? { animeRepeatMs: 24 * 60 * 60_000 } : {}),
  };
}

export interface StrictBan {
  /** When the ban started (ms since the epoch). */
  at: number;
  reason: string;
}

/** Gaps the short-gap rule is checked over. */
const SPAN = 3;

export type StrictVerdict = { kind: 'ok' } | { kind: 'ban'; reason: string } | { kind: 'silent' };

/** Watches one client's requests; `bans` lists every ban handed out (a well-behaved client has none). */
export class StrictAniDB {
  readonly bans: StrictBan[] = [];
  /** When every request arrived, in order (bans and silence included). */
  readonly times: number[] = [];
  private arrivals: number[] = [];
  /** Arrivals within the long-term window, oldest first. */
  private longTermArrivals: number[] = [];
  private bannedUntil = 0;
  private readonly animeAskedAt = new Map<number, number>();
  private pendingBan: string | null = null;

  private readonly now: () => number;

  constructor(
    readonly rules: StrictRules,
    now?: () => number,
  ) {
    this.now = now ?? rules.now ?? Date.now;
  }

  get banned(): boolean {
    return this.now() < this.bannedUntil;
  }

  /**
   * AniDB also bans for reasons a client cannot see (another client at the same address, a moderator): the next
   * request is answered with a ban for `reason`, whatever its timing.
   */
  banNextRequest(reason: string): void {
    this.pendingBan = reason;
  }

  /**
   * One request arriving now; `animeId` for HTTP anime requests, `concurrent` when another request of the client is
   * still being answered. Talking during a ban restarts it and gets silence.
   */
  request(options: { animeId?: number; concurrent?: boolean } = {}): StrictVerdict {
    const at = this.now();
    this.times.push(at);
    if (at < this.bannedUntil) {
      this.bannedUntil = at + this.rules.banMs;
      return { kind: 'silent' };
    }
    const reason = this.pendingBan ?? this.violation(at, options);
    this.pendingBan = null;
    this.arrivals.push(at);
    this.longTermArrivals.push(at);
    if (!reason) {
      // Only an anime that was served counts as asked for: a ban reply carries no anime.
      if (options.animeId !== undefined) this.animeAskedAt.set(options.animeId, at);
      return { kind: 'ok' };
    }
    this.bannedUntil = at + this.rules.banMs;
    this.bans.push({ at, reason });
    return { kind: 'ban', reason };
  }

  private violation(at: number, { animeId, concurrent }: { animeId?: number; concurrent?: boolean }): string | null {
    const { minGapMs, averageGapMs, burst, windowMs, toleranceMs } = this.rules.pacing;
    if (concurrent) return 'more than one request at a time';
    // AniDB enforces the short gap after the first `burst` packets. It is checked over the last three gaps, so one
    // packet that reached us late (a busy machine) does not look like two sent too close together.
    if (this.arrivals.length >= Math.max(burst, SPAN)) {
      const span = at - this.arrivals[this.arrivals.length - SPAN];
      if (span < SPAN * (minGapMs - toleranceMs)) return `${SPAN + 1} requests within ${span} ms (at least ${minGapMs} ms apart allowed)`;
    }
    this.arrivals = this.arrivals.filter((time) => time > at - windowMs);
    const allowed = Math.floor(windowMs / averageGapMs) + burst;
    if (this.arrivals.length + 1 > allowed) return `${this.arrivals.length + 1} requests within ${windowMs} ms (at most ${allowed})`;
    const longTerm = this.rules.longTerm;
    if (longTerm) {
      let drop = 0;
      while (drop < this.longTermArrivals.length && this.longTermArrivals[drop] <= at - longTerm.windowMs) drop++;
      if (drop) this.longTermArrivals = this.longTermArrivals.slice(drop);
      if (this.longTermArrivals.length + 1 > longTerm.max)
        return `${this.longTermArrivals.length + 1} requests within ${longTerm.windowMs} ms (the long-term rule allows ${longTerm.max})`;
    }
    if (animeId !== undefined && this.rules.animeRepeatMs) {
      const asked = this.animeAskedAt.get(animeId);
      if (asked !== undefined && at - asked < this.rules.animeRepeatMs) return `anime ${animeId} requested twice within a day`;
    }
    return null;
  }
}
