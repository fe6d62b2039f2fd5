import { mdiCheckCircleOutline, mdiCloseCircleOutline, mdiMinusCircleOutline, mdiProgressClock } from '@mdi/js';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import type { File, RelocationResult } from '@shoko-ts/contract';
import { Icon } from '@/components/Icon';
import { Spinner } from '@/components/Spinner';
import { fileNameOf, rowStatus, TEXTS, type RenameStatus } from './renamerState';

const ROW_HEIGHT = 40;
const GRID = 'grid grid-cols-[minmax(0,1fr)_minmax(0,1fr)_5rem] items-center gap-3 px-3';

const STATUS: Record<Exclude<RenameStatus, 'loading'>, { icon: string; label: string; className: string }> = {
  failed: { icon: mdiCloseCircleOutline, label: 'Failed', className: 'text-danger' },
  'no-change': { icon: mdiMinusCircleOutline, label: 'No change', className: 'text-muted' },
  pending: { icon: mdiProgressClock, label: 'Pending', className: 'text-primary' },
  successful: { icon: mdiCheckCircleOutline, label: 'Successful', className: 'text-success' },
};

interface PreviewTableProps {
  files: File[];
  preview: ReadonlyMap<number, RelocationResult> | undefined;
  renamed: ReadonlyMap<number, RelocationResult>;
  selected: ReadonlySet<number>;
  onToggle: (fileId: number) => void;
  error: Error | null;
}

/**
 * Renamer Preview: original name, the name (or error) the config gives, and the status of each added file. Virtual, so
 * an entire collection stays light: only the rows in view exist in the page.
 */
export function PreviewTable({ files, preview, renamed, selected, onToggle, error }: PreviewTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: files.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    getItemKey: (index) => files[index].ID,
  });
  if (!files.length)
    return <div className="flex h-40 items-center justify-center text-sm font-semibold text-muted">{TEXTS.noFilesSelected}</div>;
  return (
    <div className="flex flex-col gap-2">
      {error && <div className="rounded-md border border-danger px-3 py-2 text-sm text-danger">Preview failed: {error.message}</div>}
      <div role="table" aria-label="Renamer Preview" aria-rowcount={files.length + 1} className="text-sm">
        <div role="row" className={`${GRID} h-9 border-b border-border text-xs font-semibold uppercase text-muted`}>
          <span role="columnheader">Original Filename</span>
          <span role="columnheader">Result</span>
          <span role="columnheader" className="text-center">
            Status
          </span>
        </div>
        <div ref={scrollRef} className="max-h-[60vh] overflow-y-auto">
          <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((item) => {
              const file = files[item.index];
              const result = renamed.get(file.ID) ?? preview?.get(file.ID);
              const status = rowStatus(preview?.get(file.ID), renamed.get(file.ID));
              const shown = status === 'loading' ? null : STATUS[status];
              const isSelected = selected.has(file.ID);
              return (
                // Clicking a row selects it with the pointer; the table has no keyboard selection yet (a known gap, not a new one).
                // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/interactive-supports-focus
                <div
                  key={item.key}
                  role="row"
                  aria-rowindex={item.index + 2}
                  aria-selected={isSelected}
                  onClick={() => onToggle(file.ID)}
                  style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
                  className={`${GRID} cursor-pointer border-b border-border/60 ${isSelected ? 'bg-primary/15' : 'hover:bg-panel-alt'}`}
                >
                  <span role="cell" className="truncate" title={file.Locations[0]?.RelativePath}>
                    {fileNameOf(file.Locations[0]?.RelativePath) || `File ${file.ID}`}
                  </span>
                  <span
                    role="cell"
                    className={`truncate ${result && !result.IsSuccess ? 'text-danger' : ''}`}
                    title={result?.ErrorMessage ?? result?.AbsolutePath}
                  >
                    {result ? (result.IsSuccess ? result.RelativePath : result.ErrorMessage) : ''}
                  </span>
                  <span role="cell" className="flex justify-center">
                    {shown ? (
                      <span className={`inline-flex ${shown.className}`} data-status={status} aria-label={shown.label} title={shown.label}>
                        <Icon path={shown.icon} size={0.85} />
                      </span>
                    ) : (
                      <Spinner size={0.8} />
                    )}
                  </span>
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
}
