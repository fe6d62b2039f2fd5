import { mdiAlertCircleOutline, mdiCheckCircle, mdiLogin } from '@mdi/js';
import { useNavigate } from 'react-router';
import type { ShokoImportReport } from '@shoko-ts/contract';
import { useServerStatus } from '@/api/init';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { Spinner } from '@/components/Spinner';
import { ImportReport } from './ImportReport';

/** A finished import: the server starting by itself, the way to sign in once it has, and the report. */
export function ImportDone({ report }: { report: ShokoImportReport | null }) {
  const navigate = useNavigate();
  // The server starts itself once the import is done: follow it from Waiting through Starting.
  const { data: server } = useServerStatus((s) => !s || s.State === 'Waiting' || s.State === 'Starting');
  const state = server?.State;

  return (
    <div className="flex flex-col gap-6" data-testid="import-done">
      <div
        className="flex flex-col items-center gap-3 rounded-lg border border-border bg-background-alt p-6 text-center"
        data-testid="import-server-state"
      >
        {state === 'Started' ? (
          <>
            <Icon path={mdiCheckCircle} size={2} className="text-success" />
            <p className="text-base font-semibold">Your Shoko Server has moved in.</p>
            <p className="text-muted">The server is running. Sign in with the user name and password you had in Shoko.</p>
            <Button onClick={() => navigate('/login')}>
              <Icon path={mdiLogin} size={0.8} />
              Log in with your Shoko account
            </Button>
          </>
        ) : state === 'Failed' ? (
          <div role="alert" className="flex flex-col items-center gap-2">
            <Icon path={mdiAlertCircleOutline} size={2} className="text-danger" />
            <p className="font-semibold text-danger">The import finished, but the server failed to start.</p>
            {server?.StartupMessage && <p className="whitespace-pre-wrap break-words text-muted">{server.StartupMessage}</p>}
            <p className="text-muted">The imported data is kept. Look at the server&apos;s log, then restart it.</p>
          </div>
        ) : (
          <>
            <Spinner size={2} />
            <p className="text-base font-semibold">Import complete. Starting the server…</p>
            {server?.StartupMessage && <p className="text-muted">{server.StartupMessage}</p>}
          </>
        )}
      </div>
      {report ? (
        <div className="flex flex-col gap-3">
          <h2 className="text-base font-semibold">What was imported</h2>
          <ImportReport report={report} />
          {report.SavedAs && (
            <p className="text-xs text-muted">
              This report is kept on the server in <span className="break-all font-mono">{report.SavedAs}</span>.
            </p>
          )}
        </div>
      ) : (
        <p className="text-muted">
          The import has finished. Its report is kept on the server in the data folder, under{' '}
          <span className="font-mono">shoko-import/</span>.
        </p>
      )}
    </div>
  );
}
