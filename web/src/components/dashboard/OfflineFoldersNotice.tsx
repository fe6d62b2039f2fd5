import { mdiLanDisconnect } from '@mdi/js';
import { Link } from 'react-router';
import { useImportFolders } from '@/api/importFolders';
import { Icon } from '@/components/Icon';
import { offlineLabel } from '@/components/importFolders/offline';

/**
 * Above the dashboard while an import folder is offline: which one, since when and why, and that nothing of it is
 * lost. Gone by itself when the folder is back (the hub's ImportFolderAvailabilityChanged refreshes the list).
 */
export function OfflineFoldersNotice() {
  const { data } = useImportFolders();
  const offline = (data ?? []).filter((folder) => folder.IsAvailable === false);
  if (!offline.length) return null;
  const now = new Date();
  return (
    <section
      role="status"
      className="flex items-start gap-3 rounded-xl border border-warning/50 bg-warning/10 px-4 py-3 text-sm"
      data-testid="offline-folders-notice"
    >
      <Icon path={mdiLanDisconnect} size={1} className="mt-0.5 shrink-0 text-warning" />
      <div className="flex min-w-0 flex-col gap-1">
        <span className="font-semibold">
          {offline.length === 1 ? `Import folder ${offline[0].Name} is offline` : `${offline.length} import folders are offline`}
        </span>
        <ul className="flex flex-col gap-0.5 text-muted">
          {offline.map((folder) => (
            <li key={folder.ID} className="break-words">
              <span className="font-semibold text-text">{folder.Name}</span> — {offlineLabel(folder, now)}. {folder.UnavailableReason}
            </li>
          ))}
        </ul>
        <span className="text-muted">
          Its files keep their records and show as offline; scans, Remove Missing Files and the renamer skip it until it is back, then
          everything resumes by itself.{' '}
          <Link to="/settings/import" className="text-primary hover:underline">
            Import settings
          </Link>
        </span>
      </div>
    </section>
  );
}
