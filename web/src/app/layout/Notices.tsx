import dayjs from 'dayjs';
import { mdiAlertCircleOutline, mdiCloudOffOutline, mdiDownload, mdiPauseCircleOutline } from '@mdi/js';
import { AniDBUpdateType, type AniDBState } from '@shoko-ts/contract';
import { useCheckConnectivity, useServerVersion } from '@/api/init';
import { useCurrentUser } from '@/api/users';
import { useLatestWebUIVersion } from '@/api/webui';
import { compareSemVer, WEBUI_VERSION } from '@/lib/version';
import { useAggregateState, type AniDBStates } from '@/realtime/AggregateHub';
import { Banner } from './Banner';
import { ServerHealthNotices } from './ServerHealthNotices';

/** When an AniDB ban or pause ends: the update time plus the pause length. */
export function banRecheckTime(state: AniDBState, format = 'YYYY-MM-DD HH:mm'): string {
  return dayjs(state.UpdateTime).add(state.PauseTimeSecs, 'second').format(format);
}

/** AniDB's ban of one protocol, its back-off pause after failures, and (UDP) a refused login, each with when it ends. */
function AniDBNotices({ states, kind }: { states: AniDBStates; kind: 'UDP' | 'HTTP' }) {
  const ban = states[kind === 'UDP' ? AniDBUpdateType.UDPBan : AniDBUpdateType.HTTPBan];
  const pause = states[AniDBUpdateType.OverloadBackoff];
  const login = states[AniDBUpdateType.InvalidSession];
  const id = kind.toLowerCase();
  return (
    <>
      {ban?.Value && (
        <Banner tone="danger" icon={mdiAlertCircleOutline} testId={`anidb-${id}-ban`}>
          AniDB {kind} Ban Detected! AniDB has temporarily banned this server for excessive connections. Automatic recheck at{' '}
          {banRecheckTime(ban)}.
        </Banner>
      )}
      {pause?.Value && !ban?.Value && (
        <Banner tone="warning" icon={mdiPauseCircleOutline} testId={`anidb-${id}-backoff`}>
          AniDB {kind} requests are paused after failures{pause.Message ? ` (${pause.Message})` : ''}. They resume at{' '}
          {banRecheckTime(pause, 'YYYY-MM-DD HH:mm:ss')}.
        </Banner>
      )}
      {login?.Value && (
        <Banner tone="warning" icon={mdiAlertCircleOutline} testId="anidb-login-failed">
          AniDB refused the login. No new login is tried, and file lookups and MyList updates wait in the queue, until the username or
          password in Settings › AniDB changes.
        </Banner>
      )}
    </>
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
      <AniDBNotices states={anidbUdp} kind="UDP" />
      <AniDBNotices states={anidbHttp} kind="HTTP" />
      <UpdateNotice />
      <ServerHealthNotices />
    </div>
  );
}
