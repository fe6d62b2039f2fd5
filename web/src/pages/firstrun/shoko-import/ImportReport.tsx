import { mdiAlertOctagonOutline, mdiChevronDown, mdiChevronRight, mdiInformationOutline } from '@mdi/js';
import { Fragment, useId, useState } from 'react';
import type { ShokoImportKind, ShokoImportReport } from '@shoko-ts/contract';
import { Icon } from '@/components/Icon';
import { reportTotals, skippedCount } from './importRequest';

const count = (value: number) => value.toLocaleString();

/** A dry run's or an import's report: totals, a row per kind of data with its skip reasons, then the notes. */
export function ImportReport({ report }: { report: ShokoImportReport }) {
  const [showEmpty, setShowEmpty] = useState(false);
  const totals = reportTotals(report);
  const { Blockers: blockers, Notes: notes } = report;
  const empty = report.Kinds.filter((kind) => kind.Source === 0);
  const shown = showEmpty ? report.Kinds : report.Kinds.filter((kind) => kind.Source > 0);
  const verb = report.DryRun ? 'would be imported' : 'imported';

  return (
    <section className="flex flex-col gap-3" aria-label={report.DryRun ? 'Check report' : 'Import report'} data-testid="import-report">
      {blockers.length > 0 && <Blockers blockers={blockers} />}
      <div className="flex flex-col gap-0.5" data-testid="import-report-summary">
        <p className="text-muted">
          <span className="font-semibold text-text">{count(totals.imported)}</span> of {count(totals.source)} rows {verb}
          {totals.skipped > 0 && (
            <>
              , <span className="font-semibold text-warning">{count(totals.skipped)}</span> skipped
            </>
          )}
          .
        </p>
        <p className="text-xs text-muted">
          Shoko database schema {report.SchemaVersion} in <span className="font-mono wrap-anywhere">{report.Folder}</span>
        </p>
      </div>
      {/* About 45 kinds: the table scrolls on its own, so the buttons below it stay in reach. */}
      <div className="max-h-[28rem] overflow-auto rounded-lg border border-border">
        <table className="w-full text-left text-sm">
          <thead className="sticky top-0 z-10 bg-background-alt text-xs uppercase tracking-wider text-muted shadow-[0_1px_0_var(--color-border)]">
            <tr>
              <th scope="col" className="px-3 py-2 font-semibold">
                Kind
              </th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">
                In Shoko
              </th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">
                {report.DryRun ? 'To import' : 'Imported'}
              </th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">
                Skipped
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((kind) => (
              <KindRow key={kind.Kind} kind={kind} />
            ))}
          </tbody>
        </table>
      </div>
      {empty.length > 0 && (
        <button
          type="button"
          className="self-start text-xs font-semibold text-primary hover:underline"
          onClick={() => setShowEmpty((v) => !v)}
        >
          {showEmpty ? 'Hide' : 'Show'} {empty.length} kind{empty.length === 1 ? '' : 's'} Shoko has nothing of
        </button>
      )}
      {notes.length > 0 && (
        <div className="flex flex-col gap-1.5 rounded-lg border border-border bg-background-alt p-3" data-testid="import-notes">
          <h3 className="flex items-center gap-2 text-xs font-semibold uppercase tracking-wider text-muted">
            <Icon path={mdiInformationOutline} size={0.7} /> Notes
          </h3>
          <ul className="list-disc space-y-1 pl-5 text-muted">
            {notes.map((note) => (
              <li key={note} className="break-words">
                {note}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

function Blockers({ blockers }: { blockers: string[] }) {
  return (
    <div role="alert" className="flex flex-col gap-1.5 rounded-lg border border-danger/50 bg-danger/10 p-3" data-testid="import-blockers">
      <h3 className="flex items-center gap-2 font-semibold text-danger">
        <Icon path={mdiAlertOctagonOutline} size={0.8} />
        Must be fixed before importing
      </h3>
      <ul className="list-disc space-y-1 pl-5">
        {blockers.map((blocker) => (
          <li key={blocker} className="break-words">
            {blocker}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** One kind; its skip reasons (count and a few examples each) open below it. */
function KindRow({ kind }: { kind: ShokoImportKind }) {
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const skipped = skippedCount(kind);
  const muted = kind.Source === 0 ? 'text-muted' : '';

  return (
    <Fragment>
      <tr className={`border-t border-border ${muted}`} data-testid="import-kind">
        <th scope="row" className="px-3 py-1.5 font-normal">
          {skipped > 0 ? (
            <button
              type="button"
              aria-expanded={open}
              aria-controls={open ? detailsId : undefined}
              onClick={() => setOpen((value) => !value)}
              className="-ml-1 flex items-center gap-1 rounded px-1 text-left hover:text-primary"
            >
              <Icon path={open ? mdiChevronDown : mdiChevronRight} size={0.7} className="shrink-0" />
              {kind.Kind}
            </button>
          ) : (
            <span className="pl-5">{kind.Kind}</span>
          )}
        </th>
        <td className="px-3 py-1.5 text-right tabular-nums">{count(kind.Source)}</td>
        <td className="px-3 py-1.5 text-right tabular-nums">{count(kind.Imported)}</td>
        <td className={`px-3 py-1.5 text-right tabular-nums ${skipped ? 'font-semibold text-warning' : 'text-muted'}`}>
          {skipped ? count(skipped) : '—'}
        </td>
      </tr>
      {open && (
        <tr id={detailsId} className="bg-background-alt">
          <td colSpan={4} className="px-3 pb-3 pt-1">
            <ul className="flex flex-col gap-2 pl-5" aria-label={`Why ${kind.Kind.toLowerCase()} were skipped`}>
              {kind.Skipped.map((skip) => (
                <li key={skip.Reason} className="flex flex-col gap-0.5">
                  <span>
                    <span className="font-semibold tabular-nums text-warning">{count(skip.Count)}</span> {skip.Reason}
                  </span>
                  {skip.Examples.length > 0 && (
                    <span className="break-words text-xs text-muted">
                      e.g. <span className="font-mono">{skip.Examples.join(', ')}</span>
                      {skip.Count > skip.Examples.length && ' …'}
                    </span>
                  )}
                </li>
              ))}
            </ul>
          </td>
        </tr>
      )}
    </Fragment>
  );
}
