import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useCurrentUser } from '@/api/users';
import { recordNavigation } from '@/lib/errorReporting';
import { AggregateHubProvider } from '@/realtime/AggregateHub';
import { Notices } from './Notices';
import { TopNav } from './TopNav';

/** The logged-in shell: navigation, notices and the live server feed around every page. */
export default function MainLayout() {
  const location = useLocation();
  // Loaded here so a revoked key (401) logs out straight away, whatever page is open.
  useCurrentUser();
  useEffect(() => recordNavigation(location.pathname), [location.pathname]);

  return (
    <AggregateHubProvider>
      <div className="flex min-h-full flex-col">
        <TopNav />
        <Notices />
        <main className="flex min-h-0 flex-1 flex-col">
          <Outlet />
        </main>
      </div>
    </AggregateHubProvider>
  );
}
