import { describe, expect, it } from 'vitest';
import { fileReach, offlineFileCount, reachNote, offlineFor, offlineLabel, removeRecordsQuestion } from './offline';

const location = (FileID: number, ImportFolderID: number, IsAccessible: boolean) => ({ FileID, ImportFolderID, IsAccessible });

describe('offline import folders in the console', () => {
  it('says how long a folder has been offline in its largest whole unit', () => {
    const now = new Date('2026-11-29T10:05:30Z');
    expect(offlineFor('2026-11-29T10:05:00Z', now)).toBe('moments');
    expect(offlineFor('2026-11-29T10:04:00Z', now)).toBe('1 minute');
    expect(offlineFor('2026-11-29T09:20:00Z', now)).toBe('45 minutes');
    expect(offlineFor('2026-11-29T08:05:00Z', now)).toBe('2 hours');
    expect(offlineFor('2026-11-26T10:05:00Z', now)).toBe('3 days');
    expect(offlineLabel({ UnavailableSince: null }, now)).toBe('Offline');
    expect(offlineLabel({ UnavailableSince: '2026-11-29T08:05:00Z' }, now)).toMatch(/^Offline since 29 Nov \d\d:05 \(2 hours\)$/);
  });

  it('tells a file offline from missing: offline only when no copy is readable and one is in an offline folder', () => {
    const offline = new Set([2]);
    expect(fileReach({ Locations: [location(1, 2, false)] }, offline)).toBe('offline');
    expect(fileReach({ Locations: [location(1, 2, false), location(1, 1, true)] }, offline)).toBe('available');
    expect(fileReach({ Locations: [location(1, 1, false)] }, offline)).toBe('missing');
    expect(fileReach({ Locations: [] }, offline)).toBe('missing');
    expect(reachNote({ Locations: [location(1, 2, false)] }, offline)).toBe('Offline');
    expect(reachNote({ Locations: [location(1, 1, false)] }, offline)).toBe('Not on disk');
    expect(reachNote({ Locations: [location(1, 1, true)] }, offline)).toBeNull();
    expect(offlineFileCount([location(1, 2, false), location(2, 2, false), location(2, 1, true), location(3, 1, true)], offline)).toEqual({
      files: 3,
      offline: 1,
    });
  });

  it('asks with the number of files and the folder’s name', () => {
    expect(removeRecordsQuestion('NAS', 50)).toBe('Remove the records of 50 files in NAS?');
    expect(removeRecordsQuestion('NAS', 1)).toBe('Remove the records of 1 file in NAS?');
  });
});
