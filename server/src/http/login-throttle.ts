import { problemError } from './problem.js';

/**
 * Slows password guessing on the routes that check a password (login, password change, the first-run credential
 * test). Failures are counted per user name and per client address; the first few are free, then each further failure
 * blocks that name or address for a window that doubles up to a ceiling. While blocked, a request is answered 429 with
 * Retry-After before any password is checked, and such refused attempts do not lengthen the block, so the real owner
 * waits at most the current window. A success clears both counters.
 */
export interface LoginThrottleOptions {
  /** Failures allowed before the first block. */
  freeFailures: number;
  /** The first block's length; each further failure doubles it. */
  firstBlockMs: number;
  /** The longest block. */
  maxBlockMs: number;
  /** A counter untouched for this long is forgotten. */
  forgetAfterMs: number;
  now: () => number;
}

export const DEFAULT_LOGIN_THROTTLE: LoginThrottleOptions = {
  freeFailures: 5,
  firstBlockMs: 2_000,
  maxBlockMs: 5 * 60_000,
  forgetAfterMs: 60 * 60_000,
  now: () => Date.now(),
};

interface Counter {
  failures: number;
  blockedUntil: number;
  touchedAt: number;
}

export interface LoginAttempt {
  userName: string | undefined;
  address: string;
}

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number; blockedBy: 'user' | 'address' };

export interface BlockNotice {
  key: 'user' | 'address';
  value: string;
  failures: number;
  blockMs: number;
}

const MAX_COUNTERS = 10_000;

export class LoginThrottle {
  private readonly counters = new Map<string, Counter>();
  private readonly options: LoginThrottleOptions;

  constructor(
    options: Partial<LoginThrottleOptions> = {},
    private readonly onBlock: (notice: BlockNotice) => void = () => {},
  ) {
    this.options = { ...DEFAULT_LOGIN_THROTTLE, ...options };
  }

  /** Whether an attempt may go on to check its password now. */
  check(attempt: LoginAttempt): ThrottleVerdict {
    const now = this.options.now();
    for (const [kind, key] of this.keysOf(attempt)) {
      const counter = this.counters.get(key);
      if (counter && counter.blockedUntil > now) {
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((counter.blockedUntil - now) / 1000)), blockedBy: kind };
      }
    }
    return { allowed: true };
  }

  recordFailure(attempt: LoginAttempt): void {
    const now = this.options.now();
    this.forgetStale(now);
    for (const [kind, key] of this.keysOf(attempt)) {
      const counter = this.counters.get(key) ?? { failures: 0, blockedUntil: 0, touchedAt: now };
      counter.failures += 1;
      counter.touchedAt = now;
      const beyondFree = counter.failures - this.options.freeFailures;
      if (beyondFree >= 0) {
        const blockMs = Math.min(this.options.maxBlockMs, this.options.firstBlockMs * 2 ** Math.min(beyondFree, 30));
        counter.blockedUntil = now + blockMs;
        this.onBlock({ key: kind, value: key.slice(key.indexOf(':') + 1), failures: counter.failures, blockMs });
      }
      this.counters.set(key, counter);
    }
  }

  recordSuccess(attempt: LoginAttempt): void {
    for (const [, key] of this.keysOf(attempt)) this.counters.delete(key);
  }

  private keysOf(attempt: LoginAttempt): Array<['user' | 'address', string]> {
    const keys: Array<['user' | 'address', string]> = [['address', `address:${attempt.address}`]];
    const name = attempt.userName?.trim().toLowerCase();
    if (name) keys.push(['user', `user:${name}`]);
    return keys;
  }

  private forgetStale(now: number): void {
    if (this.counters.size < MAX_COUNTERS) return;
    for (const [key, counter] of this.counters) {
      if (counter.blockedUntil <= now && now - counter.touchedAt > this.options.forgetAfterMs) this.counters.delete(key);
    }
    // A flood of distinct names or addresses must not grow memory without bound: drop the oldest unblocked entries.
    if (this.counters.size >= MAX_COUNTERS) {
      for (const [key, counter] of this.counters) {
        if (this.counters.size < MAX_COUNTERS / 2) break;
        if (counter.blockedUntil <= now) this.counters.delete(key);
      }
    }
  }
}

/** Log line for a new block, worded for an admin reading the log. */
export function describeBlock(notice: BlockNotice): string {
  const who = notice.key === 'user' ? `the user name ${notice.value}` : `the address ${notice.value}`;
  return `Login attempts for ${who} are blocked for ${Math.round(notice.blockMs / 1000)} s after ${notice.failures} failures`;
}

/**
 * Runs one password check under the throttle: refuses with 429 and Retry-After while the name or address is blocked,
 * and counts the outcome (`check` resolves to whether the password was right).
 */
export async function throttledPasswordCheck(
  throttle: LoginThrottle,
  attempt: LoginAttempt,
  check: () => Promise<boolean>,
): Promise<boolean> {
  const verdict = throttle.check(attempt);
  if (!verdict.allowed) {
    throw problemError(429, `Too many failed attempts; try again in ${verdict.retryAfterSeconds} s.`, {
      'Retry-After': String(verdict.retryAfterSeconds),
    });
  }
  const ok = await check();
  if (ok) throttle.recordSuccess(attempt);
  else throttle.recordFailure(attempt);
  return ok;
}
