import { describe, expect, it } from 'vitest';
import { toggledIn } from './sets';

describe('toggledIn', () => {
  it('adds a missing item and removes a present one, leaving the given set as it was', () => {
    const original: ReadonlySet<number> = new Set([1, 2]);
    expect([...toggledIn(original, 3)]).toEqual([1, 2, 3]);
    expect([...toggledIn(original, 1)]).toEqual([2]);
    expect([...original]).toEqual([1, 2]);
  });
});
