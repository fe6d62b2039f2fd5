import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ImportFolder, NewImportFolder } from '@shoko-ts/contract';
import { api } from './client';

export const importFolderKeys = {
  all: ['import-folders'] as const,
};

export function useImportFolders(enabled = true) {
  return useQuery({
    queryKey: importFolderKeys.all,
    queryFn: ({ signal }) => api.get<ImportFolder[]>('ImportFolder', { signal }),
    enabled,
    retry: false,
  });
}

export function useAddImportFolder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (folder: NewImportFolder) => api.post<ImportFolder>('ImportFolder', folder),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: importFolderKeys.all }),
  });
}
