import { useMutation } from '@tanstack/react-query';
import { api } from './client';

/** Runs a server action (`GET /api/v3/Action/<name>`); the work itself is queued on the server. */
export function useRunAction() {
  return useMutation({ mutationFn: (name: string) => api.get<void>(`Action/${name}`) });
}
