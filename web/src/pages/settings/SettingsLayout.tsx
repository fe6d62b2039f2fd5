import { Outlet } from 'react-router';
import { NavTabs } from '@/components/Tabs';

const sections = [
  ['general', 'General'],
  ['import', 'Import'],
  ['anidb', 'AniDB'],
  ['metadata-sites', 'Metadata Sites'],
  ['collection', 'Collection'],
  ['integrations', 'Integrations'],
  ['user-management', 'User Management'],
  ['api-keys', 'API Keys'],
  ['backups', 'Backups'],
] as const;

export default function SettingsLayout() {
  return (
    <div className="flex flex-1 flex-col gap-4 p-4 md:flex-row md:p-6">
      <NavTabs
        label="Settings sections"
        tone="side"
        className="flex shrink-0 gap-1 overflow-x-auto md:w-56 md:flex-col"
        tabs={sections.map(([to, label]) => ({ to, label }))}
      />
      <div className="flex flex-1">
        <Outlet />
      </div>
    </div>
  );
}
