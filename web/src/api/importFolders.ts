import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { DeleteImportFolderQuery, ImportFolder, NewImportFolder } from '@shoko-ts/contract';
import { api } from './client';
import { fileKeys, importFolderKeys } from './keys';

export function useImportFolders(enabled = true) {
  return useQuery({
    queryKey: importFolderKeys.list,
    queryFn: ({ signal }) => api.get<ImportFolder[]>('ImportFolder', { signal }),
    enabled,
    retry: false,
  });
}

/** Import folder names by id, for file tables that show which folder a file lives in. */
export function useImportFolderNames(): Map<number, string> {
  const { data } = useImportFolders();
  return useMemo(() => new Map((data ?? []).map((folder) => [folder.ID, folder.Name])), [data]);
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
