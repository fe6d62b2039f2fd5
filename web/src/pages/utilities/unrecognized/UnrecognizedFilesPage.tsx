import { mdiDatabaseSearchOutline, mdiDeleteOutline, mdiEyeOffOutline, mdiFileEditOutline, mdiLinkVariant, mdiPound } from '@mdi/js';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import type { File } from '@shoko-ts/contract';
import { useRehashFiles, useRescanFiles, useSetFilesIgnored } from '@/api/files';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { AVDumpButton } from './AVDumpButton';
import { DeleteFilesModal } from './DeleteFilesModal';
import { FileListPage, type SelectionActions } from './FileListPage';

/** Page size of the unrecognized list (SPEC §9). */
const PAGE_SIZE = 200;

export default function UnrecognizedFilesPage() {
  return (
    <FileListPage
      title="Unrecognized Files"
      includeOnly="Unrecognized"
      pageSize={PAGE_SIZE}
      emptyText="No unrecognized file(s)!"
      actions={(selection) => <UnrecognizedActions {...selection} />}
    />
  );
}

function UnrecognizedActions({ files, clearSelection }: SelectionActions) {
  const ignore = useSetFilesIgnored();
  const rehash = useRehashFiles();
  const rescan = useRescanFiles();
  const [deleting, setDeleting] = useState<File[] | null>(null);
  const navigate = useNavigate();
  const ids = files.map((file) => file.ID);
  const none = ids.length === 0;
  const count = (n: number) => `${n} ${n === 1 ? 'file' : 'files'}`;

  return (
    <>
      <Button variant="secondary" disabled={none} busy={rescan.isPending} onClick={() => rescan.mutate(ids, { onSuccess: () => toast.success(`Rescanning ${count(ids.length)}.`) })}>
        <Icon path={mdiDatabaseSearchOutline} size={0.8} />
        Rescan
      </Button>
      <Button variant="secondary" disabled={none} busy={rehash.isPending} onClick={() => rehash.mutate(ids, { onSuccess: () => toast.success(`Rehashing ${count(ids.length)}.`) })}>
        <Icon path={mdiPound} size={0.8} />
        Rehash
      </Button>
      <Button variant="secondary" disabled={none} onClick={() => navigate('/utilities/renamer', { state: { fileIds: ids } })}>
        <Icon path={mdiFileEditOutline} size={0.8} />
        Rename
      </Button>
      <Button variant="secondary" disabled={none} busy={ignore.isPending} onClick={() => ignore.mutate({ ids, ignore: true }, { onSettled: clearSelection })}>
        <Icon path={mdiEyeOffOutline} size={0.8} />
        Ignore
      </Button>
      <Button variant="secondary" disabled={none} onClick={() => navigate(`/utilities/unrecognized/files/link?files=${ids.join(',')}`)}>
        <Icon path={mdiLinkVariant} size={0.8} />
        Manual Link
      </Button>
      <AVDumpButton files={files} />
      <Button variant="secondary" disabled={none} onClick={() => setDeleting(files)} className="hover:border-danger hover:text-danger">
        <Icon path={mdiDeleteOutline} size={0.8} />
        Delete
      </Button>
      {deleting && (
        <DeleteFilesModal
          files={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={() => {
            toast.success(`Deleted ${count(deleting.length)}.`);
            setDeleting(null);
            clearSelection();
          }}
        />
      )}
    </>
  );
}
