import { describe, expect, it } from 'vitest';
import { byIds, WHOLE_TABLE_IDS } from './shared-queries.js';

describe('byIds', () => {
  const table = Array.from({ length: WHOLE_TABLE_IDS + 10 }, (_, i) => ({ id: i + 1 }));
  const reader = () => {
    const calls = { slices: [] as number[], whole: 0 };
    const read = (ids: number[]) =>
      byIds(
        ids,
        (row) => row.id,
        async (slice) => {
          calls.slices.push(slice.length);
          const wanted = new Set(slice);
          return table.filter((row) => wanted.has(row.id));
        },
        async () => {
          calls.whole++;
          return table;
        },
      );
    return { calls, read };
  };

  it('reads a page of ids by slices of IN lists', async () => {
    const { calls, read } = reader();
    const rows = await read(Array.from({ length: 12_000 }, (_, i) => i + 1));
    expect(rows).toHaveLength(12_000);
    expect(calls).toEqual({ slices: [5000, 5000, 2000], whole: 0 });
  });

  it('reads the whole table once for a whole-collection list and keeps only the rows asked for', async () => {
    const { calls, read } = reader();
    const ids = Array.from({ length: WHOLE_TABLE_IDS }, (_, i) => i + 3);
    const rows = await read(ids);
    expect(calls).toEqual({ slices: [], whole: 1 });
    expect(rows).toHaveLength(WHOLE_TABLE_IDS);
    expect(rows.some((row) => row.id === 1 || row.id === 2)).toBe(false);
  });
});
