import { mdiAlertOutline, mdiMenuDown, mdiMenuUp } from '@mdi/js';
import { useVirtualizer } from '@tanstack/react-virtual';
import dayjs from 'dayjs';
import { memo, useCallback, useEffect, useMemo, useRef } from 'react';
import type { File, FileSortCriterion } from '@shoko-ts/contract';
import type { FileSort } from '@/api/files';
import { useOfflineFolderIds } from '@/api/importFolders';
import { Icon } from '@/components/Icon';
import { OfflineBadge } from '@/components/importFolders/OfflineBadge';
import { fileReach, type FileReach } from '@/components/importFolders/offline';
import { Spinner } from '@/components/Spinner';
import { formatFileSize, splitRelativePath } from '@/lib/format';
import { useAggregateState } from '@/realtime/AggregateHub';
import { avdumpProgressOf, clickSelection, primaryLocation } from './fileTable';
import { initialBoxRect, observeBoxAfterLayout, scrollBox } from './virtualBox';

const ROW_HEIGHT = 52;
/** Rows drawn beyond the view either way: each row is a few dozen elements, all drawn before the page first shows. */
const OVERSCAN = 4;
const HEADER_HEIGHT = 40;
/**
 * Ask for the next page this many rows before the end, so scrolling rarely waits; not so many that a first page of 50
 * asks for the second before anyone scrolls (it went out beside the page's first requests and slowed them).
 */
const PREFETCH_ROWS = 20;
const GRID = 'grid grid-cols-[2.75rem_minmax(8rem,12rem)_minmax(16rem,1fr)_6.5rem_minmax(14rem,19rem)_9.5rem] items-center gap-3 px-3';

const COLUMNS: Array<{ label: string; criterion: FileSortCriterion; className?: string }> = [
  { label: 'Import Folder', criterion: 'ImportFolderName' },
  { label: 'File', criterion: 'FileName' },
  { label: 'Size', criterion: 'FileSize', className: 'text-right' },
  { label: 'Status', criterion: 'ED2K', className: 'pl-3' },
  { label: 'Date Added', criterion: 'CreatedAt' },
];

interface FileTableProps {
  label: string;
  files: File[];
  total: number;
  folderNames: ReadonlyMap<number, string>;
  /** The sort shown in the headers (null: the server's relevance order while searching). */
  sort: FileSort | null;
  onSort: (criterion: FileSortCriterion) => void;
  selected: ReadonlySet<number>;
  onSelectionChange: (selected: Set<number>) => void;
  loading: boolean;
  error: Error | null;
  emptyText: string;
  hasMore: boolean;
  onLoadMore: () => void;
}

/** A virtual table of files: only the rows in view exist in the page, more pages load while scrolling. */
export function FileTable(props: FileTableProps) {
  const { label, files, total, sort, onSort, selected, onSelectionChange, loading, error, emptyText, hasMore, onLoadMore } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const anchor = useRef<number | null>(null);
  const virtualizer = useVirtualizer({
    count: files.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    scrollMargin: HEADER_HEIGHT,
    getItemKey: (index) => files[index].ID,
    // Rows in the first draw, no forced layouts on attaching (see virtualBox.ts).
    initialRect: initialBoxRect(),
    observeElementRect: observeBoxAfterLayout,
    scrollToFn: scrollBox,
  });
  const items = virtualizer.getVirtualItems();
  const lastVisible = items.length ? items[items.length - 1].index : -1;

  useEffect(() => {
    if (hasMore && lastVisible >= files.length - PREFETCH_ROWS) onLoadMore();
  }, [hasMore, lastVisible, files.length, onLoadMore]);

  const ids = files.map((file) => file.ID);
  const allSelected = files.length > 0 && files.every((file) => selected.has(file.ID));
  const someSelected = !allSelected && files.some((file) => selected.has(file.ID));

  // The rows are drawn again only when their own props change (an answer of the import folders, a new page, a click):
  // the click handler reads the current selection and list from here instead of closing over them, and the import
  // folders and AVDump sessions are read once for the table, not by a query observer and a context reader in each row.
  const latest = useRef({ selected, ids, onSelectionChange });
  useEffect(() => {
    latest.current = { selected, ids, onSelectionChange };
  });
  const onRowClick = useCallback((index: number, shift: boolean) => {
    const current = latest.current;
    current.onSelectionChange(clickSelection(current.selected, current.ids, index, anchor.current, shift));
    anchor.current = index;
  }, []);
  const offlineFolders = useOfflineFolderIds();
  const { avdump } = useAggregateState();
  const avdumpProgress = useMemo(() => avdumpProgressOf(Object.values(avdump)), [avdump]);

  return (
    // The scroll box is positioned absolutely so the rows never stretch the page: the table takes the space left.
    <div className="relative min-h-[20rem] flex-1 overflow-hidden rounded-xl border border-border bg-panel">
      <div ref={scrollRef} className="absolute inset-0 overflow-auto" role="table" aria-label={label} aria-rowcount={total + 1}>
        <div className="min-w-[60rem]">
          <div
            role="row"
            className={`${GRID} sticky top-0 z-10 h-10 border-b border-border bg-panel text-xs font-semibold uppercase tracking-wider text-muted`}
          >
            <span role="columnheader" className="flex justify-center">
              <input
                type="checkbox"
                aria-label="Select all loaded files"
                checked={allSelected}
                ref={(input) => {
                  if (input) input.indeterminate = someSelected;
                }}
                onChange={() => onSelectionChange(allSelected ? new Set() : new Set(ids))}
                disabled={!files.length}
                className="size-4 accent-[var(--color-primary)]"
              />
            </span>
            {COLUMNS.map((column) => {
              const active = sort?.criterion === column.criterion;
              return (
                <span
                  key={column.criterion}
                  role="columnheader"
                  aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : 'none'}
                  className={column.className}
                >
                  <button
                    type="button"
                    onClick={() => onSort(column.criterion)}
                    className={`inline-flex items-center gap-0.5 uppercase tracking-wider hover:text-text ${active ? 'text-primary' : ''}`}
                  >
                    {column.label}
                    {active && <Icon path={sort.descending ? mdiMenuDown : mdiMenuUp} size={0.7} />}
                  </button>
                </span>
              );
            })}
          </div>
          {loading && (
            <div className="flex items-center justify-center gap-3 p-10 text-muted">
              <Spinner /> Loading files…
            </div>
          )}
          {error && !loading && <p className="p-10 text-center font-semibold text-danger">{error.message}</p>}
          {!loading && !error && files.length === 0 && (
            <p className="p-10 text-center text-muted" data-testid="file-table-empty">
              {emptyText}
            </p>
          )}
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }} role="rowgroup">
            {items.map((item) => {
              const file = files[item.index];
              return (
                <FileRow
                  key={item.key}
                  file={file}
                  folderNames={props.folderNames}
                  reach={fileReach(file, offlineFolders)}
                  avdumpProgress={avdumpProgress.get(file.ID)}
                  index={item.index}
                  top={item.start - HEADER_HEIGHT}
                  selected={selected.has(file.ID)}
                  onClick={onRowClick}
                />
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
}

interface FileRowProps {
  file: File;
  folderNames: ReadonlyMap<number, string>;
  reach: FileReach;
  /** The progress of a running AVDump of the file, if one runs. */
  avdumpProgress: number | undefined;
  index: number;
  top: number;
  selected: boolean;
  onClick: (index: number, shift: boolean) => void;
}

const FileRow = memo(function FileRow({ file, folderNames, reach, avdumpProgress, index, top, selected, onClick }: FileRowProps) {
  const location = primaryLocation(file);
  const { name, directory } = splitRelativePath(location?.RelativePath ?? '');
  const folder = location ? (folderNames.get(location.ImportFolderID) ?? `Folder ${location.ImportFolderID}`) : '—';
  const extraLocations = file.Locations.length - 1;
  const hashed = !!file.Hashes.ED2K;

  return (
    // A click anywhere on the row is the pointer's shortcut; the row's checkbox is the keyboard's way to select it.
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/interactive-supports-focus
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      data-testid="file-row"
      onClick={(event) => onClick(index, event.shiftKey)}
      className={`${GRID} absolute left-0 top-0 w-full cursor-pointer select-none border-b border-border/60 text-sm ${selected ? 'bg-primary/15' : 'hover:bg-panel-alt'}`}
      style={{ height: ROW_HEIGHT, transform: `translateY(${top}px)` }}
    >
      <span role="cell" className="flex justify-center">
        <input
          type="checkbox"
          aria-label={`Select ${name || `file ${file.ID}`}`}
          checked={selected}
          readOnly
          onClick={(event) => {
            // The row handles plain clicks too; this keeps keyboard toggling (Space) and shift-click working once.
            event.stopPropagation();
            onClick(index, event.shiftKey);
          }}
          className="size-4 accent-[var(--color-primary)]"
        />
      </span>
      <span role="cell" className="truncate" title={folder}>
        {folder}
        {extraLocations > 0 && <span className="ml-1 text-xs text-muted">+{extraLocations}</span>}
      </span>
      <span role="cell" className="flex min-w-0 flex-col">
        <span className="flex items-center gap-2">
          <span className="truncate font-semibold" title={location?.RelativePath}>
            {name || '—'}
          </span>
          {reach === 'offline' && <OfflineBadge />}
          {reach === 'missing' && (
            <span
              className="flex shrink-0 items-center gap-1 text-xs font-semibold text-warning"
              title="No location of this file exists on disk"
            >
              <Icon path={mdiAlertOutline} size={0.6} /> Missing
            </span>
          )}
        </span>
        {directory && <span className="truncate text-xs text-muted">{directory}</span>}
      </span>
      <span role="cell" className="text-right tabular-nums">
        {formatFileSize(file.Size)}
      </span>
      <span role="cell" className="flex min-w-0 flex-col pl-3 font-mono text-xs">
        {hashed ? (
          <>
            <span className="truncate">
              <span className="font-sans text-muted">CRC32 </span>
              <span className="font-semibold text-text">{file.Hashes.CRC32 || '—'}</span>
            </span>
            <span className="truncate text-muted" title={file.Hashes.ED2K}>
              <span className="font-sans">ED2K </span>
              {file.Hashes.ED2K}
            </span>
            <AVDumpStatus file={file} progress={avdumpProgress} />
          </>
        ) : (
          <span className="flex items-center gap-2 font-sans text-sm text-muted">
            <Spinner size={0.7} className="text-muted" /> Hashing…
          </span>
        )}
      </span>
      <span role="cell" className="text-muted tabular-nums">
        {dayjs(file.Created).format('YYYY-MM-DD HH:mm')}
      </span>
    </div>
  );
});

/** AVDump progress of a file in a running session, or when it was last dumped. */
function AVDumpStatus({ file, progress }: { file: File; progress: number | undefined }) {
  if (progress !== undefined) return <span className="font-sans font-semibold text-primary">AVDump {Math.round(progress)}%</span>;
  if (!file.AVDump.LastDumpedAt) return null;
  return <span className="font-sans text-success">AVDumped {dayjs(file.AVDump.LastDumpedAt).format('YYYY-MM-DD')}</span>;
}
