import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { collectGarbage } from './collect-garbage.js';

describe('collectGarbage', () => {
  it('frees what is no longer reachable at once, without exposing gc to other contexts', () => {
    let rows: Array<{ id: number; name: string }> | null = Array.from({ length: 400_000 }, (_, id) => ({ id, name: `row ${id}` }));
    const held = process.memoryUsage().heapUsed;
    expect(rows.length).toBe(400_000);
    rows = null;
    expect(collectGarbage()).toBe(true);
    expect(process.memoryUsage().heapUsed).toBeLessThan(held - 10 * 1024 * 1024);
    expect(vm.runInNewContext('typeof gc')).toBe('undefined');
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe('undefined');
  });
});
