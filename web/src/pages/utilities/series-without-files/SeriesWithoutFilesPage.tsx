import { mdiClose, mdiDeleteOutline, mdiPlusCircleOutline, mdiRefresh } from '@mdi/js';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import { useAddSeries, useAnidbSearch, useDeleteSeries } from '@/api/utilities';
import { Button } from '@/components/Button';
import { CountBadge } from '@/components/CountBadge';
import { ConfirmModal } from '@/components/ConfirmModal';
import { Icon } from '@/components/Icon';
import { ListState, Pager } from '@/components/List';
import { Modal, ModalFooter } from '@/components/Modal';
import { SearchBox } from '@/components/SearchBox';
import { Spinner } from '@/components/Spinner';
import { toggledIn } from '@/lib/sets';
import { useDebouncedValue } from '@/lib/useDebouncedValue';
import { SERIES_PAGE_SIZE, SeriesListState, usePageTitle, useSeriesUtilityPages } from '../UtilityParts';

const NONE: ReadonlySet<number> = new Set();
const GRID = 'grid grid-cols-[2.5rem_5rem_minmax(0,1fr)_8rem] items-center gap-3 px-3';

/** Utilities → Series Without Files: series whose episodes have no local file, to delete or to add more. */
export default function SeriesWithoutFilesPage() {
  usePageTitle('Series Without Files');
  const pages = useSeriesUtilityPages('WithoutFiles');
  const { searchText, setSearchText, page, setPage, series, list, total } = pages;
  const [selected, setSelected] = useState<ReadonlySet<number>>(NONE);
  const [adding, setAdding] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteSeries();
  const chosen = list.filter((s) => selected.has(s.IDs.ID));
  const allChosen = list.length > 0 && chosen.length === list.length;
  const toggle = (id: number) => setSelected(toggledIn(selected, id));

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-3 p-3 md:p-6">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-xl font-semibold">Series Without Files</h1>
        <CountBadge pending={series.isPending} testId="series-total">
          {total} series
        </CountBadge>
        {chosen.length > 0 && <span className="text-sm font-semibold text-primary">{chosen.length} selected</span>}
        <SearchBox
          label="Search series"
          value={searchText}
          className="ml-auto sm:w-72"
          onChange={(value) => {
            setSearchText(value);
            setSelected(NONE);
          }}
        />
      </div>
      <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label="Series actions">
        <Button variant="secondary" onClick={() => void series.refetch()}>
          <Icon path={mdiRefresh} size={0.8} spin={series.isFetching} />
          Refresh
        </Button>
        <Button variant="secondary" onClick={() => setAdding(true)}>
          <Icon path={mdiPlusCircleOutline} size={0.8} />
          Add Series
        </Button>
        <Button
          variant="secondary"
          disabled={!chosen.length}
          onClick={() => setConfirming(true)}
          className="hover:border-danger hover:text-danger"
        >
          <Icon path={mdiDeleteOutline} size={0.8} />
          Delete
        </Button>
        <Button variant="ghost" disabled={!chosen.length} onClick={() => setSelected(NONE)}>
          <Icon path={mdiClose} size={0.8} />
          Cancel Selection
        </Button>
      </div>
      <div className="min-h-[16rem] flex-1 overflow-auto rounded-xl border border-border bg-panel">
        <div role="table" aria-label="Series Without Files" className="min-w-[34rem]">
          <div
            role="row"
            className={`${GRID} sticky top-0 h-10 border-b border-border bg-panel text-xs font-semibold uppercase tracking-wider text-muted`}
          >
            <span role="columnheader" className="flex justify-center">
              <input
                type="checkbox"
                aria-label="Select all series on this page"
                checked={allChosen}
                disabled={!list.length}
                onChange={() => setSelected(allChosen ? NONE : new Set(list.map((s) => s.IDs.ID)))}
                className="size-4 accent-[var(--color-primary)]"
              />
            </span>
            <span role="columnheader">Shoko ID</span>
            <span role="columnheader">Name</span>
            <span role="columnheader">Date Added</span>
          </div>
          <SeriesListState pages={pages} emptyText="No series without files!" />
          {list.map((item) => (
            <div
              role="row"
              key={item.IDs.ID}
              data-testid="series-row"
              className={`${GRID} min-h-12 border-b border-border py-2 text-sm last:border-0 ${selected.has(item.IDs.ID) ? 'bg-panel-alt' : ''}`}
            >
              <span role="cell" className="flex justify-center">
                <input
                  type="checkbox"
                  aria-label={`Select ${item.Name}`}
                  checked={selected.has(item.IDs.ID)}
                  onChange={() => toggle(item.IDs.ID)}
                  className="size-4 accent-[var(--color-primary)]"
                />
              </span>
              <span role="cell" className="font-mono text-xs">
                {item.IDs.ID}
              </span>
              <span role="cell" className="min-w-0">
                <Link to={`/collection/series/${item.IDs.ID}`} className="block truncate font-semibold hover:text-primary">
                  {item.Name}
                </Link>
                <a
                  href={`https://anidb.net/anime/${item.IDs.AniDB}`}
                  target="_blank"
                  rel="noreferrer"
                  className="text-xs text-muted hover:text-primary"
                >
                  AniDB {item.IDs.AniDB}
                </a>
              </span>
              <span role="cell" className="text-xs text-muted">
                {dayjs(item.Created).format('YYYY-MM-DD HH:mm')}
              </span>
            </div>
          ))}
        </div>
      </div>
      <Pager label="Series pages" page={page} pageSize={SERIES_PAGE_SIZE} total={total} onPage={(p) => (setPage(p), setSelected(NONE))} />
      {adding && <AddSeriesModal onClose={() => setAdding(false)} />}
      <ConfirmModal
        open={confirming}
        title={`Delete ${chosen.length} series?`}
        busy={remove.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(
            chosen.map((s) => s.IDs.ID),
            {
              onSuccess: () => toast.success(`Deleted ${chosen.length} series.`),
              onSettled: () => {
                setConfirming(false);
                setSelected(NONE);
              },
            },
          )
        }
      >
        <p>The selected series and their episodes are removed from the collection. No file on disk is touched.</p>
        <ul className="list-inside list-disc text-muted">
          {chosen.slice(0, 5).map((s) => (
            <li key={s.IDs.ID}>{s.Name}</li>
          ))}
          {chosen.length > 5 && <li>…and {chosen.length - 5} more</li>}
        </ul>
      </ConfirmModal>
    </div>
  );
}

/** Search AniDB and add a series that is not in the collection yet (results already in it are left out, SPEC §5). */
function AddSeriesModal({ onClose }: { onClose: () => void }) {
  const [text, setText] = useState('');
  const search = useDebouncedValue(text.trim(), 200);
  const results = useAnidbSearch(search);
  const add = useAddSeries();
  const hits = (results.data?.List ?? []).filter((hit) => !hit.ShokoID);
  return (
    <Modal open onClose={onClose} title="Add Series" footer={<ModalFooter onCancel={onClose} cancelLabel="Close" />}>
      <SearchBox label="Search AniDB" value={text} onChange={setText} className="" />
      <div className="max-h-80 min-h-[8rem] overflow-auto rounded-md border border-border">
        {!search && <p className="p-4 text-center text-muted">Enter a series name or AniDB ID.</p>}
        {search && (
          <ListState
            loading={results.isPending}
            error={results.error}
            empty={!hits.length}
            emptyText="No results found!"
            loadingText="Searching…"
          />
        )}
        <ul aria-label="AniDB search results">
          {search &&
            hits.map((hit) => (
              <li key={hit.ID} className="flex items-center gap-2 border-b border-border px-3 py-2 last:border-0">
                <span className="w-14 shrink-0 font-mono text-xs text-muted">{hit.ID}</span>
                <span className="min-w-0 flex-1 truncate">{hit.Title}</span>
                <Button
                  variant="secondary"
                  className="px-2 py-1"
                  aria-label={`Add ${hit.Title}`}
                  disabled={add.isPending}
                  onClick={() => add.mutate(hit.ID, { onSuccess: () => toast.success(`${hit.Title} added!`) })}
                >
                  {add.isPending && add.variables === hit.ID ? <Spinner size={0.8} /> : <Icon path={mdiPlusCircleOutline} size={0.8} />}
                </Button>
              </li>
            ))}
        </ul>
      </div>
    </Modal>
  );
}
