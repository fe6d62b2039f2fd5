import { describe, expect, it } from 'vitest';
import { ImportReportBuilder, keepRows } from './import-report.js';

describe('keepRows', () => {
  const rows = [
    { id: 1, parent: 10 },
    { id: 2, parent: 99 },
    { id: 1, parent: 10 },
    { id: 3, parent: 10 },
    { id: 2, parent: 10 },
  ];

  it('skips a row for its refusal first, then a key kept before as a duplicate, and maps the rest', () => {
    const report = new ImportReportBuilder();
    const tally = report.kind('Things', rows.length);
    const kept = keepRows(tally, rows, {
      key: (row) => row.id,
      refuse: (row) => (row.parent === 10 ? undefined : 'its parent is not in the database'),
      duplicate: 'duplicate thing',
      map: (row, id) => `thing ${id}`,
    });
    expect(kept).toEqual(['thing 1', 'thing 3', 'thing 2']);
    expect(tally.toJSON()).toEqual({
      Kind: 'Things',
      Source: 5,
      Imported: 3,
      Skipped: [
        { Reason: 'its parent is not in the database', Count: 1, Examples: ['2'] },
        { Reason: 'duplicate thing', Count: 1, Examples: ['1'] },
      ],
    });
  });

  it('adds to the caller’s set of kept keys, treats keys already in it as duplicates, and names skipped rows by their example', () => {
    const tally = new ImportReportBuilder().kind('Things', rows.length);
    const seen = new Set([3]);
    const kept = keepRows(tally, rows, {
      key: (row) => row.id,
      kept: seen,
      example: (row) => `#${row.id}/${row.parent}`,
      map: (row) => row.id,
    });
    expect(kept).toEqual([1, 2]);
    expect([...seen].sort()).toEqual([1, 2, 3]);
    expect(tally.toJSON().Skipped).toEqual([{ Reason: 'duplicate', Count: 3, Examples: ['#1/10', '#3/10', '#2/10'] }]);
  });
});
