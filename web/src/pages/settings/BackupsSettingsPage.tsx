import { useState } from 'react';
import dayjs from 'dayjs';
import { toast } from 'react-toastify';
import type { Backup, BackupKind, BackupStatus } from '@shoko-ts/contract';
import { Button } from '@/components/Button';
import { ConfirmModal } from '@/components/ConfirmModal';
import { Panel } from '@/components/Panel';
import { Spinner } from '@/components/Spinner';
import {
  useBackups,
  useBackupStatus,
  useCancelRestore,
  useCreateBackup,
  useDeleteBackup,
  useDownloadBackup,
  useScheduleRestore,
} from '@/api/backups';
import { formatFileSize } from '@/lib/format';

const TOAST_MS = 3000;
const KIND_LABEL: Record<BackupKind, string> = {
  Manual: 'Manual',
  Scheduled: 'Scheduled',
  BeforeMigration: 'Before upgrade',
  BeforeRestore: 'Before restore',
};

function scheduleText(status: BackupStatus): string {
  if (!(status.IntervalHours > 0)) return 'Scheduled backups are off (SHOKO_BACKUP_INTERVAL_HOURS=0).';
  const every = status.IntervalHours === 1 ? 'every hour' : `every ${status.IntervalHours} hours`;
  return `A backup is made ${every} and before every upgrade; the newest ${status.Keep} automatic backups are kept. Backups made here are kept until you delete them.`;
}

function StatusPanel() {
  const status = useBackupStatus();
  const cancel = useCancelRestore();
  if (status.isPending) return <Spinner />;
  if (status.error)
    return (
      <div role="alert" className="text-sm text-danger">
        {status.error.message}
      </div>
    );
  const s = status.data;
  return (
    <div className="flex flex-col gap-3 text-sm">
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
        <dt className="text-muted">Database</dt>
        <dd>{s.Database}</dd>
        <dt className="text-muted">Schema version</dt>
        <dd>{s.SchemaVersion ?? '—'}</dd>
      </dl>
      <p className="text-muted">{scheduleText(s)}</p>
      {s.Problem && (
        <div role="alert" className="rounded-md border border-danger p-3 text-danger">
          {s.Problem}
        </div>
      )}
      {s.PendingRestore && (
        <div role="status" className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-primary p-3">
          <span>
            <strong>{s.PendingRestore}</strong> will be restored when the server next starts. The current database is kept aside first.
          </span>
          <Button variant="secondary" busy={cancel.isPending} onClick={() => cancel.mutate()}>
            Cancel restore
          </Button>
        </div>
      )}
    </div>
  );
}

function BackupRow({ backup, onDelete, onRestore }: { backup: Backup; onDelete: () => void; onRestore: () => void }) {
  const download = useDownloadBackup();
  return (
    <tr className="border-t border-border">
      <td className="py-2 pr-3 break-all">{backup.Name}</td>
      <td className="py-2 pr-3 whitespace-nowrap">{dayjs(backup.CreatedAt).format('YYYY-MM-DD HH:mm:ss')}</td>
      <td className="py-2 pr-3 whitespace-nowrap">{formatFileSize(backup.Size)}</td>
      <td className="py-2 pr-3 whitespace-nowrap">{backup.SchemaVersion ?? '—'}</td>
      <td className="py-2 pr-3 whitespace-nowrap">{backup.Kind ? KIND_LABEL[backup.Kind] : 'Unknown file'}</td>
      <td className="py-2">
        <div className="flex justify-end gap-2">
          <Button
            variant="secondary"
            aria-label={`Download ${backup.Name}`}
            busy={download.isPending}
            onClick={() => download.mutate(backup.Name)}
          >
            Download
          </Button>
          <Button variant="secondary" aria-label={`Restore ${backup.Name}`} disabled={!backup.Kind} onClick={onRestore}>
            Restore…
          </Button>
          <Button variant="danger" aria-label={`Delete ${backup.Name}`} onClick={onDelete}>
            Delete
          </Button>
        </div>
      </td>
    </tr>
  );
}

/** Settings › Backups: make, list, download, delete backups and schedule a restore for the next start (admin-only). */
export default function BackupsSettingsPage() {
  const backups = useBackups();
  const create = useCreateBackup();
  const remove = useDeleteBackup();
  const restore = useScheduleRestore();
  const [deleting, setDeleting] = useState<string | null>(null);
  const [restoring, setRestoring] = useState<string | null>(null);

  const backUp = () =>
    create.mutate(undefined, { onSuccess: (backup) => toast.success(`Backup ${backup.Name} made`, { autoClose: TOAST_MS }) });

  return (
    <div className="flex w-full max-w-5xl flex-col gap-4">
      <h1 className="text-xl font-semibold">Backups</h1>
      <Panel title="Status">
        <StatusPanel />
      </Panel>
      <Panel
        title="Backups"
        actions={
          <Button busy={create.isPending} onClick={backUp}>
            Back up now
          </Button>
        }
      >
        {backups.isPending ? (
          <Spinner />
        ) : backups.error ? (
          <div role="alert" className="text-sm text-danger">
            {backups.error.message}
          </div>
        ) : !backups.data.length ? (
          <div className="text-sm text-muted">No backups yet.</div>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm" aria-label="Backups">
              <thead className="text-muted">
                <tr>
                  <th className="py-2 pr-3 font-medium">Name</th>
                  <th className="py-2 pr-3 font-medium">Date</th>
                  <th className="py-2 pr-3 font-medium">Size</th>
                  <th className="py-2 pr-3 font-medium">Schema version</th>
                  <th className="py-2 pr-3 font-medium">Kind</th>
                  <th className="py-2 font-medium">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {backups.data.map((backup) => (
                  <BackupRow
                    key={backup.Name}
                    backup={backup}
                    onDelete={() => setDeleting(backup.Name)}
                    onRestore={() => setRestoring(backup.Name)}
                  />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Panel>
      <ConfirmModal
        open={deleting !== null}
        title="Delete backup"
        busy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() =>
          remove.mutate(deleting!, {
            onSuccess: () => {
              toast.success('Backup deleted', { autoClose: TOAST_MS });
              setDeleting(null);
            },
          })
        }
      >
        <p className="text-sm">
          Delete <strong>{deleting}</strong>? The file is removed from the server.
        </p>
      </ConfirmModal>
      <ConfirmModal
        open={restoring !== null}
        title="Restore backup"
        confirmLabel="Restore at next start"
        busy={restore.isPending}
        onCancel={() => setRestoring(null)}
        onConfirm={() =>
          restore.mutate(restoring!, {
            onSuccess: () => {
              toast.success('The backup will be restored when the server next starts', { autoClose: TOAST_MS });
              setRestoring(null);
            },
          })
        }
      >
        <p className="text-sm">
          Restore <strong>{restoring}</strong> when the server next starts? Everything changed since that backup is replaced by it; the
          current database is kept aside, not deleted. Restart the server to apply it.
        </p>
      </ConfirmModal>
    </div>
  );
}
