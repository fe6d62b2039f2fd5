import { Navigate, Outlet, useLocation } from 'react-router';
import { useServerStatus } from '@/api/init';
import { FullPageSpinner } from '@/components/FullPageSpinner';
import { loginPathFor } from '@/lib/redirect';
import { useSession } from '@/lib/session';

/** The logged-in area needs a stored API key and a started server; otherwise it is off to the login page. */
export function AuthGuard() {
  const session = useSession();
  const location = useLocation();
  const status = useServerStatus(() => false);

  if (!session) return <Navigate to={loginPathFor(location)} replace />;
  if (status.isPending) return <FullPageSpinner />;
  if (status.data?.State !== 'Started') return <Navigate to={loginPathFor(location)} replace />;
  return <Outlet />;
}
