import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SHOKO_IMPORT_PROGRESS_EVENT } from '@shoko-ts/contract';
import { FiguresUpkeep } from './figures-upkeep.js';

describe('FiguresUpkeep', () => {
  let runs: number;
  let release: (() => void) | null;
  let upkeep: FiguresUpkeep;

  beforeEach(() => {
    vi.useFakeTimers();
    runs = 0;
    release = null;
    upkeep = new FiguresUpkeep({
      db: null as never,
      dialect: 'sqlite',
      logger: pino({ level: 'silent' }),
      timing: { quietMs: 1_000, maxDelayMs: 5_000 },
      now: () => Date.now(),
      refresh: () => {
        runs++;
        return new Promise<void>((resolve) => (release = resolve));
      },
    });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs once the changes have been quiet for a moment', async () => {
    upkeep.changed();
    await vi.advanceTimersByTimeAsync(600);
    upkeep.changed();
    await vi.advanceTimersByTimeAsync(600);
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(500);
    expect(runs).toBe(1);
  });

  it('does not let a steady run of changes put it off for longer than the longest delay', async () => {
    for (let elapsed = 0; elapsed < 5_000; elapsed += 500) {
      upkeep.changed();
      await vi.advanceTimersByTimeAsync(500);
    }
    expect(runs).toBe(1);
  });

  it('runs one at a time, and once more for changes made while it ran', async () => {
    upkeep.changed();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(1);
    upkeep.changed();
    upkeep.changed();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(1);
    release!();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(2);
    release!();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(runs).toBe(2);
  });

  it('keeps the server up when a run fails, and runs again after the next change', async () => {
    const failing = new FiguresUpkeep({
      db: null as never,
      dialect: 'sqlite',
      logger: pino({ level: 'silent' }),
      timing: { quietMs: 10, maxDelayMs: 10 },
      refresh: () => {
        runs++;
        return Promise.reject(new Error('database or disk is full'));
      },
    });
    failing.changed();
    await vi.advanceTimersByTimeAsync(10);
    await failing.settled();
    failing.changed();
    await vi.advanceTimersByTimeAsync(10);
    await failing.settled();
    expect(runs).toBe(2);
  });

  it('does nothing once stopped', async () => {
    upkeep.changed();
    await upkeep.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(runs).toBe(0);
  });

  it('runs after a ShokoEvent, not on a Shoko import progress (the import brings the figures up to date itself)', async () => {
    for (let i = 0; i < 20; i++) {
      upkeep.shokoEvent(SHOKO_IMPORT_PROGRESS_EVENT);
      await vi.advanceTimersByTimeAsync(1_000);
    }
    expect(runs).toBe(0);
    upkeep.shokoEvent('SeriesUpdated');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(1);
  });
});
