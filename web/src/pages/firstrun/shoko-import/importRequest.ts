import type { ShokoImportKind, ShokoImportReport, ShokoImportRequest } from '@shoko-ts/contract';
import { formErrors } from '@/api/client';

/** One row of the path map editor; `id` only keeps React's rows apart while rows are removed. */
export interface PathMapRow {
  id: number;
  From: string;
  To: string;
}

export interface ImportDraft {
  folder: string;
  rows: PathMapRow[];
}

export interface BuiltRequest {
  /** null while the draft cannot be sent (no folder, or a half-filled path map row). */
  request: ShokoImportRequest | null;
  /** Why a row cannot be sent, by row id. */
  rowProblems: Map<number, string>;
}

/** The request the draft stands for: trimmed, empty path map rows left out, half-filled ones named. */
export function buildRequest({ folder, rows }: ImportDraft): BuiltRequest {
  const rowProblems = new Map<number, string>();
  const PathMap: NonNullable<ShokoImportRequest['PathMap']> = [];
  for (const row of rows) {
    const From = row.From.trim();
    const To = row.To.trim();
    if (!From && !To) continue;
    if (!From || !To)
      rowProblems.set(row.id, `Fill in ${From ? 'where the folder is now' : 'the path on the Shoko machine'}, or remove the row.`);
    else PathMap.push({ From, To });
  }
  const Folder = folder.trim();
  if (!Folder || rowProblems.size) return { request: null, rowProblems };
  return { request: PathMap.length ? { Folder, PathMap } : { Folder }, rowProblems };
}

/** Two requests are the same import when this matches: a check counts only for the folder and path map it was run with. */
export function requestKey(request: ShokoImportRequest | null): string | null {
  return request && JSON.stringify([request.Folder, (request.PathMap ?? []).map((m) => [m.From, m.To])]);
}

export interface ReportTotals {
  kinds: number;
  source: number;
  imported: number;
  skipped: number;
}

export function reportTotals(report: ShokoImportReport): ReportTotals {
  const totals = { kinds: report.Kinds.length, source: 0, imported: 0, skipped: 0 };
  for (const kind of report.Kinds) {
    totals.source += kind.Source;
    totals.imported += kind.Imported;
    totals.skipped += skippedCount(kind);
  }
  return totals;
}

export const skippedCount = (kind: ShokoImportKind) => kind.Skipped.reduce((sum, skip) => sum + skip.Count, 0);

export interface RequestErrors {
  folder: string[];
  pathMap: string[];
  /** Everything not about a field: the 409 of a database that is not empty, an unreachable server… */
  general: string | null;
}

/** A refusal split for the form: the 400 problem's messages next to the field they name, the rest as one message. */
export function requestErrors(error: unknown): RequestErrors {
  const { fields, general } = formErrors(error);
  const result: RequestErrors = { folder: [], pathMap: [], general };
  const others: string[] = [];
  for (const [field, messages] of Object.entries(fields)) {
    if (field === 'folder') result.folder.push(...messages);
    // Schema failures name the row (`PathMap.0.From`); the service's refusals name the whole map.
    else if (field.startsWith('pathmap')) result.pathMap.push(...messages.map((m) => withRow(field, m)));
    else others.push(...messages);
  }
  if (others.length) result.general = [result.general, ...others].filter(Boolean).join(' ');
  return result;
}

function withRow(field: string, message: string): string {
  const row = /^pathmap\.(\d+)/.exec(field);
  return row ? `Row ${Number(row[1]) + 1}: ${message}` : message;
}

const DRAFT_KEY = 'shoko-ts.firstrun.shoko-import';

/** The folder and path map survive a reload and a failed import (this tab only). */
export function loadDraft(): ImportDraft {
  try {
    const saved = JSON.parse(sessionStorage.getItem(DRAFT_KEY) ?? 'null') as ImportDraft | null;
    if (saved && typeof saved.folder === 'string' && Array.isArray(saved.rows)) return saved;
  } catch {
    // an unreadable draft is as good as none
  }
  return { folder: '', rows: [] };
}

export function saveDraft(draft: ImportDraft) {
  sessionStorage.setItem(DRAFT_KEY, JSON.stringify(draft));
}
