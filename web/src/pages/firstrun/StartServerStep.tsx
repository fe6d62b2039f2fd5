import { mdiAlertCircleOutline, mdiCheckCircle } from '@mdi/js';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { login } from '@/api/auth';
import { useServerStatus, useStartServer } from '@/api/init';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { Spinner } from '@/components/Spinner';
import { StepFrame } from './StepFrame';
import { useFirstRun } from './wizardContext';

export default function StartServerStep() {
  const navigate = useNavigate();
  const { markSaved, credentials } = useFirstRun();
  const start = useStartServer();
  const status = useServerStatus((s) => !s || s.State === 'Starting' || (start.isSuccess && s.State === 'Waiting'));
  const [loginError, setLoginError] = useState<string | null>(null);
  const [loggingIn, setLoggingIn] = useState(false);
  const state = status.data?.State;

  const next = async () => {
    if (!credentials) {
      // The wizard was reloaded after the account step: sign in by hand, then carry on.
      navigate(`/login?redirectTo=${encodeURIComponent('/firstrun/import-folders')}`);
      return;
    }
    setLoggingIn(true);
    setLoginError(null);
    try {
      await login({ user: credentials.Username, pass: credentials.Password, rememberUser: false });
      markSaved('start-server');
      navigate('../import-folders');
    } catch (failure) {
      setLoginError(`Could not sign in as ${credentials.Username}: ${(failure as Error).message}`);
    } finally {
      setLoggingIn(false);
    }
  };

  return (
    <StepFrame
      title="Start Server"
      back="metadata-sources"
      backDisabled={state !== 'Waiting'}
      nextDisabled={state !== 'Started'}
      nextBusy={loggingIn}
      onNext={() => void next()}
      error={loginError}
    >
      <p className="text-muted">
        Starting the server creates the database and your account, then begins the background services. This can take a minute on the first
        start.
      </p>
      <div
        className="flex min-h-32 flex-col items-center justify-center gap-3 rounded-lg border border-border bg-background-alt p-6 text-center"
        data-testid="start-server-status"
      >
        {state === 'Waiting' && (
          <Button onClick={() => start.mutate()} busy={start.isPending || start.isSuccess}>
            Start Server
          </Button>
        )}
        {state === 'Starting' && (
          <>
            <Spinner size={2} />
            <p className="font-semibold">Starting…</p>
          </>
        )}
        {state === 'Started' && (
          <>
            <Icon path={mdiCheckCircle} size={2} className="text-success" />
            <p className="font-semibold">Server started!</p>
            <p className="text-muted">Press Next to sign in and add your import folders.</p>
          </>
        )}
        {state === 'Failed' && (
          <>
            <Icon path={mdiAlertCircleOutline} size={2} className="text-danger" />
            <p className="font-semibold text-danger">Server startup failed!</p>
          </>
        )}
        {!state && <Spinner />}
        {status.data?.StartupMessage && <p className="whitespace-pre-wrap break-words text-muted">{status.data.StartupMessage}</p>}
      </div>
    </StepFrame>
  );
}
