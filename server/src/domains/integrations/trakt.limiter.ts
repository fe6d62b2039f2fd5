/**
 * Trakt's documented limits for an authorized application: writes (POST, PUT, DELETE) at most one per second, reads
 * at most 1000 per 5 minutes. A 429 carries `Retry-After`; until it runs out nothing is sent at all.
 */
export interface TraktLimits {
  writeIntervalMs: number;
  reads: number;
  readWindowMs: number;
}

export const TRAKT_LIMITS: TraktLimits = { writeIntervalMs: 1000, reads: 1000, readWindowMs: 5 * 60_000 };

/** Added to every wait: Trakt counts by its own clock, and timers fire a little early. */
const MARGIN_MS = 50;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** The wait a `Retry-After` value asks for (seconds or an HTTP date); 1 s when it is missing or unreadable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number {
  if (value !== undefined && /^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  const date = value ? Date.parse(value) : NaN;
  return Number.isNaN(date) ? 1000 : Math.max(0, date - now);
}

/** Spaces requests to Trakt; one limiter per client, shared by every caller. */
export class TraktLimiter {
  private writes: Promise<unknown> = Promise.resolve();
  private lastWriteAt = 0;
  private readonly readTimes: number[] = [];
  private pausedUntil = 0;

  constructor(private readonly limits: TraktLimits = TRAKT_LIMITS) {}

  /** Nothing goes out before `ms` from now (a 429's Retry-After). */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, Date.now() + ms + MARGIN_MS);
  }

  private async waitForPause(): Promise<void> {
    while (Date.now() < this.pausedUntil) await sleep(this.pausedUntil - Date.now());
  }

  /** Runs `request` once Trakt's limits allow it; writes run one at a time. */
  run<T>(kind: 'read' | 'write', request: () => Promise<T>): Promise<T> {
    if (kind === 'read') return this.read(request);
    const next = this.writes.then(async () => {
      await this.waitForPause();
      const due = this.lastWriteAt + this.limits.writeIntervalMs + MARGIN_MS;
      if (this.lastWriteAt && Date.now() < due) await sleep(due - Date.now());
      await this.waitForPause();
      // Counted from the answer: the next write then reaches Trakt at least the interval after this one did, however
      // long this one took to get there.
      try {
        return await request();
      } finally {
        this.lastWriteAt = Date.now();
      }
    });
    this.writes = next.catch(() => undefined);
    return next;
  }

  private async read<T>(request: () => Promise<T>): Promise<T> {
    for (;;) {
      await this.waitForPause();
      const now = Date.now();
      while (this.readTimes.length && this.readTimes[0] <= now - this.limits.readWindowMs) this.readTimes.shift();
      if (this.readTimes.length < this.limits.reads) break;
      await sleep(this.readTimes[0] + this.limits.readWindowMs - now + MARGIN_MS);
    }
    this.readTimes.push(Date.now());
    return request();
  }
}
