import { describe, expect, it } from 'vitest';
import type { File } from '@shoko-ts/contract';
import { avdumpProgressOf, clickSelection, effectiveSort, nextSort, primaryLocation, shownTableKey } from './fileTable';

describe('sorting by column', () => {
  it('shows Import Folder ascending by default, nothing while searching', () => {
    expect(effectiveSort(null, false)).toEqual({ criterion: 'ImportFolderName', descending: false });
    expect(effectiveSort(null, true)).toBeNull();
  });

  it('flips the shown column and starts others ascending', () => {
    expect(nextSort(null, 'ImportFolderName', false)).toEqual({ criterion: 'ImportFolderName', descending: true });
    expect(nextSort(null, 'ImportFolderName', true)).toEqual({ criterion: 'ImportFolderName', descending: false });
    expect(nextSort({ criterion: 'FileSize', descending: true }, 'FileSize', false)).toEqual({ criterion: 'FileSize', descending: false });
    expect(nextSort({ criterion: 'FileSize', descending: true }, 'CreatedAt', false)).toEqual({
      criterion: 'CreatedAt',
      descending: false,
    });
  });
});

describe('clickSelection', () => {
  const ids = [10, 11, 12, 13, 14];
  it('toggles the clicked row', () => {
    expect([...clickSelection(new Set(), ids, 1, null, false)]).toEqual([11]);
    expect([...clickSelection(new Set([11, 12]), ids, 1, 1, false)]).toEqual([12]);
  });

  it('adds the range between the anchor and a shift-clicked row, in either direction', () => {
    expect([...clickSelection(new Set([10]), ids, 3, 1, true)].sort()).toEqual([10, 11, 12, 13]);
    expect([...clickSelection(new Set(), ids, 0, 2, true)].sort()).toEqual([10, 11, 12]);
  });

  it('treats a shift-click without an anchor as a plain click', () => {
    expect([...clickSelection(new Set(), ids, 4, null, true)]).toEqual([14]);
  });
});

describe('primaryLocation', () => {
  const location = (ID: number, IsAccessible: boolean) => ({ ID, FileID: 1, ImportFolderID: 1, RelativePath: `${ID}.mkv`, IsAccessible });
  it('prefers a location that exists on disk', () => {
    expect(primaryLocation({ Locations: [location(1, false), location(2, true)] } as File)?.ID).toBe(2);
    expect(primaryLocation({ Locations: [location(1, false)] } as File)?.ID).toBe(1);
    expect(primaryLocation({ Locations: [] } as unknown as File)).toBeUndefined();
  });
});

describe('what the rows show', () => {
  it('gives the progress of files in running AVDump sessions only', () => {
    const progress = avdumpProgressOf([
      { fileIds: [1, 2], status: 'Running', progress: 40 },
      { fileIds: [3], status: 'Success', progress: 100 },
      { fileIds: [2], status: 'Running', progress: 75 },
    ]);
    expect([...progress]).toEqual([
      [1, 40],
      [2, 75],
    ]);
  });

  it('keeps the table key of the rows shown while the new rows are a placeholder', () => {
    expect(shownTableKey('hoshi|', '|-7', true)).toBe('|-7');
    expect(shownTableKey('hoshi|', '|-7', false)).toBe('hoshi|');
  });
});
