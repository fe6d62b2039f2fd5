import { toast } from 'react-toastify';
import type { ImportFolder } from '@shoko-ts/contract';
import { useOfflineRecords, useRemoveOfflineRecords } from '@/api/importFolders';
import { ConfirmModal } from '@/components/ConfirmModal';
import { QueryContent } from '@/components/QueryContent';
import { removeRecordsQuestion } from './offline';

/**
 * The one way to drop what an offline folder held: the server counts its records first, the admin confirms that
 * number, and the removal is refused if the count changed meanwhile. Files on the drive are never touched.
 */
export function RemoveOfflineRecordsModal({ folder, onClose }: { folder: ImportFolder; onClose: () => void }) {
  const records = useOfflineRecords(folder.ID, true);
  const remove = useRemoveOfflineRecords();
  const counts = records.data;
  const confirm = () => {
    if (!counts) return;
    remove.mutate(
      { id: folder.ID, locationCount: counts.Locations },
      {
        onSuccess: (removed) => {
          toast.success(`Removed the records of ${removed.Locations} file(s) in ${folder.Name}.`);
          onClose();
        },
      },
    );
  };
  return (
    <ConfirmModal
      title="Remove Offline Records"
      confirmLabel="Remove Records"
      busy={remove.isPending || !counts || counts.IsAvailable}
      onCancel={onClose}
      onConfirm={confirm}
    >
      <QueryContent query={records}>
        {(counts) =>
          counts.IsAvailable ? (
            <p>{folder.Name} is available again: nothing is removed. Remove Missing Files forgets files that are really gone from it.</p>
          ) : (
            <>
              <p className="font-semibold" data-testid="remove-offline-question">
                {removeRecordsQuestion(folder.Name, counts.Locations)}
              </p>
              <p className="text-muted">
                {folder.Name} is offline. Its files may still be on the drive; only their records here go: locations,
                {counts.Files < counts.Locations
                  ? ` and ${counts.Files} file record(s) with no copy in another folder (the others keep their record there)`
                  : ' file records'}
                , with their watched states and release choices. Links to episodes stay with the content, so the same files imported again
                are linked as before.
              </p>
            </>
          )
        }
      </QueryContent>
    </ConfirmModal>
  );
}
