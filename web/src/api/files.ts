import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  FILE_SORT_CRITERIA,
  type BatchDeleteFilesBody,
  type File,
  type FileExcludeType,
  type FileFlagQuery,
  type FileIncludeOnlyType,
  type FileIncludeType,
  type FileListQuery,
  type FileSortCriterion,
  type ListResult,
} from '@shoko-ts/contract';
import { api, type Query } from './client';
import { PREFETCHED_FRESH_MS } from './fresh';
import { useInvalidate } from './invalidate';
import { fileKeys, importFolderKeys } from './keys';

export interface FileListParams {
  pageSize: number;
  include?: FileIncludeType[];
  exclude?: FileExcludeType[];
  includeOnly?: FileIncludeOnlyType[];
  /** FileSortCriteria numbers, `-` prefixed for descending (see fileSortOrder). */
  sortOrder?: string[];
  /** Trimmed search text; empty or absent lists without searching. */
  search?: string;
}

export interface FileSort {
  criterion: FileSortCriterion;
  descending: boolean;
}

/**
 * The `sortOrder` list for a file table (contract files.md F1): the chosen column (default Import Folder), then file
 * name and relative path as tie-breakers. While searching only an explicitly chosen column is sent, so the server's
 * relevance order stays in charge otherwise.
 */
export function fileSortOrder(sort: FileSort | null, searching: boolean): string[] {
  const signed = ({ criterion, descending }: FileSort) => `${descending ? '-' : ''}${FILE_SORT_CRITERIA.indexOf(criterion)}`;
  if (searching) return sort ? [signed(sort)] : [];
  const primary = sort ?? { criterion: 'ImportFolderName', descending: false };
  const tieBreakers = (['FileName', 'RelativePath'] as const).filter((criterion) => criterion !== primary.criterion);
  return [signed(primary), ...tieBreakers.map((criterion) => signed({ criterion, descending: false }))];
}

/** Path and query of one page of a file list: `File/Search/<text>` when searching, else `File`. */
export function fileListRequest(params: FileListParams, page: number): { path: string; query: Query } {
  const search = params.search?.trim();
  return {
    // Encoded, unlike Shoko's console, so `#`, `?` and `%` in the text reach the server intact.
    path: search ? `File/Search/${encodeURIComponent(search)}` : 'File',
    query: {
      pageSize: params.pageSize,
      page,
      include: params.include,
      exclude: params.exclude,
      include_only: params.includeOnly,
      sortOrder: params.sortOrder,
    } satisfies Partial<FileListQuery>,
  };
}

/** The page after `pages`, while the server reports more rows than loaded (`pageSize` 0 means one page of all). */
export function nextFilePage(pageSize: number, lastPage: ListResult<File>, pages: number): number | undefined {
  if (pageSize === 0) return undefined;
  return pages * pageSize < lastPage.Total ? pages + 1 : undefined;
}

interface FileListOptions {
  /** Polling interval while live updates are unavailable; false when the hub keeps the list fresh. */
  refetchInterval?: number | false;
}

/** A file list loaded page by page, for virtual tables that fetch more as they scroll. */
export function useFileList(params: FileListParams, { refetchInterval = false }: FileListOptions = {}) {
  return useInfiniteQuery({ ...fileListQuery(params), placeholderData: keepPreviousData, refetchInterval });
}

/** A file list's pages (the tables, and a route's prefetch of a list's first page). */
export const fileListQuery = (params: FileListParams) =>
  infiniteQueryOptions({
    queryKey: fileKeys.list<FileListParams>(params),
    queryFn: ({ pageParam, signal }) => {
      const { path, query } = fileListRequest(params, pageParam);
      return api.get<ListResult<File>>(path, { query, signal });
    },
    initialPageParam: 1,
    getNextPageParam: (lastPage, pages) => nextFilePage(params.pageSize, lastPage, pages.length),
    staleTime: PREFETCHED_FRESH_MS,
  });

/** Page size of File Search's list (SPEC §9). */
export const FILE_SEARCH_PAGE_SIZE = 50;
/** File Search's order without a search or a chosen column: the newest files first (contract F1: sortOrder=-7). */
export const FILE_SEARCH_DEFAULT_SORT: FileSort = { criterion: 'CreatedAt', descending: true };

/** File Search's list: every file with its cross-references; a search keeps its relevance order unless a column is chosen. */
export function fileSearchParams(sort: FileSort | null, search: string): FileListParams {
  const searching = search !== '';
  const sortOrder = sort ? fileSortOrder(sort, true) : searching ? [] : fileSortOrder(FILE_SEARCH_DEFAULT_SORT, true);
  return { pageSize: FILE_SEARCH_PAGE_SIZE, include: ['XRefs'], sortOrder, ...(searching ? { search } : {}) };
}

/** Page size of the unrecognized list (SPEC §9). */
export const UNRECOGNIZED_PAGE_SIZE = 200;

/** The list of one kind of file (unrecognized, ignored) as its table asks for it: `sort` null is the default order. */
export function kindListParams(pageSize: number, includeOnly: FileIncludeOnlyType, sort: FileSort | null, search: string): FileListParams {
  const searching = search !== '';
  return { pageSize, includeOnly: [includeOnly], sortOrder: fileSortOrder(sort, searching), ...(searching ? { search } : {}) };
}

/**
 * Runs one call per file (the API has no batch form for these actions) and resolves with how many failed, so a
 * partial failure still lets the successful ones count.
 */
export async function countFailures(ids: readonly number[], call: (id: number) => Promise<unknown>): Promise<number> {
  const results = await Promise.allSettled(ids.map((id) => call(id)));
  return results.filter((result) => result.status === 'rejected').length;
}

function plural(count: number): string {
  return `${count} ${count === 1 ? 'file' : 'files'}`;
}

/** Ignore (`value=true`) or restore (`value=false`) files: they move between the unrecognized and ignored lists. */
export function useSetFilesIgnored() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ ids, ignore }: { ids: readonly number[]; ignore: boolean }) => {
      const failed = await countFailures(ids, (id) =>
        api.put<void>(`File/${id}/Ignore`, undefined, { query: { value: ignore } satisfies FileFlagQuery }),
      );
      if (failed) throw new Error(ignore ? `Error ignoring ${plural(failed)}!` : `Error restoring ${plural(failed)}!`);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: fileKeys.lists }),
  });
}

/** Queues a forced re-hash per file; new hashes arrive later (FileHashed on the hub). */
export function useRehashFiles() {
  return useMutation({
    mutationFn: async (ids: readonly number[]) => {
      const failed = await countFailures(ids, (id) => api.post<void>(`File/${id}/Rehash`));
      if (failed) throw new Error(`Rehash failed for ${plural(failed)}!`);
    },
  });
}

/** Queues a forced AniDB lookup per file; matches arrive later (FileMatched on the hub). */
export function useRescanFiles() {
  return useMutation({
    mutationFn: async (ids: readonly number[]) => {
      const failed = await countFailures(ids, (id) => api.post<void>(`File/${id}/Rescan`));
      if (failed) throw new Error(`Rescan failed for ${plural(failed)}!`);
    },
  });
}

/**
 * Deletes files from disk and from the database. The console always sends both flags explicitly (the server's
 * defaults would do the same) and only after the user has confirmed.
 */
export function useDeleteFiles() {
  const invalidate = useInvalidate(fileKeys.lists, importFolderKeys.list);
  return useMutation({
    mutationFn: async (ids: readonly number[]) => {
      try {
        await api.delete<void>('File', { fileIDs: [...ids], removeFiles: true, removeFolders: true } satisfies BatchDeleteFilesBody);
      } catch (error) {
        throw new Error(`Files could not be deleted! ${(error as Error).message}`);
      }
    },
    onSettled: () => void invalidate(),
  });
}
