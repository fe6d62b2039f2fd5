import dayjs from 'dayjs';
import type { FileLocation, ImportFolder } from '@shoko-ts/contract';

type PlacedLocation = Pick<FileLocation, 'FileID' | 'ImportFolderID' | 'IsAccessible'>;

/** How long ago, in the largest whole unit: `5 minutes`, `2 hours`, `3 days`; under a minute is `moments`. */
export function offlineFor(sinceIso: string, now: Date): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - Date.parse(sinceIso)) / 60_000));
  const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'}`;
  if (minutes < 1) return 'moments';
  if (minutes < 60) return plural(minutes, 'minute');
  if (minutes < 48 * 60) return plural(Math.floor(minutes / 60), 'hour');
  return plural(Math.floor(minutes / (24 * 60)), 'day');
}

/** `Offline since 29 Nov 10:05 (2 hours)`; without a time, just `Offline`. */
export function offlineLabel(folder: Pick<ImportFolder, 'UnavailableSince'>, now: Date): string {
  if (!folder.UnavailableSince) return 'Offline';
  return `Offline since ${dayjs(folder.UnavailableSince).format('D MMM HH:mm')} (${offlineFor(folder.UnavailableSince, now)})`;
}

export type FileReach = 'available' | 'offline' | 'missing';

/**
 * Whether a file can be read now: a reachable location (`available`); none, but one in an offline folder, whose
 * record is kept until the folder is back (`offline`); or none at all (`missing`).
 */
export function fileReach(file: { Locations: PlacedLocation[] }, offlineFolders: ReadonlySet<number>): FileReach {
  if (file.Locations.some((location) => location.IsAccessible)) return 'available';
  return file.Locations.some((location) => offlineFolders.has(location.ImportFolderID)) ? 'offline' : 'missing';
}

/** What a file's details say when it cannot be read now: `Offline` (its folder is away, its record kept) or `Not on disk`. */
export function reachNote(file: { Locations: PlacedLocation[] }, offlineFolders: ReadonlySet<number>): string | null {
  const reach = fileReach(file, offlineFolders);
  return reach === 'available' ? null : reach === 'offline' ? 'Offline' : 'Not on disk';
}

/** Of the files behind these locations: how many there are, and how many can be read only from an offline folder. */
export function offlineFileCount(locations: PlacedLocation[], offlineFolders: ReadonlySet<number>): { files: number; offline: number } {
  const byFile = new Map<number, PlacedLocation[]>();
  for (const location of locations) byFile.set(location.FileID, [...(byFile.get(location.FileID) ?? []), location]);
  const offline = [...byFile.values()].filter((own) => fileReach({ Locations: own }, offlineFolders) === 'offline');
  return { files: byFile.size, offline: offline.length };
}

/** The question before the records of an offline folder go. */
export function removeRecordsQuestion(folderName: string, locations: number): string {
  return `Remove the records of ${locations} ${locations === 1 ? 'file' : 'files'} in ${folderName}?`;
}
