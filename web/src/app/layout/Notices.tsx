import dayjs from 'dayjs';
import { mdiAlertCircleOutline, mdiCloudOffOutline, mdiDownload } from '@mdi/js';
import { AniDBUpdateType, type AniDBState } from '@shoko-ts/contract';
import type { ReactNode } from 'react';
import { useCheckConnectivity, useServerVersion } from '@/api/init';
import { useCurrentUser } from '@/api/users';
import { useLatestWebUIVersion } from '@/api/webui';
import { Icon } from '@/components/Icon';
import { compareSemVer, WEBUI_VERSION } from '@/lib/version';
import { useAggregateState } from '@/realtime/AggregateHub';

function Banner({
  tone,
  icon,
  children,
  onClick,
  testId,
}: {
  tone: 'warning' | 'danger' | 'info';
  icon: string;
  children: ReactNode;
  onClick?: () => void;
  testId: string;
}) {
  const tones = {
    warning: 'border-warning/40 bg-warning/10 text-warning',
    danger: 'border-danger/40 bg-danger/10 text-danger',
    info: 'border-secondary/40 bg-secondary/10 text-secondary',
  };
  const content = (
    <>
      <Icon path={icon} size={0.85} className="shrink-0" />
      <span className="text-left">{children}</span>
    </>
  );
  const className = `flex w-full items-center gap-2 rounded-lg border px-3 py-2 text-sm font-semibold ${tones[tone]}`;
  return onClick ? (
    <button type="button" className={`${className} cursor-pointer hover:brightness-125`} onClick={onClick} data-testid={testId}>
      {content}
    </button>
  ) : (
    <div className={className} data-testid={testId}>
      {content}
    </div>
  );
}

/** When an AniDB ban lifts: the update time plus the pause length. */
export function banRecheckTime(state: AniDBState): string {
  return dayjs(state.UpdateTime).add(state.PauseTimeSecs, 'second').format('YYYY-MM-DD HH:mm');
}

function BanNotice({ state, kind }: { state: AniDBState | null; kind: 'UDP' | 'HTTP' }) {
  const expected = kind === 'UDP' ? AniDBUpdateType.UDPBan : AniDBUpdateType.HTTPBan;
  if (!state?.Value || state.UpdateType !== expected) return null;
  return (
    <Banner tone="danger" icon={mdiAlertCircleOutline} testId={`anidb-${kind.toLowerCase()}-ban`}>
      AniDB {kind} Ban Detected! AniDB has temporarily banned this server for excessive connections. Automatic recheck at{' '}
      {banRecheckTime(state)}.
    </Banner>
  );
}

function UpdateNotice() {
  const { data: user } = useCurrentUser();
  const { data: version } = useServerVersion();
  const ours = version?.WebUI?.Version ?? WEBUI_VERSION;
  const { data: latest } = useLatestWebUIVersion('Stable', !!user?.IsAdmin);
  if (!latest?.Version || compareSemVer(latest.Version, ours) <= 0) return null;
  return (
    <Banner tone="info" icon={mdiDownload} testId="update-notice">
      Web UI {latest.Version} is available (you have {ours}). Update it from Settings › General.
    </Banner>
  );
}

export function Notices() {
  const { network, anidbUdp, anidbHttp } = useAggregateState();
  const recheck = useCheckConnectivity();
  const offline = network !== null && network.NetworkAvailability !== 'Internet' && network.NetworkAvailability !== 'PartialInternet';
  return (
    <div className="mx-auto flex w-full max-w-[1920px] flex-col gap-2 px-3 empty:hidden md:px-6 [&:not(:empty)]:pt-3">
      {offline && (
        <Banner tone="warning" icon={mdiCloudOffOutline} onClick={() => !recheck.isPending && recheck.mutate()} testId="no-internet">
          No Internet Connection {recheck.isPending ? '— checking…' : '— click to check again'}
        </Banner>
      )}
      <BanNotice state={anidbUdp} kind="UDP" />
      <BanNotice state={anidbHttp} kind="HTTP" />
      <UpdateNotice />
    </div>
  );
}
