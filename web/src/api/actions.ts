import { useMutation } from '@tanstack/react-query';
import { api } from './client';

/**
 * Runs a server action: `GET /api/v3/Action/<function>` (the function may carry a sub-path or query), or a path of
 * its own when it starts with `/` (Plex › Force Unlink). The work itself is queued on the server; some actions answer
 * with a line of text (`Saved 3 AddToMyList Commands`).
 */
export function useRunAction() {
  return useMutation({
    mutationFn: (functionName: string) =>
      api.get<string | undefined>(functionName.startsWith('/') ? functionName : `Action/${functionName}`),
  });
}
