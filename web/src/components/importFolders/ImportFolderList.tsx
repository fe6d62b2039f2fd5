import { mdiDeleteSweepOutline, mdiEyeOutline, mdiFolderOffOutline, mdiFolderOutline, mdiPlus, mdiRefresh } from '@mdi/js';
import { useState } from 'react';
import { toast } from 'react-toastify';
import type { ImportFolder } from '@shoko-ts/contract';
import { useImportFolders, useScanImportFolder } from '@/api/importFolders';
import { useCurrentUser } from '@/api/users';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { Spinner } from '@/components/Spinner';
import { formatFileSize } from '@/lib/format';
import { ImportFolderModal } from './ImportFolderModal';
import { OfflineBadge } from './OfflineBadge';
import { offlineLabel } from './offline';

const KEPT = 'Its file records are kept; scans and clean-ups skip it until it is back.';

/** Since when and why a folder is offline: one line, the whole text on hover. */
function OfflineDetails({ folder }: { folder: ImportFolder }) {
  const text = `${offlineLabel(folder, new Date())}. ${folder.UnavailableReason ?? ''}`.trim();
  return (
    <span className="truncate text-xs text-warning" title={`${text} ${KEPT}`} data-testid="offline-details">
      {text}
    </span>
  );
}
import { RemoveOfflineRecordsModal } from './RemoveOfflineRecordsModal';

interface ImportFolderListProps {
  /** Off until the user is signed in (first run: the step can be shown before the login finished). */
  enabled?: boolean;
  /** Offer a per-folder "Rescan" button (settings); the first run imports everything when it finishes. */
  scannable?: boolean;
}

/** The import folders with an Add button; clicking a folder opens it for editing. */
export function ImportFolderList({ enabled = true, scannable = false }: ImportFolderListProps) {
  const folders = useImportFolders(enabled);
  // undefined: closed; null: adding; a folder: editing it.
  const [editing, setEditing] = useState<ImportFolder | null | undefined>(undefined);
  // Import folders are the server's: an account known not to be an admin sees them without the controls.
  const readOnly = useCurrentUser(enabled).data?.IsAdmin === false;

  return (
    <div className="flex flex-col gap-3">
      <ul className="flex flex-col gap-2 rounded-lg border border-border bg-background-alt p-2" aria-label="Import folders">
        {folders.isPending && enabled && (
          <li className="flex justify-center p-3">
            <Spinner />
          </li>
        )}
        {folders.error && <li className="px-2 py-2 text-danger">{folders.error.message}</li>}
        {folders.isSuccess && !folders.data.length && <li className="px-2 py-2 text-muted">No Import Folders Added!</li>}
        {folders.data?.map((folder) => (
          <ImportFolderRow
            key={folder.ID}
            folder={folder}
            scannable={scannable && !readOnly}
            onEdit={readOnly ? undefined : () => setEditing(folder)}
          />
        ))}
      </ul>
      {!readOnly && (
        <div>
          <Button variant="secondary" onClick={() => setEditing(null)} disabled={!enabled}>
            <Icon path={mdiPlus} size={0.8} />
            Add Import Folder
          </Button>
        </div>
      )}
      {editing !== undefined && <ImportFolderModal folder={editing ?? undefined} onClose={() => setEditing(undefined)} />}
    </div>
  );
}

/** A folder; without `onEdit` (a non-admin) it is shown only, with no edit, removal or rescan. */
function ImportFolderRow({ folder, scannable, onEdit }: { folder: ImportFolder; scannable: boolean; onEdit?: () => void }) {
  const scan = useScanImportFolder();
  const [removing, setRemoving] = useState(false);
  const offline = folder.IsAvailable === false;
  return (
    <li
      className={`flex items-center gap-1 rounded-md bg-panel ${offline ? 'border border-warning/40' : ''}`}
      data-offline={offline || undefined}
    >
      <button
        type="button"
        onClick={onEdit}
        disabled={!onEdit}
        aria-label={onEdit ? `Edit ${folder.Name}` : folder.Name}
        className="flex min-w-0 flex-1 items-center gap-3 rounded-md px-3 py-2 text-left enabled:hover:bg-panel-alt"
      >
        <Icon
          path={offline ? mdiFolderOffOutline : mdiFolderOutline}
          size={0.9}
          className={`shrink-0 ${offline ? 'text-warning' : 'text-primary'}`}
        />
        <span className="flex min-w-0 flex-1 flex-col">
          <span className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-0.5">
            <span className="truncate font-semibold">{folder.Name}</span>
            {offline && <OfflineBadge title={folder.UnavailableReason ?? undefined} />}
          </span>
          <span className="truncate font-mono text-xs text-muted">{folder.Path}</span>
          {offline && <OfflineDetails folder={folder} />}
        </span>
        <span className="hidden shrink-0 flex-col items-end gap-0.5 text-xs text-muted sm:flex">
          <span>
            Drop Type: <span className="font-semibold text-text">{folder.DropFolderType}</span>
          </span>
          <span className="flex items-center gap-2">
            {folder.WatchForNewFiles && (
              <span className="flex items-center gap-1" title="Watching for new files">
                <Icon path={mdiEyeOutline} size={0.6} /> Watching
              </span>
            )}
            <span>
              {folder.Size} series · {formatFileSize(folder.FileSize)}
            </span>
          </span>
        </span>
      </button>
      {offline && onEdit && (
        <button
          type="button"
          aria-label={`Remove the records of ${folder.Name}`}
          title="Remove the records of its files…"
          onClick={() => setRemoving(true)}
          className="flex size-9 shrink-0 items-center justify-center rounded-md text-muted hover:bg-panel-alt hover:text-danger"
        >
          <Icon path={mdiDeleteSweepOutline} size={0.85} />
        </button>
      )}
      {removing && <RemoveOfflineRecordsModal folder={folder} onClose={() => setRemoving(false)} />}
      {scannable && (
        <button
          type="button"
          aria-label={`Rescan ${folder.Name}`}
          title="Rescan"
          disabled={scan.isPending}
          onClick={() => scan.mutate(folder.ID, { onSuccess: () => toast.success(`Scanning ${folder.Name}…`) })}
          className="mr-1 flex size-9 shrink-0 items-center justify-center rounded-md text-muted hover:bg-panel-alt hover:text-text disabled:opacity-50"
        >
          <Icon path={mdiRefresh} size={0.85} spin={scan.isPending} />
        </button>
      )}
    </li>
  );
}
