import { mdiAlertCircleOutline } from '@mdi/js';
import { useEffect } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useServerStatus } from '@/api/init';
import { preloadLanding } from '@/app/landing';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { ShokoLogo } from '@/components/ShokoLogo';
import { Spinner } from '@/components/Spinner';
import { safeRedirectTarget } from '@/lib/redirect';
import { useSession } from '@/lib/session';
import { Backdrop } from './Backdrop';
import { LoginForm } from './LoginForm';
import { ServerVersionInfo } from './ServerVersionInfo';

export default function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const session = useSession();
  const { data: status, isError } = useServerStatus();
  const target = safeRedirectTarget(params.get('redirectTo'));
  const started = status?.State === 'Started';
  useEffect(() => {
    if (started) preloadLanding();
  }, [started]);

  if (status?.State === 'Started' && session) return <Navigate to={target} replace />;

  let body;
  if (!status || status.State === 'Starting') {
    body = (
      <div className="flex flex-col items-center gap-3 py-6 text-center" data-testid="server-starting">
        <Spinner size={2} />
        <p className="text-sm font-semibold">
          {status ? 'Server is starting…' : isError ? 'Waiting for the server…' : 'Checking server status…'}
        </p>
        {status?.StartupMessage && <p className="text-sm text-muted">{status.StartupMessage}</p>}
      </div>
    );
  } else if (status.State === 'Failed') {
    body = (
      <div className="flex flex-col items-center gap-3 py-6 text-center" role="alert">
        <Icon path={mdiAlertCircleOutline} size={2} className="text-danger" />
        <p className="font-semibold text-danger">Server startup failed!</p>
        {status.StartupMessage && <p className="whitespace-pre-wrap break-words text-sm text-muted">{status.StartupMessage}</p>}
      </div>
    );
  } else if (status.State === 'Waiting') {
    body = (
      <div className="flex flex-col gap-4 py-2 text-center">
        <p className="text-sm text-muted">This server has not been set up yet. The first-run wizard will walk you through it.</p>
        <Button onClick={() => navigate('/firstrun')}>Continue</Button>
      </div>
    );
  } else {
    body = <LoginForm onLoggedIn={() => navigate(target, { replace: true })} />;
  }

  return (
    <div className="relative isolate flex min-h-full items-center justify-center p-4">
      <Backdrop />
      <div className="flex w-full max-w-sm flex-col gap-6 rounded-2xl border border-border bg-panel/95 p-8 shadow-2xl backdrop-blur">
        <div className="flex flex-col items-center gap-2">
          <ShokoLogo className="text-2xl" />
          <h1 className="text-sm font-semibold uppercase tracking-widest text-muted">
            {status?.State === 'Started' ? 'Sign in' : 'Server status'}
          </h1>
        </div>
        {body}
        <ServerVersionInfo />
      </div>
    </div>
  );
}
