import { mdiAlertCircleOutline, mdiRefresh } from '@mdi/js';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useShokoImportDryRun, useStartShokoImport } from '@/api/shokoImport';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { Spinner } from '@/components/Spinner';
import { TextField } from '@/components/TextField';
import { ImportReport } from './ImportReport';
import { buildRequest, loadDraft, requestErrors, requestKey, saveDraft, type ImportDraft } from './importRequest';
import { PathMapEditor } from './PathMapEditor';

interface ImportFormProps {
  /** What the server is reading right now; a check reports its progress on the hub too. */
  liveStep: string | null;
  onStarted: () => void;
}

/** The folder and path map, the check (a dry run) and its report; Import opens once a check of the same input found no blocker. */
export function ImportForm({ liveStep, onStarted }: ImportFormProps) {
  const navigate = useNavigate();
  const [draft, setDraftState] = useState(loadDraft);
  const dryRun = useShokoImportDryRun();
  const start = useStartShokoImport();

  const setDraft = (next: ImportDraft) => {
    setDraftState(next);
    saveDraft(next);
  };
  const { request, rowProblems } = buildRequest(draft);
  const report = dryRun.data ?? null;
  const current = !!report && requestKey(dryRun.variables ?? null) === requestKey(request);
  const blocked = !!report && report.Blockers.length > 0;
  const busy = dryRun.isPending || start.isPending;
  const errors = requestErrors(start.error ?? dryRun.error);

  const check = () => {
    if (!request || busy) return;
    start.reset();
    dryRun.mutate(request);
  };

  return (
    <form
      className="flex flex-1 flex-col gap-6"
      onSubmit={(event) => {
        event.preventDefault();
        check();
      }}
    >
      <h1 className="text-2xl font-semibold">Import from Shoko Server</h1>
      <div className="flex flex-1 flex-col gap-5 text-sm leading-relaxed">
        <p className="text-muted">
          Bring over an existing Shoko Server in one step: its users and passwords, import folders and files, series and groups, watch
          history, votes, custom tags, filters, renamer configs and settings, and its AniDB cache, so nothing has to be fetched again.
          Afterwards you sign in with your Shoko user name and password.
        </p>
        <TextField
          label="Shoko data folder"
          name="shoko-folder"
          value={draft.folder}
          onChange={(event) => setDraft({ ...draft, folder: event.target.value })}
          placeholder="/home/you/.shoko/Shoko.CLI"
          spellCheck={false}
          autoComplete="off"
          className="[&_input]:font-mono"
          errors={errors.folder}
          disabled={busy}
          hint={
            <>
              The folder with Shoko&apos;s <code className="font-mono">settings-server.json</code>, as this server sees it: usually{' '}
              <code className="font-mono">~/.shoko/Shoko.CLI</code> on Linux and in Docker (write the home folder out, e.g.{' '}
              <code className="font-mono">/home/you/.shoko/Shoko.CLI</code>) and{' '}
              <code className="font-mono">C:\ProgramData\ShokoServer</code> on Windows. It is only read, never changed.
            </>
          }
        />
        <PathMapEditor
          rows={draft.rows}
          onChange={(rows) => setDraft({ ...draft, rows })}
          rowProblems={rowProblems}
          errors={errors.pathMap}
          disabled={busy}
        />
        {errors.general && (
          <p
            role="alert"
            className="flex items-start gap-2 rounded-md border border-danger/40 bg-danger/10 px-3 py-2 font-semibold text-danger"
          >
            <Icon path={mdiAlertCircleOutline} size={0.8} className="mt-0.5 shrink-0" />
            {errors.general}
          </p>
        )}
        {dryRun.isPending && (
          <div
            className="flex items-center gap-3 rounded-lg border border-border bg-background-alt px-4 py-3"
            role="status"
            data-testid="check-progress"
          >
            <Spinner size={1} />
            <span>
              <span className="font-semibold">Checking the Shoko data…</span>
              {liveStep && <span className="text-muted"> {liveStep}</span>}
            </span>
          </div>
        )}
        {report && (
          <div className={`flex flex-col gap-3 ${current ? '' : 'opacity-60'}`}>
            <h2 className="text-base font-semibold">What the import would bring over</h2>
            {!current && (
              <p className="flex items-center gap-2 font-semibold text-warning" data-testid="report-outdated">
                <Icon path={mdiRefresh} size={0.8} /> The folder or path map changed since this check: check again before importing.
              </p>
            )}
            <ImportReport report={report} />
          </div>
        )}
        {!report && !dryRun.isPending && (
          <p className="rounded-lg border border-dashed border-border px-4 py-3 text-center text-muted" data-testid="report-placeholder">
            Check the folder first: it reads everything and shows what would come over, without writing anything.
          </p>
        )}
      </div>
      <div className="flex flex-wrap items-center justify-end gap-3">
        {report && current && blocked && (
          <span className="mr-auto text-xs font-semibold text-danger">Fix the problems above, then check again.</span>
        )}
        <Button variant="secondary" disabled={busy} onClick={() => navigate('../acknowledgement')}>
          Back
        </Button>
        <Button type="submit" variant="secondary" disabled={!request || start.isPending} busy={dryRun.isPending}>
          Check
        </Button>
        <Button
          disabled={!request || !current || blocked || dryRun.isPending}
          busy={start.isPending}
          onClick={() => request && start.mutate(request, { onSuccess: onStarted })}
        >
          Import
        </Button>
      </div>
    </form>
  );
}
