import { useState } from 'react';
import type { File } from '@shoko-ts/contract';
import { fetchCollectionFiles, fetchRecentFiles, fetchSeriesFiles, useSeriesSearch } from '@/api/renamer';
import { Button } from '@/components/Button';
import { Modal, ModalFooter } from '@/components/Modal';
import { Spinner } from '@/components/Spinner';
import { TextField } from '@/components/TextField';
import { useDebouncedValue } from '@/lib/useDebouncedValue';

/** Recently imported: default 10, at most 1000 (SPEC §9). */
const RECENT_DEFAULT = 10;
const RECENT_MAX = 1000;

interface AddFilesModalProps {
  onClose: () => void;
  onAdd: (files: File[]) => void;
}

/** Adds files to the renamer: the entire collection, the most recently imported files, or the files of one series. */
export function AddFilesModal({ onClose, onAdd }: AddFilesModalProps) {
  const [recent, setRecent] = useState(RECENT_DEFAULT);
  const [loading, setLoading] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText, 300);
  const series = useSeriesSearch(search, true);
  const seriesList = series.data?.pages.flatMap((p) => p.List) ?? [];

  const load = async (what: string, fetch: () => Promise<File[]>) => {
    setLoading(what);
    setError(null);
    try {
      onAdd(await fetch());
      onClose();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setLoading(null);
    }
  };

  return (
    <Modal open onClose={onClose} title="Add Files" size="md" footer={<ModalFooter onCancel={onClose} cancelLabel="Close" />}>
      {error && <div className="rounded-md border border-danger px-3 py-2 text-danger">{error}</div>}
      <div className="flex flex-wrap items-end gap-3">
        <Button variant="secondary" busy={loading === 'all'} onClick={() => load('all', fetchCollectionFiles)}>
          Entire Collection
        </Button>
      </div>
      <div className="flex items-end gap-3">
        <TextField
          label="Recently Imported Files"
          type="number"
          min={1}
          max={RECENT_MAX}
          value={recent}
          onChange={(e) => setRecent(Math.min(RECENT_MAX, Math.max(1, Math.round(Number(e.target.value) || 1))))}
          className="w-48"
        />
        <Button variant="secondary" busy={loading === 'recent'} onClick={() => load('recent', () => fetchRecentFiles(recent))}>
          Add Recently Imported
        </Button>
      </div>
      <div className="flex flex-col gap-2">
        <TextField label="Series" placeholder="Search series…" value={searchText} onChange={(e) => setSearchText(e.target.value)} />
        <div className="flex max-h-64 flex-col overflow-y-auto rounded-md border border-border" role="listbox" aria-label="Series">
          {series.isPending ? (
            <div className="flex justify-center p-4">
              <Spinner size={1} />
            </div>
          ) : series.isError ? (
            <div className="p-3 text-danger">{series.error.message}</div>
          ) : seriesList.length === 0 ? (
            <div className="p-3 text-muted">No series found.</div>
          ) : (
            seriesList.map((s) => (
              <button
                key={s.IDs.ID}
                type="button"
                role="option"
                aria-selected={false}
                disabled={loading !== null}
                onClick={() => load(`series-${s.IDs.ID}`, () => fetchSeriesFiles(s.IDs.ID))}
                className="flex items-center justify-between border-b border-border/60 px-3 py-2 text-left hover:bg-panel-alt disabled:opacity-50"
              >
                <span className="truncate">{s.Name}</span>
                {loading === `series-${s.IDs.ID}` && <Spinner size={0.8} />}
              </button>
            ))
          )}
          {series.hasNextPage && (
            <Button variant="ghost" busy={series.isFetchingNextPage} onClick={() => series.fetchNextPage()}>
              Load more
            </Button>
          )}
        </div>
      </div>
    </Modal>
  );
}
