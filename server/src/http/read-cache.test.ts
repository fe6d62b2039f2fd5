import { describe, expect, it } from 'vitest';
import { readConfig } from '../config.js';
import { ReadCache } from './read-cache.js';

describe('ReadCache', () => {
  it('shares one computation between concurrent callers, keeps it for its lifetime and forgets it on clear', async () => {
    let now = 0;
    let computed = 0;
    const cache = new ReadCache(1000, () => now);
    const compute = async () => ++computed;
    expect(await Promise.all([cache.get('a', compute), cache.get('a', compute)])).toEqual([1, 1]);
    now = 999;
    expect(await cache.get('a', compute)).toBe(1);
    now = 1000;
    expect(await cache.get('a', compute)).toBe(2);
    cache.clear();
    expect(await cache.get('a', compute)).toBe(3);
    expect(await cache.get('b', compute)).toBe(4);
  });

  it('does not keep a failure', async () => {
    const cache = new ReadCache(1000, () => 0);
    await expect(cache.get('x', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await cache.get('x', async () => 'ok')).toBe('ok');
  });

  it('keeps nothing with a lifetime of 0 (SHOKO_READ_CACHE=off)', async () => {
    let computed = 0;
    const cache = new ReadCache(0, () => 0);
    const compute = async () => ++computed;
    expect(await Promise.all([cache.get('a', compute), cache.get('a', compute)])).toEqual([1, 2]);
  });

  it('is turned off by SHOKO_READ_CACHE=off and refuses other values', () => {
    expect(readConfig({}).readCache).toBe(true);
    expect(readConfig({ SHOKO_READ_CACHE: 'OFF' }).readCache).toBe(false);
    expect(() => readConfig({ SHOKO_READ_CACHE: 'no' })).toThrow(/SHOKO_READ_CACHE must be/);
  });
});
