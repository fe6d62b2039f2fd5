import type { ShokoImportStatus } from '@shoko-ts/contract';
import { Spinner } from '@/components/Spinner';

/** A running import: the step it is on and a bar of Done of Total. */
export function ImportProgress({ status, live }: { status: ShokoImportStatus; live: boolean }) {
  const total = Math.max(1, status.Total);
  const percent = Math.min(100, Math.round((status.Done / total) * 100));

  return (
    <div className="flex flex-col gap-5" data-testid="import-progress">
      <div className="flex flex-col gap-3 rounded-lg border border-border bg-background-alt p-5">
        <div className="flex items-center justify-between gap-3">
          <span className="flex items-center gap-3 font-semibold">
            <Spinner size={1} />
            <span aria-live="polite" data-testid="import-step">
              {status.Step ?? 'Importing…'}
            </span>
          </span>
          <span className="tabular-nums text-muted">{percent} %</span>
        </div>
        <div
          role="progressbar"
          aria-label="Import progress"
          aria-valuemin={0}
          aria-valuemax={status.Total}
          aria-valuenow={status.Done}
          className="h-2.5 overflow-hidden rounded-full bg-panel-alt"
        >
          <div className="h-full rounded-full bg-primary transition-[width] duration-500" style={{ width: `${percent}%` }} />
        </div>
      </div>
      <p className="text-muted">
        The import runs on the server: you can close this page and come back to it. Everything is written in one go, so until it has
        finished this server stays empty. When it is done the server starts by itself.
      </p>
      {!live && <p className="text-xs text-muted">Live updates are not available; this page asks the server every half second.</p>}
    </div>
  );
}
