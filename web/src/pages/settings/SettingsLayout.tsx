import { Link, Outlet, useLocation } from 'react-router';
import { useCurrentUser } from '@/api/users';
import { Spinner } from '@/components/Spinner';
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

/**
 * What a non-admin may open here: its own console settings (General: theme, notifications) and API keys. The server's
 * settings and accounts are for administrators.
 */
const OWN_SECTIONS: readonly string[] = ['general', 'api-keys'];

export default function SettingsLayout() {
  const user = useCurrentUser();
  const section = useLocation().pathname.replace(/\/+$/, '').split('/').pop() ?? '';
  const isAdmin = user.data?.IsAdmin === true;
  const shown = isAdmin ? sections : sections.filter(([to]) => OWN_SECTIONS.includes(to));
  return (
    <div className="flex flex-1 flex-col gap-4 p-4 md:flex-row md:p-6">
      <NavTabs
        label="Settings sections"
        tone="side"
        className="flex shrink-0 gap-1 overflow-x-auto md:w-56 md:flex-col"
        tabs={shown.map(([to, label]) => ({ to, label }))}
      />
      <div className="flex flex-1">
        {user.isPending ? (
          <Spinner />
        ) : isAdmin || OWN_SECTIONS.includes(section) ? (
          <Outlet />
        ) : (
          <p className="text-sm text-muted" data-testid="settings-admin-only">
            Only administrators can change the server&apos;s settings.{' '}
            <Link to="api-keys" className="text-primary hover:underline">
              Manage your API keys
            </Link>
          </p>
        )}
      </div>
    </div>
  );
}
