import { mdiAlertCircleOutline, mdiLogin } from '@mdi/js';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useServerStatus } from '@/api/init';
import { useShokoImportStatus } from '@/api/shokoImport';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { Spinner } from '@/components/Spinner';
import { ImportDone } from './ImportDone';
import { ImportFailed } from './ImportFailed';
import { ImportForm } from './ImportForm';
import { ImportProgress } from './ImportProgress';
import { importView, isImportUnderway } from './importView';
import { useImportFeed } from './useImportFeed';

/** The hub is the live source; polling covers a hub that is not connected, and slowly a missed event. */
const POLL_WITHOUT_HUB_MS = 500;
const POLL_WITH_HUB_MS = 3000;

/**
 * `/webui/firstrun/import-shoko`: moving from Shoko Server instead of starting fresh. It asks the import's status on
 * load, so a reload resumes showing a running or finished import.
 */
export default function ShokoImportPage() {
  const server = useServerStatus();
  const live = useImportFeed(server.data?.State === 'Waiting');
  const status = useShokoImportStatus((s) => (s?.State === 'Running' ? (live ? POLL_WITH_HUB_MS : POLL_WITHOUT_HUB_MS) : false));
  const [following, setFollowing] = useState<boolean | null>(null);

  // The status found on load decides whether there is an import to follow; later ones only change what it shows.
  if (following === null && status.data !== undefined) setFollowing(isImportUnderway(status.data));

  const view = importView({
    serverState: server.data?.State,
    status: status.data,
    statusFailed: status.isError || server.isError,
    following: !!following,
  });

  switch (view) {
    case 'loading':
      return (
        <Frame>
          <div className="flex flex-1 items-center justify-center gap-3 text-muted">
            <Spinner /> Asking the server about imports…
          </div>
        </Frame>
      );
    case 'error':
      return (
        <Frame>
          <div role="alert" className="flex flex-col items-start gap-3 rounded-lg border border-danger/40 bg-danger/10 p-5">
            <p className="flex items-center gap-2 font-semibold text-danger">
              <Icon path={mdiAlertCircleOutline} size={0.9} />
              Could not ask the server: {(status.error ?? server.error)?.message}
            </p>
            <Button variant="secondary" onClick={() => void Promise.all([status.refetch(), server.refetch()])}>
              Try again
            </Button>
          </div>
        </Frame>
      );
    case 'form':
      return <ImportForm liveStep={status.data?.State === 'Running' ? status.data.Step : null} onStarted={() => setFollowing(true)} />;
    case 'running':
      return (
        <Frame>
          <ImportProgress status={status.data!} live={live} />
        </Frame>
      );
    case 'completed':
      return (
        <Frame>
          <ImportDone report={status.data?.Report ?? null} />
        </Frame>
      );
    case 'failed':
      return (
        <Frame>
          <ImportFailed error={status.data?.Error ?? null} onRetry={() => setFollowing(false)} />
        </Frame>
      );
    case 'closed':
      return (
        <Frame>
          <AlreadySetUp started={server.data?.State === 'Started'} />
        </Frame>
      );
  }
}

function Frame({ children }: { children: ReactNode }) {
  return (
    <div className="flex flex-1 flex-col gap-6 text-sm leading-relaxed">
      <h1 className="text-2xl font-semibold">Import from Shoko Server</h1>
      {children}
    </div>
  );
}

function AlreadySetUp({ started }: { started: boolean }) {
  const navigate = useNavigate();
  return (
    <div className="flex flex-col items-start gap-4" data-testid="import-closed">
      <p className="font-semibold text-warning">This server is already set up.</p>
      <p className="text-muted">
        Importing from Shoko Server works only on a new server, before its first start. If this one was set up by an import, sign in with
        your Shoko user name and password. To import again, start the server with a new, empty data folder (
        <code className="font-mono">SHOKO_HOME</code>) or database.
      </p>
      {started && (
        <Button onClick={() => navigate('/login')}>
          <Icon path={mdiLogin} size={0.8} />
          Go to the login page
        </Button>
      )}
    </div>
  );
}
