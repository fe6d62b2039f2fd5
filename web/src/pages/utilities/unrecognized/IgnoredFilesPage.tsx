import { mdiEyeOutline } from '@mdi/js';
import { useSetFilesIgnored } from '@/api/files';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { FileListPage, type SelectionActions } from './FileListPage';

/** Page size of the ignored list (SPEC §9). */
const PAGE_SIZE = 50;

export default function IgnoredFilesPage() {
  return (
    <FileListPage
      title="Ignored Files"
      includeOnly="Ignored"
      pageSize={PAGE_SIZE}
      emptyText="No ignored file(s)!"
      actions={(selection) => <RestoreAction {...selection} />}
    />
  );
}

function RestoreAction({ files, clearSelection }: SelectionActions) {
  const restore = useSetFilesIgnored();
  return (
    <Button
      variant="secondary"
      disabled={!files.length}
      busy={restore.isPending}
      onClick={() => restore.mutate({ ids: files.map((file) => file.ID), ignore: false }, { onSettled: clearSelection })}
    >
      <Icon path={mdiEyeOutline} size={0.8} />
      Restore
    </Button>
  );
}
