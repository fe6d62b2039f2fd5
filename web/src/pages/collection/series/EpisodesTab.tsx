import { measureElement, useWindowVirtualizer, windowScroll } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { IncludeOnlyFilter } from '@shoko-ts/contract';
import { useCurrentUser } from '@/api/users';
import { useFilterDescription } from '@/components/collection/collectionSettings';
import {
  EPISODE_TYPE_GROUPS,
  episodeFiltersOf,
  useSeriesEpisodes,
  useSetEpisodeHidden,
  useSetEpisodesWatched,
  useVoteEpisode,
  type EpisodeFilters,
} from '@/api/series';
import { Button } from '@/components/Button';
import { EmptyNote, ToolbarPanel } from '@/components/Panel';
import { SearchBox } from '@/components/SearchBox';
import { Spinner } from '@/components/Spinner';
import { EpisodeRow } from '@/components/series/EpisodeRow';
import { WatchOptionsModal } from '@/components/series/WatchOptionsModal';
import { useDebouncedValue } from '@/lib/useDebouncedValue';
import { useSeriesContext } from './seriesContext';

const SEARCH_DEBOUNCE_MS = 200;
/** SPEC §9: the next page is fetched 50 ms after the end of the list comes into view. */
const NEXT_PAGE_DEBOUNCE_MS = 50;
/** Until a row is measured: its height when it cannot be known from CSS. */
const ROW_ESTIMATE_PX = 170;
/**
 * The height CSS gives a row with every part (Play and, for an administrator, Hide) from the md breakpoint on, where
 * a row is one line of summary and actions: such rows are drawn without reading layout (measured 208 px; a row whose
 * meta line wraps 210).
 */
const FULL_ROW_PX = 208;
const WIDE_MIN_PX = 768;
const ROW_GAP_PX = 8;
const OVERSCAN = 10;
const FIRST_OVERSCAN = 3;

const INCLUDE_FILTERS = [
  { key: 'includeWatched', label: 'Watched', fallback: 'true' },
  { key: 'includeMissing', label: 'Missing', fallback: 'false' },
  { key: 'includeHidden', label: 'Hidden', fallback: 'false' },
  { key: 'includeUnaired', label: 'Unaired', fallback: 'false' },
] as const;
const INCLUDE_OPTIONS: Array<[IncludeOnlyFilter, string]> = [
  ['true', 'Include'],
  ['false', 'Exclude'],
  ['only', 'Only'],
];

const selectClass = 'rounded-md border border-border bg-panel-alt px-2 py-1.5 text-sm focus:border-primary focus:outline-none';

/** Episodes: filters kept in the URL, a virtual list loaded 26 at a time, watch and hide actions. */
export default function EpisodesTab() {
  const { seriesId } = useSeriesContext();
  const [params, setParams] = useSearchParams();
  const user = useCurrentUser();
  const filterDescription = useFilterDescription();
  const filters: EpisodeFilters = useMemo(() => episodeFiltersOf(params), [params]);
  const setParam = (key: string, value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );

  const [searchText, setSearchText] = useState(filters.search);
  const search = useDebouncedValue(searchText.trim(), SEARCH_DEBOUNCE_MS);
  useEffect(() => {
    if (search !== filters.search) setParam('search', search || null);
    // Only the debounced text drives the URL; the URL changing by itself does not retype the box.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [search]);

  const episodes = useSeriesEpisodes(seriesId, filters);
  const list = useMemo(() => episodes.data?.pages.flatMap((page) => page.List) ?? [], [episodes.data]);
  const total = episodes.data?.pages[0]?.Total ?? 0;

  // The selection belongs to one set of filters.
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const filterKey = JSON.stringify(filters);
  const [selectionKey, setSelectionKey] = useState(filterKey);
  if (selectionKey !== filterKey) {
    setSelectionKey(filterKey);
    setSelected(new Set());
  }

  const watched = useSetEpisodesWatched(seriesId);
  const hidden = useSetEpisodeHidden(seriesId);
  const vote = useVoteEpisode(seriesId);
  const [watchOptions, setWatchOptions] = useState(false);

  const listRef = useRef<HTMLDivElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  // The list starts below the header panels, whose height changes as their data arrives: keep the offset current.
  // Measured when the observer reports (after the browser's own layout), never while React commits: a read there
  // forced a layout of the whole page, and the re-render it caused a second one, before the first paint.
  useEffect(() => {
    const observer = new ResizeObserver(() => {
      if (listRef.current) setScrollMargin(Math.round(listRef.current.getBoundingClientRect().top + window.scrollY));
    });
    // The page's main area grows with the header above the list (and with the list itself; measuring is cheap).
    observer.observe(listRef.current?.closest('main') ?? document.documentElement);
    return () => observer.disconnect();
  }, []);
  // The first paint draws the rows in view and a few more; the rest of the overscan once it is on screen.
  const [overscan, setOverscan] = useState(FIRST_OVERSCAN);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => (timer = setTimeout(() => setOverscan(OVERSCAN))));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  // A row's height is what the virtualizer's ResizeObserver reports once the browser has laid the row out. When a row
  // is attached, a height known before (measured, or from CSS) is used instead of reading layout in the middle of
  // React's commit; other rows are measured at once.
  const wide = window.innerWidth >= WIDE_MIN_PX;
  const isAdmin = !!user.data?.IsAdmin;
  // The virtualizer writes the window's offset back as it starts. A write to where the window already is moves nothing
  // but forced a layout of the whole page inside React's commit (20-90 ms of the first draw in Chromium profiles).
  const startWritten = useRef(false);
  const heightFromCss = (index: number) => (wide && isAdmin && (list[index]?.Size ?? 0) > 0 ? FULL_ROW_PX : null);
  const virtualizer = useWindowVirtualizer({
    count: list.length,
    estimateSize: (index) => heightFromCss(index) ?? ROW_ESTIMATE_PX,
    measureElement: (element, entry, instance) => {
      const box = entry?.borderBoxSize?.[0];
      if (box) return Math.round(box.blockSize);
      const index = instance.indexFromElement(element);
      return (
        instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? heightFromCss(index) ?? measureElement(element, entry, instance)
      );
    },
    scrollToFn: (offset, options, instance) => {
      const atStart = !startWritten.current;
      startWritten.current = true;
      if (atStart && offset + (options.adjustments ?? 0) === instance.scrollOffset && !options.behavior) return;
      windowScroll(offset, options, instance);
    },
    overscan,
    gap: ROW_GAP_PX,
    scrollMargin,
    // The window's size is known now: the first render draws rows instead of waiting for the virtualizer to read it.
    initialRect: { width: window.innerWidth, height: window.innerHeight },
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length ? items[items.length - 1].index : -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = episodes;
  useEffect(() => {
    if (!hasNextPage || isFetchingNextPage || lastIndex < list.length - 1) return;
    const timer = setTimeout(() => void fetchNextPage(), NEXT_PAGE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [hasNextPage, isFetchingNextPage, lastIndex, list.length, fetchNextPage]);

  const toggle = (id: number, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  return (
    <div className="flex flex-col gap-3">
      <ToolbarPanel label="Episode filters" align="end">
        <SearchBox label="Search episodes" value={searchText} onChange={setSearchText} className="sm:w-64" onPanel />
        <label className="flex flex-col gap-1 text-xs font-semibold">
          Type
          <select className={selectClass} value={filters.type} onChange={(event) => setParam('type', event.target.value)}>
            {Object.keys(EPISODE_TYPE_GROUPS).map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </label>
        {INCLUDE_FILTERS.map(({ key, label }) => (
          <label key={key} className="flex flex-col gap-1 text-xs font-semibold">
            {label}
            <select className={selectClass} value={filters[key]} onChange={(event) => setParam(key, event.target.value)}>
              {INCLUDE_OPTIONS.map(([value, text]) => (
                <option key={value} value={value}>
                  {text}
                </option>
              ))}
            </select>
          </label>
        ))}
        <div className="flex items-center gap-3 sm:ml-auto">
          <span className="text-sm text-muted" data-testid="episode-total">
            {episodes.isPending ? '…' : `${total} ${total === 1 ? 'Episode' : 'Episodes'}`}
            {selected.size > 0 && ` | ${selected.size} Selected`}
          </span>
          <Button variant="secondary" onClick={() => setWatchOptions(true)}>
            Watch Options
          </Button>
        </div>
      </ToolbarPanel>
      <div ref={listRef} aria-label="Episodes" role="list">
        {episodes.isPending ? (
          <div className="flex justify-center p-6">
            <Spinner />
          </div>
        ) : episodes.isError ? (
          <p className="p-6 text-center text-danger">{episodes.error.message}</p>
        ) : list.length === 0 ? (
          <EmptyNote testId="episodes-empty">
            {filters.search ? `No episodes match ${filters.search}.` : 'No episodes match the filters.'}
          </EmptyNote>
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((item) => {
              const episode = list[item.index];
              return (
                <div
                  key={episode.IDs.ID}
                  role="listitem"
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                  className="absolute left-0 w-full"
                  style={{ transform: `translateY(${item.start - virtualizer.options.scrollMargin}px)` }}
                >
                  <EpisodeRow
                    episode={episode}
                    selected={selected.has(episode.IDs.ID)}
                    onSelect={(on) => toggle(episode.IDs.ID, on)}
                    onWatched={(value) => watched.mutate({ episodeIds: [episode.IDs.ID], watched: value })}
                    onHidden={user.data?.IsAdmin ? (value) => hidden.mutate({ episodeId: episode.IDs.ID, hidden: value }) : null}
                    onVote={(stars) => vote.mutate({ episodeId: episode.IDs.ID, value: stars })}
                    busy={watched.isPending || hidden.isPending || vote.isPending}
                    filterDescription={filterDescription}
                  />
                </div>
              );
            })}
          </div>
        )}
        {isFetchingNextPage && (
          <div className="flex justify-center py-3">
            <Spinner size={1} />
          </div>
        )}
      </div>
      <WatchOptionsModal
        seriesId={seriesId}
        filters={filters}
        total={total}
        selected={[...selected]}
        open={watchOptions}
        onClose={() => setWatchOptions(false)}
      />
    </div>
  );
}
