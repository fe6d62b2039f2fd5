import { useEffect } from 'react';
import dayjs from 'dayjs';
import { toast } from 'react-toastify';
import { useQueryClient } from '@tanstack/react-query';
import { useRunAction } from '@/api/actions';
import { integrationKeys, useTraktCode, useUnlinkTrakt } from '@/api/integrations';
import { settingsKeys, useSettings } from '@/api/settings';
import { Button } from '@/components/Button';
import { Panel } from '@/components/Panel';
import { SettingSelect, SettingToggle } from '@/components/settings/SettingsPage';
import { updateFrequencyOptions } from '@/components/settings/options';
import type { SettingsDraft } from '@/components/settings/useSettingsDraft';

/** A Trakt code is good for about 10 minutes; the console forgets it after that (SPEC.md §9). */
export const TRAKT_CODE_LIFETIME_MS = 600_000;
/** While a code is shown, the settings are re-read this often so the page sees the token the server stores. */
const LINK_CHECK_MS = 3000;

const CODE_TOAST = 'trakt-code';

export function TraktPanel({ draft }: { draft: SettingsDraft }) {
  const queryClient = useQueryClient();
  const saved = useSettings().data;
  const code = useTraktCode();
  const unlink = useUnlinkTrakt();
  const action = useRunAction();
  const syncEnabled = (saved?.TraktTv as { Enabled?: boolean } | undefined)?.Enabled === true;
  const expiry = draft.get<string>('TraktTv.TokenExpirationDate') ?? '';
  const linked = expiry !== '';

  const getCode = async () => {
    const result = await code.refetch();
    if (!result.data) return;
    toast.info('Click on the code to copy it. You have approximately 10 minutes to visit the URL provided and enter the code.', {
      autoClose: TRAKT_CODE_LIFETIME_MS,
      toastId: CODE_TOAST,
    });
  };

  // The code expires on Trakt's side; drop it from the page then.
  useEffect(() => {
    if (!code.dataUpdatedAt) return;
    const timer = setTimeout(() => void queryClient.resetQueries({ queryKey: integrationKeys.traktCode }), TRAKT_CODE_LIFETIME_MS);
    return () => clearTimeout(timer);
  }, [code.dataUpdatedAt, queryClient]);

  // The server polls Trakt in the background and stores the token; look for it while a code is shown.
  const waiting = !linked && !!code.data;
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => void queryClient.invalidateQueries({ queryKey: settingsKeys.all, exact: true }), LINK_CHECK_MS);
    return () => clearInterval(timer);
  }, [waiting, queryClient]);

  useEffect(() => {
    if (!linked) return;
    toast.dismiss(CODE_TOAST);
    if (code.data) void queryClient.resetQueries({ queryKey: integrationKeys.traktCode });
  }, [linked, code.data, queryClient]);

  // Both directions, as the periodic sync does: Trakt's plays come here first, then ours go there.
  const syncNow = async () => {
    await action.mutateAsync('GetWatchStatesFromTrakt');
    await action.mutateAsync('SendWatchStatesToTrakt');
    toast.success('Trakt sync queued.', { autoClose: 3000 });
  };

  const copyCode = async () => {
    if (!code.data) return;
    try {
      await navigator.clipboard.writeText(code.data.usercode);
      toast.success('Code copied to clipboard!', { autoClose: 3000 });
    } catch {
      toast.error('Copy failed! Please copy the code manually.');
    }
  };

  return (
    <Panel title="Trakt Options">
      <SettingToggle draft={draft} path="TraktTv.Enabled" label="Enabled" />
      {!linked && code.data && (
        <div className="flex flex-wrap items-center justify-between gap-3 text-sm">
          <Button variant="secondary" onClick={() => void copyCode()} title="Copy the code">
            Trakt Code: <span className="font-mono font-bold">{code.data.usercode}</span>
          </Button>
          <a href={code.data.url} target="_blank" rel="noopener noreferrer" className="font-semibold text-primary hover:underline">
            Click here to activate
          </a>
        </div>
      )}
      {!linked && !code.data && (
        <div className="flex items-center justify-between gap-3 text-sm">
          <span>Trakt Code</span>
          <Button onClick={() => void getCode()} disabled={code.isFetching} className="min-w-28">
            {code.isFetching ? 'Requesting...' : 'Get Code'}
          </Button>
        </div>
      )}
      {!linked && code.error && (
        <p role="alert" className="text-sm text-danger">
          {code.error.message || 'Trakt could not be asked for a code.'}
        </p>
      )}
      {linked && (
        <div className="flex flex-col gap-1">
          <div className="flex items-center justify-between gap-3 py-1.5 text-sm">
            <span>Token valid until</span>
            <span>{dayjs.unix(Number(expiry)).format('MMM D, YYYY HH:mm')}</span>
          </div>
          <SettingToggle draft={draft} path="TraktTv.AutoLink" label="Auto Link" />
          <SettingSelect draft={draft} path="TraktTv.UpdateFrequency" label="Update Frequency" options={updateFrequencyOptions} />
          <SettingSelect draft={draft} path="TraktTv.SyncFrequency" label="Sync Frequency" options={updateFrequencyOptions} />
          <div className="flex items-center justify-between gap-3 py-1.5 text-sm">
            <span>Watch States</span>
            <Button
              variant="secondary"
              busy={action.isPending}
              disabled={!syncEnabled}
              title={syncEnabled ? 'Get watch states from Trakt, then send ours' : 'Enable Trakt and save first'}
              onClick={() => void syncNow().catch(() => undefined)}
            >
              Sync Now
            </Button>
          </div>
          <div className="flex items-center justify-between gap-3 py-1.5 text-sm">
            <span>Trakt Token</span>
            <Button variant="danger" busy={unlink.isPending} disabled={!saved} onClick={() => saved && unlink.mutate(saved)}>
              Unlink
            </Button>
          </div>
        </div>
      )}
    </Panel>
  );
}
