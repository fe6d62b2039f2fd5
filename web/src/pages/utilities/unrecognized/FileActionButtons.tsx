import { mdiDatabaseSearchOutline, mdiDeleteOutline, mdiFileEditOutline, mdiPound } from '@mdi/js';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import type { File } from '@shoko-ts/contract';
import { useRehashFiles, useRescanFiles } from '@/api/files';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { DeleteFilesModal } from './DeleteFilesModal';

/** "1 file", "3 files". */
export const fileCount = (n: number) => `${n} ${n === 1 ? 'file' : 'files'}`;

/** Queues a rescan of the given files and says so. */
export function RescanButton({ ids }: { ids: number[] }) {
  const rescan = useRescanFiles();
  return (
    <Button
      variant="secondary"
      disabled={ids.length === 0}
      busy={rescan.isPending}
      onClick={() => rescan.mutate(ids, { onSuccess: () => toast.success(`Rescanning ${fileCount(ids.length)}.`) })}
    >
      <Icon path={mdiDatabaseSearchOutline} size={0.8} />
      Rescan
    </Button>
  );
}

/**
 * Rescan, Rehash and Rename of the selected files, then the page's own buttons (`children`), then Delete with its
 * confirmation: the file actions Unrecognized Files and File Search share.
 */
export function FileActionButtons({ files, onDeleted, children }: { files: File[]; onDeleted: () => void; children?: ReactNode }) {
  const rehash = useRehashFiles();
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState<File[] | null>(null);
  const ids = files.map((file) => file.ID);
  const none = ids.length === 0;

  return (
    <>
      <RescanButton ids={ids} />
      <Button
        variant="secondary"
        disabled={none}
        busy={rehash.isPending}
        onClick={() => rehash.mutate(ids, { onSuccess: () => toast.success(`Rehashing ${fileCount(ids.length)}.`) })}
      >
        <Icon path={mdiPound} size={0.8} />
        Rehash
      </Button>
      {/* The renamer picks the selection up from the navigation state. */}
      <Button variant="secondary" disabled={none} onClick={() => navigate('/utilities/renamer', { state: { fileIds: ids } })}>
        <Icon path={mdiFileEditOutline} size={0.8} />
        Rename
      </Button>
      {children}
      <Button variant="secondary" disabled={none} onClick={() => setDeleting(files)} className="hover:border-danger hover:text-danger">
        <Icon path={mdiDeleteOutline} size={0.8} />
        Delete
      </Button>
      {deleting && (
        <DeleteFilesModal
          files={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={() => {
            toast.success(`Deleted ${fileCount(deleting.length)}.`);
            setDeleting(null);
            onDeleted();
          }}
        />
      )}
    </>
  );
}
