import { useMutation, useQuery } from '@tanstack/react-query';
import type { ChangePasswordBody, CreateOrUpdateUserBody, CreateUserBody, ListResult, Tag, User } from '@shoko-ts/contract';
import { api } from './client';
import { useInvalidate } from './invalidate';
import { userKeys } from './users';

/** Admin-side user management (Settings › User Management) and the AniDB tag list its restrictions pick from. */
export const userManagementKeys = {
  list: ['users', 'list'] as const,
  anidbTags: ['tags', 'anidb', 'all'] as const,
};

export function useUsers() {
  return useQuery({
    queryKey: userManagementKeys.list,
    queryFn: ({ signal }) => api.get<User[]>('User', { signal }),
  });
}

export function useAniDBTags() {
  return useQuery({
    queryKey: userManagementKeys.anidbTags,
    queryFn: ({ signal }) => api.get<ListResult<Tag>>('Tag/AniDB', { query: { pageSize: 0, excludeDescriptions: true }, signal }),
    select: (result) => result.List,
    staleTime: 5 * 60_000,
  });
}

/** Invalidates the list and, since an admin may edit their own account here, the current user too. */
function useUsersChanged() {
  return useInvalidate(userManagementKeys.list, userKeys.current);
}

export function useCreateUser() {
  const changed = useUsersChanged();
  return useMutation({
    mutationFn: (body: CreateUserBody) => api.post<User>('User', body),
    onSuccess: changed,
    meta: { inlineErrors: true },
  });
}

export function usePutUser() {
  const changed = useUsersChanged();
  return useMutation({
    mutationFn: ({ ID, ...body }: CreateOrUpdateUserBody & { ID: number }) => api.put<User>(`User/${ID}`, body),
    onSuccess: changed,
  });
}

export function useDeleteUser() {
  const changed = useUsersChanged();
  return useMutation({
    mutationFn: (id: number) => api.delete<void>(`User/${id}`),
    onSuccess: changed,
    meta: { inlineErrors: true },
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: ({ userId, ...body }: ChangePasswordBody & { userId: number | 'Current' }) =>
      api.post<void>(`User/${userId}/ChangePassword`, body satisfies ChangePasswordBody),
  });
}
