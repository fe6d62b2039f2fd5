import { useNavigate } from 'react-router';
import { ImportFolderList } from '@/components/importFolders/ImportFolderList';
import { useSession } from '@/lib/session';
import { StepFrame } from './StepFrame';
import { useFirstRun } from './wizardContext';

export default function ImportFoldersStep() {
  const navigate = useNavigate();
  const { markSaved } = useFirstRun();
  const session = useSession();

  return (
    <StepFrame
      title="Import Folders"
      onNext={() => {
        markSaved('import-folders');
        navigate('../data-collection');
      }}
    >
      <p className="text-muted">
        Import folders are where your anime lives. Shoko scans them, hashes every video file and watches for new ones. You can skip this
        step and add folders later in Settings › Import.
      </p>
      <ImportFolderList enabled={!!session} />
      {!session && <p className="text-warning">Sign in first (previous step) to add import folders.</p>}
    </StepFrame>
  );
}
