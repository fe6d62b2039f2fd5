import { mdiDatabaseImportOutline } from '@mdi/js';
import { useNavigate } from 'react-router';
import { useServerStatus } from '@/api/init';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { StepFrame } from './StepFrame';
import { useFirstRun } from './wizardContext';

export default function AcknowledgementStep() {
  const navigate = useNavigate();
  const { markSaved } = useFirstRun();
  const { data: status } = useServerStatus();
  const waiting = status?.State === 'Waiting';

  return (
    <StepFrame
      title="Welcome to Shoko"
      nextLabel="Continue"
      nextDisabled={!waiting}
      onNext={() => {
        markSaved('acknowledgement');
        navigate('../local-account');
      }}
    >
      <p>
        Shoko keeps your anime collection organised. It hashes every video file in the folders you give it, identifies each one against
        AniDB, fetches metadata and artwork, and can rename and move files for you.
      </p>
      <p>To start fresh, press Continue: the next few steps set up this server:</p>
      <ul className="list-disc space-y-1 pl-6 text-muted">
        <li>a local account to sign in to this console,</li>
        <li>your AniDB account, which Shoko uses to identify files,</li>
        <li>which metadata to download and in what language,</li>
        <li>starting the server, adding import folders, and the data-collection choice.</li>
      </ul>
      <div className="flex flex-col gap-3 rounded-lg border border-border bg-background-alt p-4 sm:flex-row sm:items-center">
        <Icon path={mdiDatabaseImportOutline} size={1.5} className="hidden shrink-0 text-primary sm:block" />
        <div className="flex-1">
          <p className="font-semibold">Moving from Shoko Server?</p>
          <p className="text-muted">
            Import its data folder instead: users and passwords, the collection, watch history and settings come over in one step, and its
            AniDB cache spares you the wait.
          </p>
        </div>
        <Button
          variant="secondary"
          disabled={!waiting}
          onClick={() => {
            markSaved('acknowledgement');
            navigate('../import-shoko');
          }}
        >
          Import from Shoko Server
        </Button>
      </div>
      <p className="text-muted">
        Shoko never modifies your files unless you turn on renaming or moving. AniDB limits how fast clients may ask for data, so the first
        import of a large collection takes a while.
      </p>
      {status && !waiting && (
        <p className="font-semibold text-warning">
          The server is {status.State.toLowerCase()}, so the first-run setup is not available. Go back to the login page to continue.
        </p>
      )}
    </StepFrame>
  );
}
