import { useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import {
  mdiClose,
  mdiCogOutline,
  mdiLogout,
  mdiMenu,
  mdiTextBoxOutline,
  mdiTune,
  mdiViewDashboardOutline,
  mdiFolderMultipleOutline,
  mdiLightningBoltOutline,
} from '@mdi/js';
import { useLogout } from '@/api/auth';
import { useIsAdmin } from '@/api/users';
import { Icon } from '@/components/Icon';
import { ShokoLogo } from '@/components/ShokoLogo';
import { ActionsModal } from '@/components/actions/ActionsModal';
import { DashboardSettingsModal } from '@/components/dashboard/DashboardSettingsModal';
import { QueueCount } from './QueueCount';
import { UserBadge } from './UserBadge';
import { UtilitiesMenu } from './UtilitiesMenu';
import { VersionBadge } from './VersionBadge';

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `flex items-center gap-2 rounded-md px-3 py-2 text-sm font-semibold transition-colors ${isActive ? 'text-primary' : 'text-muted hover:text-text'}`;

const iconButton = 'flex size-9 items-center justify-center rounded-md text-muted transition-colors hover:bg-panel-alt hover:text-text';

export function TopNav() {
  const location = useLocation();
  const logout = useLogout();
  const isAdmin = useIsAdmin();
  const [menuOpen, setMenuOpen] = useState(false);
  const [actionsOpen, setActionsOpen] = useState(false);
  const [dashboardSettingsOpen, setDashboardSettingsOpen] = useState(false);
  const onDashboard = location.pathname === '/dashboard';
  const closeMenu = () => setMenuOpen(false);

  const links = (
    <>
      <NavLink to="/dashboard" className={linkClass} onClick={closeMenu}>
        <Icon path={mdiViewDashboardOutline} size={0.85} />
        Dashboard
      </NavLink>
      <NavLink to="/collection" className={linkClass} onClick={closeMenu}>
        <Icon path={mdiFolderMultipleOutline} size={0.85} />
        Collection
      </NavLink>
      {/* The utilities change files and links, and the log is the server's: both are for administrators. */}
      {isAdmin && <UtilitiesMenu onNavigate={closeMenu} />}
      {isAdmin && (
        <NavLink to="/log" className={linkClass} onClick={closeMenu}>
          <Icon path={mdiTextBoxOutline} size={0.85} />
          Log
        </NavLink>
      )}
      <button
        type="button"
        className={linkClass({ isActive: false })}
        onClick={() => {
          closeMenu();
          setActionsOpen(true);
        }}
      >
        <Icon path={mdiLightningBoltOutline} size={0.85} />
        Actions
      </button>
    </>
  );

  return (
    <header className="sticky top-0 z-40 border-b border-border bg-header/95 backdrop-blur">
      <div className="mx-auto flex h-14 max-w-[1920px] items-center gap-2 px-3 md:px-6">
        <button
          type="button"
          className={`${iconButton} lg:hidden`}
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          aria-expanded={menuOpen}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <Icon path={menuOpen ? mdiClose : mdiMenu} />
        </button>
        <Link to="/dashboard" className="flex items-center gap-2" aria-label="Shoko home">
          <ShokoLogo />
        </Link>
        <VersionBadge />
        <nav aria-label="Main" className="ml-4 hidden items-center gap-1 lg:flex">
          {links}
        </nav>
        <div className="ml-auto flex items-center gap-1">
          <QueueCount />
          {onDashboard && (
            <button
              type="button"
              className={iconButton}
              aria-label="Dashboard Settings"
              title="Dashboard Settings"
              onClick={() => setDashboardSettingsOpen(true)}
            >
              <Icon path={mdiTune} />
            </button>
          )}
          <NavLink
            to="/settings"
            className={({ isActive }) => `${iconButton} ${isActive ? 'text-primary' : ''}`}
            aria-label="Settings"
            title="Settings"
          >
            <Icon path={mdiCogOutline} />
          </NavLink>
          <UserBadge />
          <button type="button" className={iconButton} aria-label="Logout" title="Logout" onClick={logout}>
            <Icon path={mdiLogout} />
          </button>
        </div>
      </div>
      {menuOpen && (
        <nav aria-label="Main" className="flex flex-col gap-1 border-t border-border px-3 py-2 lg:hidden">
          {links}
        </nav>
      )}
      <ActionsModal open={actionsOpen} onClose={() => setActionsOpen(false)} />
      <DashboardSettingsModal open={dashboardSettingsOpen} onClose={() => setDashboardSettingsOpen(false)} />
    </header>
  );
}
