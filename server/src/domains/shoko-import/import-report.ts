import type { ShokoImportKind, ShokoImportReport } from '@shoko-ts/contract';

const EXAMPLES_PER_REASON = 5;

/** The tally of one kind of source rows: every row is either imported or skipped for a named reason. */
export class KindTally {
  private imported = 0;
  private readonly skips = new Map<string, { count: number; examples: string[] }>();

  constructor(
    readonly kind: string,
    private readonly source: number,
  ) {}

  took(count = 1): void {
    this.imported += count;
  }

  skipped(reason: string, example: string | number): void {
    const skip = this.skips.get(reason) ?? { count: 0, examples: [] };
    skip.count++;
    if (skip.examples.length < EXAMPLES_PER_REASON) skip.examples.push(String(example));
    this.skips.set(reason, skip);
  }

  get importedCount(): number {
    return this.imported;
  }

  toJSON(): ShokoImportKind {
    return {
      Kind: this.kind,
      Source: this.source,
      Imported: this.imported,
      Skipped: [...this.skips].map(([Reason, s]) => ({ Reason, Count: s.count, Examples: s.examples })),
    };
  }
}

/** What an import (or its dry run) did with each kind of Shoko data, and what the user should know besides. */
export class ImportReportBuilder {
  private readonly kinds: KindTally[] = [];
  private readonly notes: string[] = [];
  /** Problems that stop a real import (a dry run lists them as notes so the user can fix them first). */
  readonly blockers: string[] = [];
  private readonly startedAt = new Date().toISOString();

  kind(name: string, source: number): KindTally {
    const tally = new KindTally(name, source);
    this.kinds.push(tally);
    return tally;
  }

  note(text: string): void {
    this.notes.push(text);
  }

  block(text: string): void {
    this.blockers.push(text);
  }

  build(folder: string, schemaVersion: number, dryRun: boolean, savedAs: string | null): ShokoImportReport {
    return {
      Folder: folder,
      SchemaVersion: schemaVersion,
      DryRun: dryRun,
      Kinds: this.kinds.map((k) => k.toJSON()),
      Blockers: [...this.blockers],
      Notes: [...this.notes],
      StartedAt: this.startedAt,
      FinishedAt: new Date().toISOString(),
      SavedAs: savedAs,
    };
  }
}

/** How the rows of one kind are kept: each row is named by its key, and a key is kept once. */
export interface KeepRule<Row, Key extends string | number, Out> {
  key: (row: Row) => Key;
  /** Why the row cannot be kept (it points at something not imported, …), or undefined; asked before the duplicate check. */
  refuse?: (row: Row, key: Key) => string | undefined;
  /** The reason a row whose key was kept before is skipped for. */
  duplicate?: string;
  /** The keys kept so far, when the caller (or a later kind) reads them too. */
  kept?: Set<Key>;
  /** What names a skipped row in the report, when not its key. */
  example?: (row: Row, key: Key) => string | number;
  map: (row: Row, key: Key) => Out;
}

/** The rows of one kind that are kept, mapped; every other row is counted in the tally as skipped, with its reason. */
export function keepRows<Row, Key extends string | number, Out>(
  tally: KindTally,
  rows: readonly Row[],
  rule: KeepRule<Row, Key, Out>,
): Out[] {
  const kept = rule.kept ?? new Set<Key>();
  const out: Out[] = [];
  for (const row of rows) {
    const key = rule.key(row);
    const refusal = rule.refuse?.(row, key) ?? (kept.has(key) ? (rule.duplicate ?? 'duplicate') : undefined);
    if (refusal !== undefined) {
      tally.skipped(refusal, rule.example ? rule.example(row, key) : key);
      continue;
    }
    kept.add(key);
    tally.took();
    out.push(rule.map(row, key));
  }
  return out;
}
