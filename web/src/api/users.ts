import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '@shoko-ts/contract';
import { api } from './client';

export const userKeys = {
  current: ['users', 'current'] as const,
};

export const currentUserQuery = () =>
  queryOptions({
    queryKey: userKeys.current,
    queryFn: ({ signal }) => api.get<User>('User/Current', { signal }),
    staleTime: 5 * 60_000,
    retry: false,
  });

export function useCurrentUser(enabled = true) {
  return useQuery({ ...currentUserQuery(), enabled });
}

/**
 * Whether the caller is an administrator: the server keeps every change that reaches other users for admins
 * (server/src/http/access-policy.ts), so the console hides or disables those controls for everyone else.
 */
export function useIsAdmin(): boolean {
  return useCurrentUser().data?.IsAdmin === true;
}
