import { describe, expect, it } from 'vitest';
import { KeptFigures } from './kept-figures.js';

describe('kept figures', () => {
  it('computes a key once until cleared or expired, and keeps no failure', async () => {
    let now = 0;
    let computed = 0;
    const kept = new KeptFigures(1000, () => now);
    const count = () => Promise.resolve(++computed);
    expect(await kept.get('a', count)).toBe(1);
    expect(await kept.get('a', count)).toBe(1);
    expect(await kept.get('b', count)).toBe(2);
    kept.clear();
    expect(await kept.get('a', count)).toBe(3);
    now = 1000;
    expect(await kept.get('a', count)).toBe(4);
    await expect(kept.get('c', () => Promise.reject(new Error('database gone')))).rejects.toThrow('database gone');
    expect(await kept.get('c', count)).toBe(5);
  });

  it('while warming, computes one figure at a time, each after a turn of the event loop (requests are served between)', async () => {
    const kept = new KeptFigures(1000);
    const order: string[] = [];
    await kept.warm(async () => {
      const count = (key: string) => async () => {
        order.push(`start ${key}`);
        if (key === 'a') setImmediate(() => order.push('request during a'));
        await Promise.resolve();
        order.push(`end ${key}`);
        return key.length;
      };
      setImmediate(() => order.push('request'));
      await Promise.all([kept.get('a', count('a')), kept.get('bb', count('bb')), kept.get('ccc', count('ccc'))]);
    });
    expect(order).toEqual(['request', 'start a', 'end a', 'request during a', 'start bb', 'end bb', 'start ccc', 'end ccc']);
    // Out of the warm-up, a computation starts at once.
    let started = false;
    const value = kept.get('d', () => {
      started = true;
      return Promise.resolve(1);
    });
    expect(started).toBe(true);
    expect(await value).toBe(1);
  });
});
