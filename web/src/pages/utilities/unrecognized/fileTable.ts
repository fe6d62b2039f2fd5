import type { File, FileSortCriterion } from '@shoko-ts/contract';
import type { FileSort } from '@/api/files';
import type { AVDumpSession } from '@/realtime/avdump';

/** The sort a table shows: the chosen one, else Import Folder ascending (the server's default) unless searching. */
export function effectiveSort(sort: FileSort | null, searching: boolean): FileSort | null {
  return sort ?? (searching ? null : { criterion: 'ImportFolderName', descending: false });
}

/** A click on a column header: the same column flips direction, another column starts ascending. */
export function nextSort(sort: FileSort | null, criterion: FileSortCriterion, searching: boolean): FileSort {
  const shown = effectiveSort(sort, searching);
  if (shown?.criterion === criterion) return { criterion, descending: !shown.descending };
  return { criterion, descending: false };
}

/**
 * Selection after a row click: a plain click toggles the row; a shift-click selects every row between the last
 * clicked one (the anchor) and this one.
 */
export function clickSelection(
  selected: ReadonlySet<number>,
  ids: readonly number[],
  index: number,
  anchor: number | null,
  shift: boolean,
): Set<number> {
  const next = new Set(selected);
  if (shift && anchor !== null && anchor < ids.length) {
    const [from, to] = anchor < index ? [anchor, index] : [index, anchor];
    for (let i = from; i <= to; i++) next.add(ids[i]);
    return next;
  }
  const id = ids[index];
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

/** The location a file table shows: the first one that is on disk, else the first known. */
export function primaryLocation(file: File): File['Locations'][number] | undefined {
  return file.Locations.find((location) => location.IsAccessible) ?? file.Locations[0];
}

/** The progress of each file in a running AVDump session (a file in two running sessions shows the later one's). */
export function avdumpProgressOf(sessions: readonly AVDumpSession[]): ReadonlyMap<number, number> {
  const progress = new Map<number, number>();
  for (const session of sessions) {
    if (session.status !== 'Running') continue;
    for (const id of session.fileIds) progress.set(id, session.progress);
  }
  return progress;
}

/**
 * The key a file table is drawn under: a new search or order starts a new table at the top, but only once its rows
 * have arrived. While the previous rows stand in for them (placeholder data), the table keeps its key, so typing a
 * search does not draw the old rows a second time before the request's answer.
 */
export function shownTableKey(requested: string, shown: string, placeholder: boolean): string {
  return placeholder ? shown : requested;
}
