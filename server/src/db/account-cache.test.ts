import { describe, expect, it } from 'vitest';
import { AccountCache } from './account-cache.js';

describe('AccountCache', () => {
  it('loads a key once and answers later reads from memory', async () => {
    const cache = new AccountCache();
    let loads = 0;
    const load = async () => ({ userId: 1, loads: ++loads });
    expect(await cache.read('key:a', load)).toEqual({ userId: 1, loads: 1 });
    expect(await cache.read('key:a', load)).toEqual({ userId: 1, loads: 1 });
    expect(loads).toBe(1);
  });

  it('forgets everything when a write goes through it', async () => {
    const cache = new AccountCache();
    let owner: string | undefined = 'alice';
    const load = async () => owner;
    expect(await cache.read('key:a', load)).toBe('alice');
    await cache.written(async () => {
      owner = undefined;
    });
    expect(await cache.read('key:a', load)).toBeUndefined();
  });

  it('does not keep a missing answer, so a key created later is found', async () => {
    const cache = new AccountCache();
    const owners = new Map<string, string>();
    const load = async () => owners.get('key:b');
    expect(await cache.read('key:b', load)).toBeUndefined();
    owners.set('key:b', 'bob');
    expect(await cache.read('key:b', load)).toBe('bob');
  });

  it('does not store a read that was in flight while a write happened', async () => {
    const cache = new AccountCache();
    let release!: (value: string) => void;
    const slow = cache.read('key:c', () => new Promise<string>((resolve) => (release = resolve)));
    await cache.written(async () => undefined);
    release('stale owner');
    expect(await slow).toBe('stale owner');
    let loads = 0;
    expect(
      await cache.read('key:c', async () => {
        loads++;
        return 'fresh owner';
      }),
    ).toBe('fresh owner');
    expect(loads).toBe(1);
  });

  it('starts over when full instead of growing without bound', async () => {
    const cache = new AccountCache(2);
    let loads = 0;
    const load = async () => ++loads;
    await cache.read('a', load);
    await cache.read('b', load);
    await cache.read('c', load);
    expect(await cache.read('c', load)).toBe(3);
    expect(await cache.read('a', load)).toBe(4);
  });
});
