import { mdiLanDisconnect } from '@mdi/js';
import { Icon } from '@/components/Icon';

/** A small warning pill for what lives in an import folder that is offline; `title` says more on hover. */
export function OfflineBadge({ label = 'Offline', title }: { label?: string; title?: string }) {
  return (
    <span
      className="inline-flex shrink-0 items-center gap-1 rounded-full border border-warning/50 bg-warning/10 px-2 text-xs font-semibold text-warning"
      title={title ?? 'The import folder cannot be reached; its records are kept until it is back'}
      data-testid="offline-badge"
    >
      <Icon path={mdiLanDisconnect} size={0.55} />
      {label}
    </span>
  );
}
