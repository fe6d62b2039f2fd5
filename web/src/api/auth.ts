import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AuthResult, AuthUser } from '@shoko-ts/contract';
import { clearSession, saveSession } from '@/lib/session';
import { api } from './client';

/** The login form: the wire's user and password, and whether to remember the user on this browser. */
export type LoginRequest = Omit<AuthUser, 'device'> & { rememberUser: boolean };

/** The device name every console login uses; the server keeps one key per (user, device). */
export const WEB_UI_DEVICE = 'web-ui';

export async function login({ user, pass, rememberUser }: LoginRequest): Promise<string> {
  const { apikey } = await api.post<AuthResult>('/api/auth', { user, pass, device: WEB_UI_DEVICE } satisfies AuthUser);
  saveSession({ apikey, username: user.trim(), rememberUser });
  return apikey;
}

export function useLogin() {
  return useMutation({ mutationFn: login, meta: { inlineErrors: true } });
}

/** Forget the session and every cached answer that belonged to it. */
export function useLogout() {
  const queryClient = useQueryClient();
  return () => {
    clearSession();
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'init' });
  };
}
