import { Panel } from '@/components/Panel';
import { Toggle } from '@/components/Toggle';
import { parseWebUISettings } from '@/api/settings';
import { SelectRow } from '@/components/settings/SelectRow';
import { SettingSelect, SettingsPage, SettingToggle } from '@/components/settings/SettingsPage';
import { useOwnConsoleSettingsDraft, useSettingsDraft, type SettingsDraft } from '@/components/settings/useSettingsDraft';
import { useIsAdmin } from '@/api/users';
import { deleteFrequencyOptions } from '@/components/settings/options';
import { ThemeOptions } from '@/components/settings/ThemeOptions';
import { VersionInfo } from '@/components/settings/VersionInfo';

export default function GeneralSettingsPage() {
  return useIsAdmin() ? <ServerGeneralSettings /> : <OwnGeneralSettings />;
}

/** The console settings kept as JSON text in the draft, and a setter of some of them. */
function consoleSettingsOf(draft: SettingsDraft) {
  const text = draft.get<string>('WebUI_Settings');
  const webui = parseWebUISettings(text);
  const setWebUI = (patch: Partial<typeof webui>) => draft.set('WebUI_Settings', JSON.stringify({ ...webui, ...patch }));
  return { text, webui, setWebUI };
}

function ServerGeneralSettings() {
  const draft = useSettingsDraft();
  const { text, webui, setWebUI } = consoleSettingsOf(draft);
  const logsOn = !!draft.get<boolean>('LogRotator.Enabled');
  return (
    <SettingsPage title="General Settings" draft={draft}>
      <VersionInfo draft={draft} onChannelChange={(updateChannel) => setWebUI({ updateChannel })} />
      <ThemeOptions webuiSettings={text} onThemeChange={(theme) => setWebUI({ theme })} canUpload />
      <NotificationOptions webui={webui} setWebUI={setWebUI} />
      <Panel title="Log Options">
        <SettingToggle draft={draft} path="LogRotator.Enabled" label="Enable" />
        <SettingToggle draft={draft} path="LogRotator.Zip" label="Compress Logs" disabled={!logsOn} />
        <SettingToggle draft={draft} path="LogRotator.Delete" label="Delete Older Logs" disabled={!logsOn} />
        <SettingSelect draft={draft} path="LogRotator.Delete_Days" label="Delete Frequency" options={deleteFrequencyOptions} />
        <SettingToggle draft={draft} path="TraceLog" label="Trace Logs" />
      </Panel>
    </SettingsPage>
  );
}

/** A non-admin's General page: its own theme and notifications; the server's version, updates and logs are not its. */
function OwnGeneralSettings() {
  const draft = useOwnConsoleSettingsDraft();
  const { text, webui, setWebUI } = consoleSettingsOf(draft);
  return (
    <SettingsPage title="General Settings" draft={draft}>
      <ThemeOptions webuiSettings={text} onThemeChange={(theme) => setWebUI({ theme })} canUpload={false} />
      <NotificationOptions webui={webui} setWebUI={setWebUI} />
    </SettingsPage>
  );
}

function NotificationOptions({
  webui,
  setWebUI,
}: {
  webui: ReturnType<typeof parseWebUISettings>;
  setWebUI: (patch: Partial<ReturnType<typeof parseWebUISettings>>) => void;
}) {
  return (
    <Panel title="Notification Options">
      <Toggle label="Enable" checked={webui.notifications} onChange={(notifications) => setWebUI({ notifications })} />
      <SelectRow
        label="Position"
        disabled={!webui.notifications}
        value={webui.toastPosition}
        onChange={(event) => setWebUI({ toastPosition: event.target.value as typeof webui.toastPosition })}
      >
        <option value="bottom-right">Bottom Right</option>
        <option value="top-right">Top Right</option>
      </SelectRow>
    </Panel>
  );
}
