import { mdiAlertCircleOutline } from '@mdi/js';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';

/** A failed import: the server's reason, the reassurance that nothing changed, and the way back to the form. */
export function ImportFailed({ error, onRetry }: { error: string | null; onRetry: () => void }) {
  return (
    <div className="flex flex-col gap-5" data-testid="import-failed">
      <div role="alert" className="flex flex-col gap-2 rounded-lg border border-danger/50 bg-danger/10 p-5">
        <h2 className="flex items-center gap-2 text-base font-semibold text-danger">
          <Icon path={mdiAlertCircleOutline} size={1} />
          The import failed
        </h2>
        <p className="whitespace-pre-wrap break-words">{error ?? 'The server did not say why.'}</p>
      </div>
      <p className="text-muted">
        Nothing was changed: this server&apos;s database is as it was before the import, and the Shoko data folder is only ever read. Fix
        the cause, then check and import again.
      </p>
      <div className="flex justify-end">
        <Button onClick={onRetry}>Try again</Button>
      </div>
    </div>
  );
}
