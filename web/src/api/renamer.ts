import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  BatchRelocateBody,
  File,
  JsonPatchOperation,
  ListResult,
  RelocateFileIdsBody,
  RelocateFlagsQuery,
  RelocateQuery,
  RelocationResult,
  Renamer,
  RenamerConfig,
  RenamerConfigInput,
  RenamerSetting,
  Series,
} from '@shoko-ts/contract';
import { api } from './client';
import { useInvalidate } from './invalidate';
import { settingsKeys } from './settings';

/** Preview runs in pages of 20 files, renaming in chunks of 1000 (SPEC §9). */
export const PREVIEW_BATCH = 20;
export const RELOCATE_CHUNK = 1000;
export const SERIES_PAGE_SIZE = 50;

export const renamerKeys = {
  all: ['renamer'] as const,
  renamers: ['renamer', 'renamers'] as const,
  configs: ['renamer', 'configs'] as const,
  preview: (key: unknown) => ['renamer', 'preview', key] as const,
};

export function useRenamers() {
  return useQuery({ queryKey: renamerKeys.renamers, queryFn: ({ signal }) => api.get<Renamer[]>('Renamer', { signal }) });
}

export function useRenamerConfigs() {
  return useQuery({ queryKey: renamerKeys.configs, queryFn: ({ signal }) => api.get<RenamerConfig[]>('Renamer/Config', { signal }) });
}

const configPath = (name: string) => `Renamer/Config/${encodeURIComponent(name)}`;

export function useCreateConfig() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (config: RenamerConfig) => api.post<RenamerConfig>('Renamer/Config', config satisfies RenamerConfigInput),
    onSuccess: () => client.invalidateQueries({ queryKey: renamerKeys.configs }),
  });
}

export function useSaveConfig() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (config: RenamerConfig) => api.put<RenamerConfig>(configPath(config.Name), config satisfies RenamerConfigInput),
    onSuccess: () => client.invalidateQueries({ queryKey: renamerKeys.configs }),
  });
}

export function useRenameConfig() {
  const invalidate = useInvalidate(renamerKeys.configs, settingsKeys.all);
  return useMutation({
    mutationFn: ({ from, to }: { from: string; to: string }) =>
      api.patch<RenamerConfig>(configPath(from), [{ op: 'replace', path: '/Name', value: to }] satisfies JsonPatchOperation[]),
    onSettled: invalidate,
  });
}

export function useDeleteConfig() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.delete<void>(configPath(name)),
    onSuccess: () => client.invalidateQueries({ queryKey: renamerKeys.configs }),
  });
}

export interface PreviewRequest {
  fileIds: number[];
  move: boolean;
  rename: boolean;
  renamerId: string;
  settings: RenamerSetting[];
}

/** Splits ids into consecutive chunks of `size`. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/** The preview of every added file, asked in batches of 20 with the editor's current (unsaved) settings. */
export function useRenamerPreview(request: PreviewRequest | null) {
  const client = useQueryClient();
  return useQuery({
    queryKey: renamerKeys.preview(request),
    enabled: !!request && request.fileIds.length > 0,
    placeholderData: keepPreviousData,
    queryFn: async ({ signal, queryKey }) => {
      const { fileIds, move, rename, renamerId, settings } = request!;
      const results = new Map<number, RelocationResult>();
      for (const ids of chunk(fileIds, PREVIEW_BATCH)) {
        const batch = await api.post<RelocationResult[]>(
          'Renamer/Preview',
          { FileIDs: ids, Config: { RenamerID: renamerId, Name: 'Preview', Settings: settings } } satisfies BatchRelocateBody,
          { query: { move, rename } satisfies RelocateFlagsQuery, signal },
        );
        for (const result of batch) results.set(result.FileID, result);
        // Rows fill in batch by batch instead of all at the end.
        client.setQueryData(queryKey, new Map(results));
      }
      return results;
    },
  });
}

/** Renames with a saved config, 1000 files per request; returns every result. */
export function useRelocateFiles() {
  return useMutation({
    mutationFn: async ({
      configName,
      fileIds,
      move,
      rename,
    }: {
      configName: string;
      fileIds: number[];
      move: boolean;
      rename: boolean;
    }) => {
      const results: RelocationResult[] = [];
      for (const ids of chunk(fileIds, RELOCATE_CHUNK)) {
        results.push(
          ...(await api.post<RelocationResult[]>(`${configPath(configName)}/Relocate`, ids satisfies RelocateFileIdsBody, {
            query: { deleteEmptyDirectories: true, move, rename } satisfies RelocateQuery,
          })),
        );
      }
      return results;
    },
  });
}

/** Files for the Add Files modal: the whole collection, or the most recently imported recognised files. */
export function fetchCollectionFiles(): Promise<File[]> {
  return api.get<ListResult<File>>('File', { query: { pageSize: 0 } }).then((r) => r.List);
}

export function fetchRecentFiles(count: number): Promise<File[]> {
  return api.get<ListResult<File>>('File', { query: { pageSize: count, exclude: 'Unrecognized', sortOrder: -7 } }).then((r) => r.List);
}

export function fetchSeriesFiles(seriesId: number): Promise<File[]> {
  return api.get<ListResult<File>>(`Series/${seriesId}/File`, { query: { pageSize: 0 } }).then((r) => r.List);
}

/** The fields of a series the Add Files modal's search shows. */
export type SeriesSummary = Pick<Series, 'IDs' | 'Name'>;

/** The filter expression of the series search: name contains the text, or AniDB id equals a number. */
export function seriesSearchBody(search: string): Record<string, unknown> {
  const text = search.trim();
  if (!text) return {};
  const byName = { Type: 'StringContains', Left: { Type: 'NameSelector' }, Parameter: text };
  const expression = /^\d+$/.test(text)
    ? { Type: 'Or', Left: byName, Right: { Type: 'AnyEquals', Left: { Type: 'AniDBIDsSelector' }, Parameter: text } }
    : byName;
  return { ApplyAtSeriesLevel: true, Expression: expression };
}

export function useSeriesSearch(search: string, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: ['renamer', 'series', search] as const,
    enabled,
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      api.post<ListResult<SeriesSummary>>('Filter/Preview/Series', seriesSearchBody(search), {
        query: { pageSize: SERIES_PAGE_SIZE, page: pageParam },
        signal,
      }),
    getNextPageParam: (last, pages) => (pages.length * SERIES_PAGE_SIZE < last.Total ? pages.length + 1 : undefined),
  });
}
