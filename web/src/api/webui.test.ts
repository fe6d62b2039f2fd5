import { afterEach, describe, expect, it, vi } from 'vitest';
import { pause } from './webui';

describe('pause', () => {
  afterEach(() => vi.useRealTimers());

  it('resolves after the time given', async () => {
    vi.useFakeTimers();
    let done = false;
    const paused = pause(3000, new AbortController().signal).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(2999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await paused;
    expect(done).toBe(true);
  });

  it('rejects when the query is cancelled before', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const paused = pause(3000, controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(paused).rejects.toThrow('cancelled');
  });
});
