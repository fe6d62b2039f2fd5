import { mdiFolderOutline, mdiPlus } from '@mdi/js';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useImportFolders } from '@/api/importFolders';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { useSession } from '@/lib/session';
import { AddImportFolderModal } from './AddImportFolderModal';
import { StepFrame } from './StepFrame';
import { useFirstRun } from './wizardContext';

export default function ImportFoldersStep() {
  const navigate = useNavigate();
  const { markSaved } = useFirstRun();
  const session = useSession();
  const folders = useImportFolders(!!session);
  const [adding, setAdding] = useState(false);

  return (
    <StepFrame
      title="Import Folders"
      onNext={() => {
        markSaved('import-folders');
        navigate('../data-collection');
      }}
    >
      <p className="text-muted">
        Import folders are where your anime lives. Shoko scans them, hashes every video file and watches for new ones.
        You can skip this step and add folders later from the dashboard.
      </p>
      <div className="flex flex-col gap-2 rounded-lg border border-border bg-background-alt p-3">
        {folders.data?.length ? (
          folders.data.map((folder) => (
            <div key={folder.ID} className="flex items-center gap-3 rounded-md bg-panel px-3 py-2">
              <Icon path={mdiFolderOutline} size={0.9} className="text-primary" />
              <div className="flex min-w-0 flex-col">
                <span className="font-semibold">{folder.Name}</span>
                <span className="truncate text-xs text-muted">{folder.Path}</span>
              </div>
              <span className="ml-auto text-xs text-muted">{folder.DropFolderType}</span>
            </div>
          ))
        ) : (
          <p className="px-1 py-2 text-muted">No Import Folders Added!</p>
        )}
      </div>
      <div>
        <Button variant="secondary" onClick={() => setAdding(true)}>
          <Icon path={mdiPlus} size={0.8} />
          Add Import Folder
        </Button>
      </div>
      <AddImportFolderModal open={adding} onClose={() => setAdding(false)} />
    </StepFrame>
  );
}
