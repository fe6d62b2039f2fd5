import type { File, FileSortCriterion } from '@shoko-ts/contract';
import type { FileSort } from '@/api/files';

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
