import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Backup, BackupStatus } from '@shoko-ts/contract';
import { getApiKey } from '@/lib/session';
import { api, ApiError, buildUrl } from './client';

/** Backups of the database and settings (our extension: `/api/v3/Backup*`, admin-only). */
export const backupKeys = {
  all: ['backups'] as const,
  list: ['backups', 'list'] as const,
  status: ['backups', 'status'] as const,
};

const path = (name: string) => `Backup/${encodeURIComponent(name)}`;

export function useBackups() {
  return useQuery({ queryKey: backupKeys.list, queryFn: ({ signal }) => api.get<Backup[]>('Backup', { signal }) });
}

export function useBackupStatus() {
  return useQuery({ queryKey: backupKeys.status, queryFn: ({ signal }) => api.get<BackupStatus>('Backup/Status', { signal }) });
}

export function useCreateBackup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<Backup>('Backup'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: backupKeys.list }),
  });
}

export function useDeleteBackup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.delete<void>(path(name)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: backupKeys.all }),
  });
}

export function useScheduleRestore() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.post<BackupStatus>(`${path(name)}/Restore`),
    onSuccess: (status) => queryClient.setQueryData(backupKeys.status, status),
  });
}

export function useCancelRestore() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<BackupStatus>('Backup/Restore'),
    onSuccess: (status) => queryClient.setQueryData(backupKeys.status, status),
  });
}

/** Downloads a backup with the session's key in the header (a plain link would have to put the key in the URL). */
export function useDownloadBackup() {
  return useMutation({
    mutationFn: async (name: string) => {
      const url = buildUrl(path(name));
      const response = await fetch(url, { headers: { apikey: getApiKey() } });
      if (!response.ok) throw new ApiError(response.status, 'GET', url, await response.text());
      const link = document.createElement('a');
      link.href = URL.createObjectURL(await response.blob());
      link.download = name;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
    },
  });
}
