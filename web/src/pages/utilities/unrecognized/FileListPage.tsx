import { mdiClose, mdiRefresh } from '@mdi/js';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { File, FileIncludeOnlyType, FileSortCriterion } from '@shoko-ts/contract';
import { fileListQuery, kindListParams, useFileList, type FileListParams, type FileSort } from '@/api/files';
import { useImportFolderNames } from '@/api/importFolders';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { SearchBox } from '@/components/SearchBox';
import { NavTabs } from '@/components/Tabs';
import { useAggregateState } from '@/realtime/AggregateHub';
import { effectiveSort, nextSort } from './fileTable';
import { FileTable } from './FileTable';
import { useSettledSearch, useShownTableKey } from '../UtilityParts';

const SEARCH_DEBOUNCE_MS = 200;
/** Without the live feed (hub disconnected) the list refreshes itself this often while the tab is visible. */
const POLL_MS = 5000;
const NO_SELECTION: ReadonlySet<number> = new Set();

const TABS = [
  ['/utilities/unrecognized/files', 'Unrecognized Files'],
  ['/utilities/unrecognized/manually-linked-files', 'Manually Linked Files'],
  ['/utilities/unrecognized/ignored-files', 'Ignored Files'],
] as const;

/** The tabs above the unrecognized, manually linked and ignored file lists. */
export function UnrecognizedTabs() {
  return <NavTabs label="Unrecognized files sections" end tabs={TABS.map(([to, label]) => ({ to, label }))} />;
}

export interface SelectionActions {
  files: File[];
  clearSelection: () => void;
}

interface FileListPageProps {
  title: string;
  includeOnly: FileIncludeOnlyType;
  pageSize: number;
  emptyText: string;
  /** Toolbar buttons acting on the selected files. */
  actions: (selection: SelectionActions) => ReactNode;
}

/** A searchable, sortable, selectable table of one kind of file (unrecognized, ignored) with its actions. */
export function FileListPage({ title, includeOnly, pageSize, emptyText, actions }: FileListPageProps) {
  const [searchText, setSearchText] = useState('');
  const [sort, setSort] = useState<FileSort | null>(null);
  const queryClient = useQueryClient();
  const search = useSettledSearch(searchText, SEARCH_DEBOUNCE_MS, (text) => {
    if (text) void queryClient.prefetchInfiniteQuery(fileListQuery(kindListParams(pageSize, includeOnly, sort, text)));
  });
  const searching = search !== '';
  const params = useMemo<FileListParams>(() => kindListParams(pageSize, includeOnly, sort, search), [pageSize, includeOnly, sort, search]);
  const { connected } = useAggregateState();
  const list = useFileList(params, { refetchInterval: connected ? false : POLL_MS });
  const folderNames = useImportFolderNames();

  const files = useMemo(() => list.data?.pages.flatMap((page) => page.List) ?? [], [list.data]);
  // A new search or sort starts at the top, once its rows are there.
  const tableKey = useShownTableKey(`${search}|${params.sortOrder?.join(',')}`, list.isPlaceholderData);
  const total = list.data?.pages.at(-1)?.Total ?? 0;

  // A new search starts a new selection; rows that left the list (ignored, deleted) drop out of it.
  const [selection, setSelection] = useState<{ search: string; ids: ReadonlySet<number> }>({ search, ids: NO_SELECTION });
  const selectedIds = selection.search === search ? selection.ids : NO_SELECTION;
  const selectedFiles = useMemo(() => files.filter((file) => selectedIds.has(file.ID)), [files, selectedIds]);
  const setSelected = useCallback((ids: ReadonlySet<number>) => setSelection({ search, ids }), [search]);
  const clearSelection = useCallback(() => setSelected(NO_SELECTION), [setSelected]);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  useEffect(() => {
    document.title = `${title} | Shoko`;
    return () => {
      document.title = 'Shoko';
    };
  }, [title]);

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-3 p-3 md:p-6">
      <UnrecognizedTabs />
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-xl font-semibold">{title}</h1>
        <span className="rounded-full bg-panel-alt px-2 py-0.5 text-xs font-semibold text-muted" data-testid="file-total">
          {list.isPending ? '…' : `${total} ${total === 1 ? 'file' : 'files'}`}
        </span>
        {selectedFiles.length > 0 && (
          <span className="text-sm font-semibold text-primary" data-testid="selected-count">
            {selectedFiles.length} selected
          </span>
        )}
        <SearchBox label="Search files" value={searchText} onChange={setSearchText} className="ml-auto sm:w-72" />
      </div>
      <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label="File actions">
        <Button variant="secondary" onClick={() => void list.refetch()}>
          <Icon path={mdiRefresh} size={0.8} spin={list.isFetching && !list.isFetchingNextPage} />
          Refresh
        </Button>
        {actions({ files: selectedFiles, clearSelection })}
        <Button variant="ghost" onClick={clearSelection} disabled={!selectedFiles.length}>
          <Icon path={mdiClose} size={0.8} />
          Cancel Selection
        </Button>
      </div>
      <FileTable
        key={tableKey}
        label={title}
        files={files}
        total={total}
        folderNames={folderNames}
        sort={effectiveSort(sort, searching)}
        onSort={(criterion: FileSortCriterion) => setSort(nextSort(sort, criterion, searching))}
        selected={selectedIds}
        onSelectionChange={setSelected}
        loading={list.isPending}
        error={list.error}
        emptyText={searching ? 'No search results!' : emptyText}
        hasMore={!!hasNextPage}
        onLoadMore={loadMore}
      />
    </div>
  );
}
