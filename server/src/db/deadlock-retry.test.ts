import { describe, expect, it } from 'vitest';
import { retryOnDeadlock } from './deadlock-retry.js';

const failing = (codes: Array<string | null>) => {
  let calls = 0;
  const work = async () => {
    const code = codes[calls++];
    if (code === undefined) return 'done';
    throw Object.assign(new Error(code ?? 'plain'), code ? { code } : {});
  };
  return { work, calls: () => calls };
};

describe('retryOnDeadlock', () => {
  it('runs the transaction again after a deadlock', async () => {
    const t = failing(['40P01', '40P01']);
    expect(await retryOnDeadlock(t.work)).toBe('done');
    expect(t.calls()).toBe(3);
  });

  it('throws any other error at once', async () => {
    const t = failing(['23505']);
    await expect(retryOnDeadlock(t.work)).rejects.toMatchObject({ code: '23505' });
    expect(t.calls()).toBe(1);
  });

  it('gives up after the last attempt with the deadlock error', async () => {
    const t = failing(['40P01', '40P01', '40P01']);
    await expect(retryOnDeadlock(t.work)).rejects.toMatchObject({ code: '40P01' });
    expect(t.calls()).toBe(3);
  });
});
