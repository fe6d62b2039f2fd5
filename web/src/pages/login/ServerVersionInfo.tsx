import { useServerVersion } from '@/api/init';
import { formatVersion } from '@/lib/version';

export function ServerVersionInfo() {
  const { data } = useServerVersion();
  if (!data) return null;
  return (
    <div className="flex flex-col items-center gap-0.5 text-xs text-muted" data-testid="server-version">
      <span>Server version: {formatVersion(data.Server)}</span>
      {data.Product?.Version && <span>shoko-ts {data.Product.Version}</span>}
    </div>
  );
}
