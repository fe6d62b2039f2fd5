import { NavLink, Outlet } from 'react-router';

const sections = [
  ['general', 'General'],
  ['import', 'Import'],
  ['anidb', 'AniDB'],
  ['metadata-sites', 'Metadata Sites'],
  ['collection', 'Collection'],
  ['integrations', 'Integrations'],
  ['user-management', 'User Management'],
  ['api-keys', 'API Keys'],
] as const;

export default function SettingsLayout() {
  return (
    <div className="flex flex-1 flex-col gap-4 p-4 md:flex-row md:p-6">
      <nav aria-label="Settings sections" className="flex shrink-0 gap-1 overflow-x-auto md:w-56 md:flex-col">
        {sections.map(([path, label]) => (
          <NavLink
            key={path}
            to={path}
            className={({ isActive }) =>
              `whitespace-nowrap rounded-md px-3 py-2 text-sm font-semibold ${isActive ? 'bg-panel text-primary' : 'text-muted hover:bg-panel hover:text-text'}`
            }
          >
            {label}
          </NavLink>
        ))}
      </nav>
      <div className="flex flex-1">
        <Outlet />
      </div>
    </div>
  );
}
