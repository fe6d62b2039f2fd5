import { useServerVersion } from '@/api/init';
import { formatVersion } from '@/lib/version';

/** Non-stable servers show `version-channel (commit)` so testers know what they run. */
export function VersionBadge() {
  const { data } = useServerVersion();
  const server = data?.Server;
  if (!server || !server.ReleaseChannel || server.ReleaseChannel === 'Stable') return null;
  return (
    <span
      className="hidden rounded-full border border-border px-2 py-0.5 font-mono text-xs text-muted md:inline"
      title="Server version"
      data-testid="version-channel"
    >
      {formatVersion(server)}
    </span>
  );
}
