import { Navigate, Outlet } from 'react-router';
import { useServerVersion } from '@/api/init';
import { FullPageSpinner } from '@/components/FullPageSpinner';
import { isServerSupported } from '@/lib/version';

/** Sends the user to /unsupported when the server is older than this console supports (never for Debug builds). */
export function VersionGate() {
  const version = useServerVersion();
  if (version.isPending) return <FullPageSpinner />;
  if (version.data && !isServerSupported(version.data.Server)) return <Navigate to="/unsupported" replace />;
  return <Outlet />;
}
