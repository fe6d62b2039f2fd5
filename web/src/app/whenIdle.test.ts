import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from './queryClient';
import { whenIdle } from './whenIdle';

describe('whenIdle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    queryClient.clear();
    vi.useRealTimers();
  });

  /** A query that stays under way until `finish` is called. */
  function pendingQuery() {
    let finish!: () => void;
    const done = new Promise<string>((resolve) => (finish = () => resolve('answer')));
    queryClient.fetchQuery({ queryKey: ['whenIdle-test'], queryFn: () => done }).catch(() => undefined);
    return finish;
  }

  it('runs the task after the delay when no request is under way', () => {
    const task = vi.fn();
    whenIdle(task, 1000);
    vi.advanceTimersByTime(999);
    expect(task).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(task).toHaveBeenCalledTimes(1);
  });

  it("waits for the page's requests to end, then a moment more", async () => {
    const task = vi.fn();
    const finish = pendingQuery();
    whenIdle(task, 1000);
    vi.advanceTimersByTime(5000);
    expect(task).not.toHaveBeenCalled();
    finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(queryClient.isFetching()).toBe(0);
    expect(task).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(300);
    expect(task).toHaveBeenCalledTimes(1);
  });

  it('drops it once a page has kept asking for 15 s', () => {
    const task = vi.fn();
    const finish = pendingQuery();
    whenIdle(task, 1000);
    vi.advanceTimersByTime(15_100);
    finish();
    vi.advanceTimersByTime(20_000);
    expect(task).not.toHaveBeenCalled();
  });

  it('does nothing once cancelled', () => {
    const task = vi.fn();
    const finish = pendingQuery();
    const cancel = whenIdle(task, 1000);
    vi.advanceTimersByTime(2000);
    cancel();
    finish();
    vi.advanceTimersByTime(20_000);
    expect(task).not.toHaveBeenCalled();
  });
});
