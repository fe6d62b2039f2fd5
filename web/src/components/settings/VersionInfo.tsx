import { useServerVersion } from '@/api/init';
import { parseWebUISettings } from '@/api/settings';
import { useUpdateWebUI, useWebUIUpdateCheck } from '@/api/webui';
import { Button } from '@/components/Button';
import { Panel } from '@/components/Panel';
import { compareSemVer, WEBUI_VERSION } from '@/lib/version';
import { SelectRow } from './SelectRow';
import type { SettingsDraft } from './useSettingsDraft';

const row = 'flex items-center justify-between gap-4 py-1.5 text-sm';

/** Settings › General › Version Information: what runs, and a check for a newer console on the chosen channel. */
export function VersionInfo({ draft, onChannelChange }: { draft: SettingsDraft; onChannelChange: (channel: 'Stable' | 'Dev') => void }) {
  const { data: versions, isPending } = useServerVersion();
  const channel = parseWebUISettings(draft.get<string>('WebUI_Settings')).updateChannel === 'Dev' ? 'Dev' : 'Stable';
  const check = useWebUIUpdateCheck(channel);
  const server = versions?.Server;
  const product = versions?.Product;
  const commit = product?.Commit ?? server?.Commit;
  const webuiVersion = versions?.WebUI?.Version ?? WEBUI_VERSION;
  const latest = check.data?.Version;
  const install = useUpdateWebUI();
  const newer = !!latest && compareSemVer(latest, webuiVersion) > 0;

  return (
    <Panel
      title="Version Information"
      actions={
        <Button variant="secondary" busy={check.isFetching} onClick={() => void check.refetch()}>
          Refresh
        </Button>
      }
    >
      {isPending ? (
        <p className="text-sm text-muted">Loading versions…</p>
      ) : (
        <div className="flex flex-col" data-testid="version-info">
          <div className={row}>
            <span>Server Version</span>
            <span className="flex flex-wrap items-center justify-end gap-x-2 font-mono">
              {product?.Version ?? server?.Version ?? 'Unknown'}
              {product?.Version && server?.Version && <span className="text-muted">(API {server.Version})</span>}
              {commit && (
                <a
                  className="text-primary hover:underline"
                  href={`https://github.com/search?q=${commit}&type=commits`}
                  target="_blank"
                  rel="noreferrer noopener"
                  title={commit}
                >
                  {commit.slice(0, 7)}
                </a>
              )}
            </span>
          </div>
          <div className={row}>
            <span>Server Channel</span>
            <span>{server?.ReleaseChannel ?? 'Unknown'}</span>
          </div>
          <div className={row}>
            <span>Web UI Version</span>
            <span className="font-mono">{webuiVersion}</span>
          </div>
          <SelectRow label="Web UI Channel" value={channel} onChange={(event) => onChannelChange(event.target.value as 'Stable' | 'Dev')}>
            <option value="Stable">Stable</option>
            <option value="Dev">Dev</option>
          </SelectRow>
        </div>
      )}
      <div aria-live="polite" className="text-sm" data-testid="update-check">
        {check.isFetching ? (
          <span className="text-muted">Checking for a web UI update…</span>
        ) : check.isError ? (
          <span role="alert" className="text-danger">
            {check.error.message}
          </span>
        ) : latest ? (
          newer ? (
            <span className="flex flex-wrap items-center gap-3">
              <span className="text-warning">
                Web UI {latest} is available on the {channel} channel (you have {webuiVersion}).
              </span>
              <Button busy={install.isPending} onClick={() => install.mutate(channel, { onSuccess: () => window.location.reload() })}>
                Update Web UI
              </Button>
            </span>
          ) : (
            <span className="text-success">
              The web UI is up to date ({channel} channel, latest {latest}).
            </span>
          )
        ) : (
          <span className="text-muted">Press Refresh to check for a web UI update.</span>
        )}
      </div>
      {install.isError && (
        <p role="alert" className="text-sm text-danger" data-testid="update-error">
          The web UI could not be updated: {install.error.message}
        </p>
      )}
    </Panel>
  );
}
