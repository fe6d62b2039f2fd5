import { mdiChevronLeft, mdiChevronRight, mdiClose, mdiContentCopy, mdiOpenInNew, mdiRefresh } from '@mdi/js';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import type { File, FileSortCriterion } from '@shoko-ts/contract';
import { FILE_SEARCH_DEFAULT_SORT, fileListQuery, fileSearchParams, useFileList, type FileListParams, type FileSort } from '@/api/files';
import { useImportFolderNames, useOfflineFolderIds } from '@/api/importFolders';
import { OfflineBadge } from '@/components/importFolders/OfflineBadge';
import { fileReach } from '@/components/importFolders/offline';
import { useEpisodeById, useFileDetails, useSeriesById, type FileDetails, type FileXRef } from '@/api/utilities';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { IconButton } from '@/components/IconButton';
import { SearchBox } from '@/components/SearchBox';
import { Spinner } from '@/components/Spinner';
import { formatFileSize, splitRelativePath } from '@/lib/format';
import { FileActionButtons } from '../unrecognized/FileActionButtons';
import { primaryLocation } from '../unrecognized/fileTable';
import { FileTable } from '../unrecognized/FileTable';
import { usePageTitle, useShownTableKey } from '../UtilityParts';
import { useFileSearchText } from './searchText';
import { selectionSummary } from './summary';

const NONE: ReadonlySet<number> = new Set();
/** SPEC §9: search debounce 200 ms. */
const SEARCH_DEBOUNCE_MS = 200;

/** Utilities → File Search: every file, searchable by path, with a details panel for the selected ones. */
export default function FileSearchPage() {
  usePageTitle('File Search');
  const [sort, setSort] = useState<FileSort | null>(null);
  const queryClient = useQueryClient();
  const searchBox = useFileSearchText(SEARCH_DEBOUNCE_MS, (text) => {
    if (text) void queryClient.prefetchInfiniteQuery(fileListQuery(fileSearchParams(sort, text)));
  });
  const search = searchBox.settled;
  const searching = search !== '';
  const params = useMemo<FileListParams>(() => fileSearchParams(sort, search), [sort, search]);
  const list = useFileList(params);
  const folderNames = useImportFolderNames();
  const files = useMemo(() => list.data?.pages.flatMap((page) => page.List) ?? [], [list.data]);
  const total = list.data?.pages.at(-1)?.Total ?? 0;

  const [selection, setSelection] = useState<{ search: string; ids: ReadonlySet<number> }>({ search, ids: NONE });
  const selectedIds = selection.search === search ? selection.ids : NONE;
  const selectedFiles = useMemo(() => files.filter((file) => selectedIds.has(file.ID)), [files, selectedIds]);
  const setSelected = useCallback((ids: ReadonlySet<number>) => setSelection({ search, ids }), [search]);
  const clearSelection = () => setSelected(NONE);
  const [position, setPosition] = useState(0);
  const active = selectedFiles[Math.min(position, selectedFiles.length - 1)] ?? null;
  const ids = selectedFiles.map((file) => file.ID);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const count = (n: number) => `${n} ${n === 1 ? 'file' : 'files'}`;
  const shownSort = sort ?? (searching ? null : FILE_SEARCH_DEFAULT_SORT);
  const tableKey = useShownTableKey(`${search}|${params.sortOrder?.join(',')}`, list.isPlaceholderData);

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-3 p-3 md:p-6">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-xl font-semibold">File Search</h1>
        <span className="rounded-full bg-panel-alt px-2 py-0.5 text-xs font-semibold text-muted" data-testid="file-total">
          {list.isPending ? '…' : count(total)}
        </span>
        <form
          role="search"
          className="ml-auto w-full sm:w-80"
          onSubmit={(event) => {
            event.preventDefault();
            searchBox.submit();
          }}
        >
          <SearchBox
            label="Search files"
            value={searchBox.text}
            onChange={searchBox.change}
            onCompositionEnd={searchBox.compositionEnd}
            className=""
          />
        </form>
      </div>
      <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label="File actions">
        {ids.length === 0 ? (
          <Button variant="secondary" onClick={() => void list.refetch()}>
            <Icon path={mdiRefresh} size={0.8} spin={list.isFetching && !list.isFetchingNextPage} />
            Refresh
          </Button>
        ) : (
          <>
            <FileActionButtons files={selectedFiles} onDeleted={clearSelection} />
            <Button variant="ghost" onClick={clearSelection}>
              <Icon path={mdiClose} size={0.8} />
              Cancel Selection
            </Button>
          </>
        )}
      </div>
      <div className="grid min-h-0 flex-1 gap-3 xl:grid-cols-[minmax(0,1fr)_26rem]">
        <FileTable
          key={tableKey}
          label="File Search"
          files={files}
          total={total}
          folderNames={folderNames}
          sort={shownSort}
          onSort={(criterion: FileSortCriterion) =>
            setSort(
              shownSort?.criterion === criterion ? { criterion, descending: !shownSort.descending } : { criterion, descending: false },
            )
          }
          selected={selectedIds}
          onSelectionChange={(next) => {
            setSelected(next);
            setPosition(Math.max(0, files.filter((f) => next.has(f.ID)).length - 1));
          }}
          loading={list.isPending}
          error={list.error}
          emptyText={searching ? 'No search results!' : 'No files yet.'}
          hasMore={!!hasNextPage}
          onLoadMore={loadMore}
        />
        <aside aria-label="File details" className="flex min-h-[16rem] flex-col gap-3 rounded-xl border border-border bg-panel p-4">
          <SelectionSummary files={selectedFiles} />
          {active ? (
            <>
              <div className="flex items-center gap-2">
                <h2 className="font-semibold">Selected File</h2>
                <span className="ml-auto text-sm text-muted">
                  {Math.min(position, selectedFiles.length - 1) + 1} / {selectedFiles.length}
                </span>
                <IconButton
                  icon={mdiChevronLeft}
                  size={0.9}
                  label="Previous file"
                  className="disabled:opacity-40"
                  disabled={position <= 0}
                  onClick={() => setPosition((p) => Math.max(0, Math.min(p, selectedFiles.length - 1) - 1))}
                />
                <IconButton
                  icon={mdiChevronRight}
                  size={0.9}
                  label="Next file"
                  className="disabled:opacity-40"
                  disabled={position >= selectedFiles.length - 1}
                  onClick={() => setPosition((p) => Math.min(selectedFiles.length - 1, p + 1))}
                />
              </div>
              <FileDetailsPanel fileId={active.ID} />
            </>
          ) : (
            <p className="flex flex-1 items-center justify-center text-center text-muted" data-testid="details-empty">
              Select File To Populate
            </p>
          )}
        </aside>
      </div>
    </div>
  );
}

function SelectionSummary({ files }: { files: File[] }) {
  const summary = selectionSummary(files as Array<File & { SeriesIDs?: FileXRef[] }>);
  const item = (label: string, value: ReactNode) => (
    <div className="flex flex-col">
      <span className="text-xs uppercase tracking-wider text-muted">{label}</span>
      <span className="font-semibold" data-testid={`summary-${label.toLowerCase().replace(/\s+/g, '-')}`}>
        {value}
      </span>
    </div>
  );
  return (
    <div className="grid grid-cols-3 gap-2 rounded-md bg-panel-alt p-3 text-sm">
      {item('Series', summary.series)}
      {item('Episodes', summary.episodes)}
      {item('Total Size', formatFileSize(summary.size))}
    </div>
  );
}

function FileDetailsPanel({ fileId }: { fileId: number }) {
  const details = useFileDetails(fileId);
  const file = details.data;
  const xref = file?.SeriesIDs?.[0];
  const seriesId = xref?.SeriesID.ID ?? null;
  const episodeId = xref?.EpisodeIDs.find((e) => e.ID !== null)?.ID ?? null;
  const series = useSeriesById(seriesId);
  const episode = useEpisodeById(episodeId);
  const offlineFolders = useOfflineFolderIds();
  if (details.isPending) {
    return (
      <p className="flex items-center gap-2 text-muted">
        <Spinner size={0.8} /> Loading file…
      </p>
    );
  }
  if (details.error || !file) return <p className="text-danger">Error fetching file data! {details.error?.message}</p>;
  const location = primaryLocation(file as File);
  const { name } = splitRelativePath(location?.RelativePath ?? '');
  return (
    <dl className="grid grid-cols-[6.5rem_minmax(0,1fr)] gap-x-3 gap-y-2 text-sm" data-testid="file-details">
      <Row label="File Name">
        <span className="break-all font-semibold">{name || `File ${file.ID}`}</span>
      </Row>
      <Row label="AniDB File">
        {file.AniDB ? (
          <a
            href={`https://anidb.net/file/${file.AniDB.ID}`}
            target="_blank"
            rel="noreferrer"
            className="inline-flex items-center gap-1 text-primary hover:underline"
          >
            {file.AniDB.ID} <Icon path={mdiOpenInNew} size={0.6} />
          </a>
        ) : (
          <span className="text-muted">Not on AniDB</span>
        )}
      </Row>
      <Row label="Series">
        {seriesId ? (
          <Link to={`/collection/series/${seriesId}`} className="text-primary hover:underline">
            {series.data?.Name ?? `Series ${seriesId}`}
          </Link>
        ) : (
          <span className="text-muted">{xref ? `AniDB ${xref.SeriesID.AniDB}` : 'Unrecognized'}</span>
        )}
      </Row>
      <Row label="Episode">{episodeId ? (episode.data?.Name ?? '…') : <span className="text-muted">—</span>}</Row>
      <Row label="Location">
        <span className="flex flex-wrap items-center gap-2">
          <span className="break-all font-mono text-xs">{location?.AbsolutePath ?? location?.RelativePath ?? '—'}</span>
          {fileReach(file, offlineFolders) === 'offline' && <OfflineBadge />}
        </span>
      </Row>
      <Row label="Size">{formatFileSize(file.Size)}</Row>
      <Row label="Video">{videoText(file)}</Row>
      <Row label="Audio">{audioText(file)}</Row>
      <Row label="ED2K">
        <span className="flex items-start gap-1">
          <span className="break-all font-mono text-xs" data-testid="file-ed2k">
            {file.Hashes.ED2K || '—'}
          </span>
          {file.Hashes.ED2K && <CopyButton value={file.Hashes.ED2K} label="Copy ED2K" />}
        </span>
      </Row>
      <Row label="CRC">
        <span className="font-mono text-xs">{file.Hashes.CRC32 || '—'}</span>
      </Row>
      <Row label="SHA1">
        <span className="break-all font-mono text-xs">{file.Hashes.SHA1 || '—'}</span>
      </Row>
    </dl>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted">{label}</dt>
      <dd className="min-w-0">{children}</dd>
    </>
  );
}

function videoText(file: FileDetails): string {
  const video = file.MediaInfo?.Video[0];
  if (!video) return '—';
  return [video.Codec.Name ?? video.Codec.Simplified, `${video.Width}x${video.Height}`, video.BitDepth ? `${video.BitDepth}-bit` : null]
    .filter(Boolean)
    .join(' · ');
}

function audioText(file: FileDetails): string {
  const audio = file.MediaInfo?.Audio ?? [];
  if (!audio.length) return '—';
  return audio
    .map((a) =>
      [a.Codec.Name ?? a.Codec.Simplified, a.Language ?? a.LanguageCode, a.Channels ? `${a.Channels}ch` : null].filter(Boolean).join(' '),
    )
    .join(', ');
}

/** Copies a value; where the clipboard is not available the value is selected for a manual copy. */
function CopyButton({ value, label }: { value: string; label: string }) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      className="shrink-0 rounded p-0.5 text-muted hover:text-primary"
      onClick={async (event) => {
        try {
          await navigator.clipboard.writeText(value);
          toast.success('ED2K copied!');
        } catch {
          const text = event.currentTarget.previousElementSibling;
          if (text) window.getSelection()?.selectAllChildren(text);
          toast.info('Copy failed: the hash is selected, press Ctrl+C to copy it.');
        }
      }}
    >
      <Icon path={mdiContentCopy} size={0.7} />
    </button>
  );
}
