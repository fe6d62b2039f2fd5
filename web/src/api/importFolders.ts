import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type {
  DeleteImportFolderQuery,
  ImportFolder,
  NewImportFolder,
  OfflineFolderRecords,
  RemoveOfflineRecordsQuery,
} from '@shoko-ts/contract';
import { api } from './client';
import { PREFETCHED_FRESH_MS } from './fresh';
import { fileKeys, importFolderKeys } from './keys';

export const importFoldersQuery = () =>
  queryOptions({
    queryKey: importFolderKeys.list,
    queryFn: ({ signal }) => api.get<ImportFolder[]>('ImportFolder', { signal }),
    retry: false,
    // A file table remounted by a new search or sort (and the panels beside it) read the answer of a moment ago, as
    // does a page whose loader asked for it; the live feed and the mutations still refetch it on a change.
    staleTime: PREFETCHED_FRESH_MS,
  });

export function useImportFolders(enabled = true) {
  return useQuery({ ...importFoldersQuery(), enabled });
}

/** Import folder names by id, for file tables that show which folder a file lives in. */
export function useImportFolderNames(): Map<number, string> {
  const { data } = useImportFolders();
  return useMemo(() => new Map((data ?? []).map((folder) => [folder.ID, folder.Name])), [data]);
}

/** The ids of the import folders that are offline (their files' records are kept, shown as offline). */
export const offlineFolderIdsOf = (folders: ImportFolder[] | undefined): ReadonlySet<number> =>
  new Set((folders ?? []).filter((folder) => folder.IsAvailable === false).map((folder) => folder.ID));

/** The ids of the import folders that are offline, kept current while the component is shown. */
export function useOfflineFolderIds(): ReadonlySet<number> {
  const { data } = useImportFolders();
  return useMemo(() => offlineFolderIdsOf(data), [data]);
}

/** What removing the records of an offline folder would remove (`GET ImportFolder/{id}/OfflineRecords`, admin). */
export function useOfflineRecords(id: number, enabled: boolean) {
  return useQuery({
    queryKey: [...importFolderKeys.all, id, 'offline-records'],
    queryFn: ({ signal }) => api.get<OfflineFolderRecords>(`ImportFolder/${id}/OfflineRecords`, { signal }),
    enabled,
    staleTime: 0,
  });
}

/** Removes the records of an offline folder's files, with the count the admin confirmed (never files on disk). */
export function useRemoveOfflineRecords() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, locationCount }: { id: number; locationCount: number }) =>
      api.delete<{ Locations: number; Files: number }>(`ImportFolder/${id}/OfflineRecords`, undefined, {
        query: { locationCount } satisfies RemoveOfflineRecordsQuery,
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: importFolderKeys.all });
      void queryClient.invalidateQueries({ queryKey: fileKeys.all });
    },
  });
}

/** Create (`POST ImportFolder`). Validation failures are shown by the modal next to the fields, not as toasts. */
export function useAddImportFolder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (folder: NewImportFolder) => api.post<ImportFolder>('ImportFolder', { ID: 0, ...folder }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: importFolderKeys.list }),
    meta: { inlineErrors: true },
  });
}

/** Replace (`PUT ImportFolder`) with the whole object, as listed. */
export function useUpdateImportFolder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (folder: ImportFolder) => api.put<void>('ImportFolder', folder),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: importFolderKeys.list }),
    meta: { inlineErrors: true },
  });
}

interface DeleteImportFolder {
  id: number;
  /** false keeps the file records, so the folder can be re-added at a new path without re-hashing. */
  removeRecords: boolean;
}

export function useDeleteImportFolder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, removeRecords }: DeleteImportFolder) =>
      api.delete<void>(`ImportFolder/${id}`, undefined, { query: { removeRecords } satisfies Partial<DeleteImportFolderQuery> }),
    onSuccess: (_data, { removeRecords }) => {
      void queryClient.invalidateQueries({ queryKey: importFolderKeys.list });
      if (removeRecords) void queryClient.invalidateQueries({ queryKey: fileKeys.all });
    },
  });
}

/** Queues a scan of every video file in the folder; results arrive later through the hub. */
export function useScanImportFolder() {
  return useMutation({
    mutationFn: (id: number) => api.get<void>(`ImportFolder/${id}/Scan`),
  });
}
