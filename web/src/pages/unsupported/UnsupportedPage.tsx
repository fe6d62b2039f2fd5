import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { mdiOpenInNew } from '@mdi/js';
import { useServerVersion } from '@/api/init';
import { useForceStableUpdate } from '@/api/webui';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { isServerSupported, MINIMUM_SERVER_VERSION, WEBUI_VERSION } from '@/lib/version';

const SUPPORT_URL = 'https://github.com/ShokoAnime/ShokoServer/issues';

export default function UnsupportedPage() {
  const navigate = useNavigate();
  const { data } = useServerVersion();
  const update = useForceStableUpdate();
  const supported = data ? isServerSupported(data.Server) : false;

  useEffect(() => {
    if (supported) navigate('/', { replace: true });
  }, [supported, navigate]);

  const row = (label: string, value: string) => (
    <div className="flex justify-between gap-4 border-b border-border py-2 last:border-b-0">
      <span className="text-muted">{label}</span>
      <span className="font-mono">{value}</span>
    </div>
  );

  return (
    <div className="flex min-h-full items-center justify-center p-4">
      <div className="flex w-full max-w-lg flex-col gap-5 rounded-2xl border border-danger/40 bg-panel p-8 shadow-2xl">
        <div className="flex flex-col gap-1 text-center">
          <h1 className="text-4xl font-black tracking-widest text-danger">STOP!</h1>
          <p className="text-xl font-semibold">You Shall Not Pass!</p>
        </div>
        <p className="text-sm text-muted">
          This web UI needs a newer server. The server you are connected to is older than the oldest version this web UI was built for, so
          some pages would break or show wrong data. Update the server, or install the stable web UI that matches it.
        </p>
        <div className="rounded-lg bg-background-alt px-4 py-2 text-sm">
          {row('Server Version', data?.Server.Version ?? 'Unknown')}
          {row('Minimum Supported Server Version', MINIMUM_SERVER_VERSION)}
          {row('Web UI Version', data?.WebUI?.Version ?? WEBUI_VERSION)}
        </div>
        {update.isError && (
          <p role="alert" className="text-sm font-semibold text-danger">
            {update.error.message}
          </p>
        )}
        {update.isSuccess && <p className="text-sm text-success">The stable web UI was installed. Reload the page to use it.</p>}
        <div className="flex flex-wrap items-center justify-between gap-3">
          <a
            href={SUPPORT_URL}
            target="_blank"
            rel="noreferrer"
            className="inline-flex items-center gap-1 text-sm font-semibold text-primary hover:underline"
          >
            Get support <Icon path={mdiOpenInNew} size={0.7} />
          </a>
          <Button onClick={() => update.mutate()} busy={update.isPending}>
            Force update to Stable Web UI
          </Button>
        </div>
      </div>
    </div>
  );
}
