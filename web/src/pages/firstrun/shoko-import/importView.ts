import type { ServerState, ShokoImportStatus } from '@shoko-ts/contract';

/**
 * What the import page shows:
 * - form: folder, path map, check and import;
 * - running / completed / failed: an import this page started or found on load;
 * - closed: the server is set up already (started, or it has accounts), so there is nothing to import into;
 * - error: the server could not be asked.
 */
export type ImportView = 'loading' | 'error' | 'form' | 'running' | 'completed' | 'failed' | 'closed';

export interface ImportViewInputs {
  /** Init/Status; undefined until known. */
  serverState: ServerState | undefined;
  /** ShokoImport/Status; undefined until known, null when the server no longer shows it to us. */
  status: ShokoImportStatus | null | undefined;
  statusFailed: boolean;
  /**
   * True once this page started an import or found one on load. A dry run reports its progress as Running too, so a
   * Running status alone does not mean an import.
   */
  following: boolean;
}

export function importView({ serverState, status, statusFailed, following }: ImportViewInputs): ImportView {
  if (statusFailed && status === undefined) return 'error';
  if (status === undefined || serverState === undefined) return 'loading';
  if (status?.State === 'Completed') return 'completed';
  if (following) {
    if (status?.State === 'Running') return 'running';
    if (status?.State === 'Failed') return 'failed';
    // The import finished and the server started before we saw the result: the status is for admins from then on.
    if (status === null) return 'completed';
  }
  if (status === null || serverState !== 'Waiting') return 'closed';
  return 'form';
}

/** Whether the status found on load is an import to follow (anything but Idle: the last import's outcome is kept). */
export const isImportUnderway = (status: ShokoImportStatus | null): boolean => !!status && status.State !== 'Idle';
