import { mdiEyeOffOutline, mdiLinkVariant } from '@mdi/js';
import { useNavigate } from 'react-router';
import { UNRECOGNIZED_PAGE_SIZE, useSetFilesIgnored } from '@/api/files';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { AVDumpButton } from './AVDumpButton';
import { FileActionButtons } from './FileActionButtons';
import { FileListPage, type SelectionActions } from './FileListPage';

export default function UnrecognizedFilesPage() {
  return (
    <FileListPage
      title="Unrecognized Files"
      includeOnly="Unrecognized"
      pageSize={UNRECOGNIZED_PAGE_SIZE}
      emptyText="No unrecognized file(s)!"
      actions={(selection) => <UnrecognizedActions {...selection} />}
    />
  );
}

function UnrecognizedActions({ files, clearSelection }: SelectionActions) {
  const ignore = useSetFilesIgnored();
  const navigate = useNavigate();
  const ids = files.map((file) => file.ID);
  const none = ids.length === 0;

  return (
    <FileActionButtons files={files} onDeleted={clearSelection}>
      <Button
        variant="secondary"
        disabled={none}
        busy={ignore.isPending}
        onClick={() => ignore.mutate({ ids, ignore: true }, { onSettled: clearSelection })}
      >
        <Icon path={mdiEyeOffOutline} size={0.8} />
        Ignore
      </Button>
      <Button variant="secondary" disabled={none} onClick={() => navigate(`/utilities/unrecognized/files/link?files=${ids.join(',')}`)}>
        <Icon path={mdiLinkVariant} size={0.8} />
        Manual Link
      </Button>
      <AVDumpButton files={files} />
    </FileActionButtons>
  );
}
