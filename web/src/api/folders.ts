import { useQuery } from '@tanstack/react-query';
import type { Drive, Folder, FolderQuery } from '@shoko-ts/contract';
import { api } from './client';

/** The server's filesystem, as the folder browser sees it (admin only on our server). */
export const folderKeys = {
  all: ['folders'] as const,
  drives: ['folders', 'drives'] as const,
  children: (path: string) => ['folders', path, 'children'] as const,
};

export function useDrives(enabled = true) {
  return useQuery({
    queryKey: folderKeys.drives,
    queryFn: ({ signal }) => api.get<Drive[]>('Folder/Drives', { signal }),
    enabled,
    retry: false,
  });
}

/** The sub-directories of `path` (files are never listed). */
export function useFolderChildren(path: string, enabled = true) {
  return useQuery({
    queryKey: folderKeys.children(path),
    queryFn: ({ signal }) => api.get<Folder[]>('Folder', { signal, query: { path } satisfies FolderQuery }),
    enabled,
    retry: false,
  });
}
