import { useEffect, useRef, useState } from 'react';
import { useSeriesUtilityList, type SeriesUtilityKind } from '@/api/utilities';
import { ListState } from '@/components/List';
import { usePagedSearch } from '@/lib/usePagedSearch';
import { shownTableKey } from './unrecognized/fileTable';

/** Sets the tab title while a utility page is open. */
export function usePageTitle(title: string) {
  useEffect(() => {
    document.title = `${title} | Shoko`;
    return () => {
      document.title = 'Shoko';
    };
  }, [title]);
}

/**
 * The trimmed search text once it has stopped changing for `delay` ms. `ask` is called with it at that instant, before
 * the page re-renders with it, so the search's request leaves without waiting for that render (about 100 ms of a
 * loaded core for a file table).
 */
export function useSettledSearch(text: string, delay: number, ask: (search: string) => void): string {
  const [settled, setSettled] = useState(text.trim());
  const askRef = useRef(ask);
  useEffect(() => {
    askRef.current = ask;
  });
  useEffect(() => {
    const search = text.trim();
    const timer = setTimeout(() => {
      askRef.current(search);
      setSettled(search);
    }, delay);
    return () => clearTimeout(timer);
  }, [text, delay]);
  return settled;
}

/**
 * The key to draw a file table under for the list `requested`: see shownTableKey (the previous key is kept while the
 * previous rows stand in as placeholder data).
 */
export function useShownTableKey(requested: string, placeholder: boolean): string {
  const [shown, setShown] = useState(requested);
  const key = shownTableKey(requested, shown, placeholder);
  if (key !== shown) setShown(key);
  return key;
}

/** Page size of the utility pages' series lists (SPEC §9). */
export const SERIES_PAGE_SIZE = 25;

/** A utility page's series list of one kind: its search box and search, its page, and that page of series. */
export function useSeriesUtilityPages(kind: SeriesUtilityKind) {
  const paged = usePagedSearch();
  const series = useSeriesUtilityList(kind, paged.page, paged.search, SERIES_PAGE_SIZE);
  return { ...paged, series, list: series.data?.List ?? [], total: series.data?.Total ?? 0 };
}

/** The loading, error and empty states of a utility series list; `emptyText` is said when no search narrows it. */
export function SeriesListState({ pages, emptyText }: { pages: ReturnType<typeof useSeriesUtilityPages>; emptyText: string }) {
  return (
    <ListState
      loading={pages.series.isPending}
      error={pages.series.error}
      empty={!pages.list.length}
      emptyText={pages.search ? 'No search results!' : emptyText}
      loadingText="Loading series…"
    />
  );
}
