import { describe, expect, it } from 'vitest';
import { readConfig } from '../config.js';
import { ReadCache, type CachedAnswer } from './read-cache.js';

/** Asks the cache for `key` the way the hooks do: a claim to compute is finished with `compute`'s answer. */
async function ask(cache: ReadCache, key: string, compute: () => CachedAnswer | null): Promise<CachedAnswer | null> {
  const claim = cache.claim(key);
  if ('answer' in claim) return claim.answer;
  const answer = compute();
  claim.finish(answer);
  return answer;
}

describe('ReadCache', () => {
  let computed = 0;
  const compute = (): CachedAnswer => ({ payload: String(++computed), contentType: 'application/json' });
  const payload = async (answer: Promise<CachedAnswer | null>) => (await answer)?.payload;

  it('shares one answer between concurrent callers, keeps it for its lifetime and forgets it on clear', async () => {
    let now = 0;
    computed = 0;
    const cache = new ReadCache(1000, () => now);
    const first = cache.claim('a');
    const second = cache.claim('a');
    expect('finish' in first && 'answer' in second).toBe(true);
    if (!('finish' in first) || !('answer' in second)) return;
    first.finish(compute());
    expect(await payload(second.answer)).toBe('1');
    now = 999;
    expect(await payload(ask(cache, 'a', compute))).toBe('1');
    now = 1000;
    expect(await payload(ask(cache, 'a', compute))).toBe('2');
    cache.clear();
    expect(await payload(ask(cache, 'a', compute))).toBe('3');
    expect(await payload(ask(cache, 'b', compute))).toBe('4');
  });

  it('does not keep a failure: waiters get none and the next caller computes', async () => {
    const cache = new ReadCache(1000, () => 0);
    const failing = cache.claim('x');
    const waiting = cache.claim('x');
    if (!('finish' in failing) || !('answer' in waiting)) throw new Error('expected one computing claim and one waiting');
    failing.finish(null);
    expect(await waiting.answer).toBeNull();
    expect('finish' in cache.claim('x')).toBe(true);
  });

  it('keeps nothing with a lifetime of 0 (SHOKO_READ_CACHE=off)', () => {
    const cache = new ReadCache(0, () => 0);
    expect(cache.enabled).toBe(false);
    expect(new ReadCache(1, () => 0).enabled).toBe(true);
  });

  it('drops expired answers once it holds many', async () => {
    let now = 0;
    const cache = new ReadCache(10, () => now, 3);
    for (const key of ['a', 'b', 'c']) await ask(cache, key, compute);
    now = 20;
    await ask(cache, 'd', compute);
    expect(cache.size).toBe(1);
  });

  it('is turned off by SHOKO_READ_CACHE=off and refuses other values', () => {
    expect(readConfig({}).readCache).toBe(true);
    expect(readConfig({ SHOKO_READ_CACHE: 'OFF' }).readCache).toBe(false);
    expect(() => readConfig({ SHOKO_READ_CACHE: 'no' })).toThrow(/SHOKO_READ_CACHE must be/);
  });
});
