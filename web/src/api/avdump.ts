import { useMutation } from '@tanstack/react-query';
import type { DumpFilesBody } from '@shoko-ts/contract';
import { api } from './client';

/** One queued AVDump session for the files (`POST AVDump/DumpFiles`); progress arrives on the hub. */
export function useDumpFiles() {
  return useMutation({
    // The AVDump button reports a failure as 'AVDump failed!' with the reason.
    meta: { inlineErrors: true },
    mutationFn: (fileIds: readonly number[]) =>
      api.post<void>('AVDump/DumpFiles', { FileIDs: [...fileIds], Priority: false } satisfies DumpFilesBody),
  });
}
