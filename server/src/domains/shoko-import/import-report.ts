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
