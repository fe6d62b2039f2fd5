import { mdiLinkVariantOff, mdiRefresh } from '@mdi/js';
import { useMemo, useState } from 'react';
import { toast } from 'react-toastify';
import { useAnidbEpisodes, useManuallyLinkedFiles, useUnlinkFiles, type FileDetails } from '@/api/utilities';
import { Button } from '@/components/Button';
import { CountBadge } from '@/components/CountBadge';
import { Icon } from '@/components/Icon';
import { ListState, Pager, SelectableList } from '@/components/List';
import { ListPanel, PlaceholderPanel } from '@/components/Panel';
import { SearchBox } from '@/components/SearchBox';
import { formatFileSize, splitRelativePath } from '@/lib/format';
import { toggledIn } from '@/lib/sets';
import { episodeLabel } from '../manual-link/linking';
import { primaryLocation } from '../unrecognized/fileTable';
import { fileCount, RescanButton } from '../unrecognized/FileActionButtons';
import { UnrecognizedTabs } from '../unrecognized/FileListPage';
import { SERIES_PAGE_SIZE, SeriesListState, usePageTitle, useSeriesUtilityPages } from '../UtilityParts';

/** Page size of the file list (SPEC §9). */
const PAGE_SIZE = 25;

/** Utilities → Manually Linked Files: series with files linked by hand on the left, those files on the right. */
export default function ManuallyLinkedFilesPage() {
  usePageTitle('Manually Linked Files');
  const pages = useSeriesUtilityPages('WithManuallyLinkedFiles');
  const { searchText, setSearchText, page: seriesPage, setPage: setSeriesPage, series, list, total } = pages;
  const [chosen, setChosen] = useState<number | null>(null);
  // The first series is shown until another is chosen; a chosen series that left the list falls back too.
  const current = list.find((s) => s.IDs.ID === chosen) ?? list[0] ?? null;

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-3 p-3 md:p-6">
      <UnrecognizedTabs />
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-xl font-semibold">Manually Linked Files</h1>
        <CountBadge pending={series.isPending} testId="series-total">
          {total} series
        </CountBadge>
        <div className="ml-auto flex w-full items-center gap-2 sm:w-auto">
          <SearchBox label="Search series" value={searchText} onChange={setSearchText} />
          <Button variant="secondary" onClick={() => void series.refetch()} aria-label="Refresh">
            <Icon path={mdiRefresh} size={0.8} spin={series.isFetching} />
          </Button>
        </div>
      </div>
      <div className="grid min-h-0 flex-1 gap-3 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <ListPanel label="Series with manually linked files">
          <SeriesListState pages={pages} emptyText="No series with manually linked files!" />
          <SelectableList
            items={list}
            getKey={(item) => item.IDs.ID}
            selectedKey={current?.IDs.ID}
            onSelect={(item) => setChosen(item.IDs.ID)}
          >
            {(item) => (
              <>
                <span className="min-w-0 flex-1 truncate font-semibold">{item.Name}</span>
                <span className="text-xs opacity-75">AniDB {item.IDs.AniDB}</span>
              </>
            )}
          </SelectableList>
          <Pager label="Series pages" page={seriesPage} pageSize={SERIES_PAGE_SIZE} total={total} onPage={setSeriesPage} />
        </ListPanel>
        {current ? (
          <SeriesFiles key={current.IDs.ID} seriesId={current.IDs.ID} anidbId={current.IDs.AniDB} name={current.Name} />
        ) : (
          <PlaceholderPanel>Select a series to see its files.</PlaceholderPanel>
        )}
      </div>
    </div>
  );
}

function SeriesFiles({ seriesId, anidbId, name }: { seriesId: number; anidbId: number; name: string }) {
  const [page, setPage] = useState(1);
  const files = useManuallyLinkedFiles(seriesId, page, PAGE_SIZE);
  const episodes = useAnidbEpisodes(anidbId);
  const labels = useMemo(() => new Map((episodes.data?.List ?? []).map((e) => [e.ID, episodeLabel(e)])), [episodes.data]);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const unlink = useUnlinkFiles();
  const list = files.data?.List ?? [];
  const ids = list.filter((f) => selected.has(f.ID)).map((f) => f.ID);
  const toggle = (id: number) => setSelected((current) => toggledIn(current, id));

  const episodeText = (file: FileDetails) =>
    (file.SeriesIDs ?? [])
      .flatMap((xref) => xref.EpisodeIDs.filter((e) => e.Source === 'User' && xref.SeriesID.AniDB === anidbId))
      .map((e) => labels.get(e.AniDB) ?? `AniDB episode ${e.AniDB}`)
      .join(', ');

  return (
    <ListPanel label={`Manually linked files of ${name}`}>
      <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label="Linked file actions">
        <h2 className="mr-auto min-w-0 truncate font-semibold">{name}</h2>
        <RescanButton ids={ids} />
        <Button
          variant="secondary"
          disabled={!ids.length}
          busy={unlink.isPending}
          onClick={() =>
            unlink.mutate(ids, {
              onSuccess: () => toast.success(`Unlinked ${fileCount(ids.length)}.`),
              onSettled: () => setSelected(new Set()),
            })
          }
        >
          <Icon path={mdiLinkVariantOff} size={0.8} />
          Unlink
        </Button>
      </div>
      <ListState
        loading={files.isPending}
        error={files.error}
        empty={!list.length}
        emptyText="No manually linked files."
        loadingText="Loading files…"
      />
      <ul className="flex min-h-0 flex-1 flex-col gap-1 overflow-auto">
        {list.map((file) => {
          const { name: fileName, directory } = splitRelativePath(primaryLocation(file)?.RelativePath ?? '');
          return (
            <li key={file.ID}>
              <label className="flex cursor-pointer items-center gap-3 rounded-md px-2 py-2 hover:bg-panel-alt" data-testid="linked-file">
                <input
                  type="checkbox"
                  checked={selected.has(file.ID)}
                  onChange={() => toggle(file.ID)}
                  aria-label={`Select ${fileName}`}
                  className="size-4 accent-[var(--color-primary)]"
                />
                <span className="min-w-0 flex-1">
                  <span className="block truncate text-sm font-semibold">{fileName || `File ${file.ID}`}</span>
                  <span className="block truncate text-xs text-muted">{directory}</span>
                </span>
                <span className="hidden max-w-[14rem] truncate text-xs text-muted sm:block">{episodeText(file)}</span>
                <span className="w-20 shrink-0 text-right text-xs text-muted">{formatFileSize(file.Size)}</span>
              </label>
            </li>
          );
        })}
      </ul>
      <Pager label="File pages" page={page} pageSize={PAGE_SIZE} total={files.data?.Total ?? 0} onPage={setPage} />
    </ListPanel>
  );
}
