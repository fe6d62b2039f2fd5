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
});
