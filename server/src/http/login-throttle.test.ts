import { describe, expect, it } from 'vitest';
import { LoginThrottle, type BlockNotice } from './login-throttle.js';

function throttleWithClock() {
  let now = 1_000_000;
  const notices: BlockNotice[] = [];
  const throttle = new LoginThrottle({ now: () => now }, (notice) => notices.push(notice));
  return { throttle, notices, advance: (ms: number) => (now += ms) };
}

describe('LoginThrottle', () => {
  const attempt = { userName: 'Admin', address: '10.0.0.5' };

  it('lets five failures through, then blocks with a Retry-After that doubles per further failure', () => {
    const { throttle, notices, advance } = throttleWithClock();
    for (let i = 0; i < 4; i += 1) {
      expect(throttle.check(attempt)).toEqual({ allowed: true });
      throttle.recordFailure(attempt);
    }
    expect(throttle.check(attempt).allowed).toBe(true);
    throttle.recordFailure(attempt);
    expect(throttle.check(attempt)).toEqual({ allowed: false, retryAfterSeconds: 2, blockedBy: 'address' });
    expect(notices.map((n) => [n.key, n.value, n.failures, n.blockMs])).toEqual([
      ['address', '10.0.0.5', 5, 2000],
      ['user', 'admin', 5, 2000],
    ]);

    advance(2_000);
    expect(throttle.check(attempt).allowed).toBe(true);
    throttle.recordFailure(attempt);
    expect(throttle.check(attempt)).toMatchObject({ allowed: false, retryAfterSeconds: 4 });
  });

  it('never blocks longer than the ceiling, and refused attempts do not lengthen the block', () => {
    const { throttle, advance } = throttleWithClock();
    for (let i = 0; i < 40; i += 1) {
      advance(10 * 60_000);
      throttle.recordFailure(attempt);
    }
    expect(throttle.check(attempt)).toMatchObject({ allowed: false, retryAfterSeconds: 300 });
    for (let i = 0; i < 100; i += 1) throttle.check(attempt);
    advance(300_000);
    expect(throttle.check(attempt).allowed).toBe(true);
  });

  it('counts per user name across addresses and per address across user names', () => {
    const { throttle } = throttleWithClock();
    for (let i = 0; i < 5; i += 1) throttle.recordFailure({ userName: 'admin', address: `10.0.0.${i}` });
    expect(throttle.check({ userName: 'ADMIN ', address: '10.0.0.99' })).toMatchObject({ allowed: false, blockedBy: 'user' });
    expect(throttle.check({ userName: 'someone', address: '10.0.0.99' }).allowed).toBe(true);

    for (let i = 0; i < 5; i += 1) throttle.recordFailure({ userName: `guess${i}`, address: '192.0.2.1' });
    expect(throttle.check({ userName: 'someone', address: '192.0.2.1' })).toMatchObject({ allowed: false, blockedBy: 'address' });
  });

  it('forgets the failures of a name and an address after a success', () => {
    const { throttle } = throttleWithClock();
    for (let i = 0; i < 4; i += 1) throttle.recordFailure(attempt);
    throttle.recordSuccess(attempt);
    throttle.recordFailure(attempt);
    expect(throttle.check(attempt).allowed).toBe(true);
  });
});
