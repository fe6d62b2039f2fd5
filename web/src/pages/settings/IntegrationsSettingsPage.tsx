import { SettingsPage } from '@/components/settings/SettingsPage';
import { useSettingsDraft } from '@/components/settings/useSettingsDraft';
import { PlexPanel } from './IntegrationsSettingsPlex';
import { TraktPanel } from './IntegrationsSettingsTrakt';

/** Settings › Integrations: linking Trakt (device code) and Plex (PIN login, server, libraries). */
export default function IntegrationsSettingsPage() {
  const draft = useSettingsDraft();
  return (
    <SettingsPage title="Integrations Settings" draft={draft}>
      <TraktPanel draft={draft} />
      <PlexPanel />
    </SettingsPage>
  );
}
