import type { Insertable } from 'kysely';
import type { Database } from '../../db/schema.js';

export type TableName = keyof Database;
export type RowOf<T extends TableName> = Insertable<Database[T]>;

/** A file of the Shoko folder to copy into our data folder, keeping its modification time. */
export interface FileCopy {
  from: string;
  to: string;
}

/** A cached picture of the Shoko folder, stored into our image store as `<Source>/<Type>/<id>`. */
export interface ImageCopy {
  from: string;
  source: 'AniDB';
  type: 'Poster' | 'Character' | 'Staff';
  id: number;
}

/**
 * Everything an import writes, mapped and checked before the first write: rows per table in the order the foreign keys
 * need, files to copy, and the settings to merge. A dry run builds it and throws it away.
 */
export class ImportPlan {
  private readonly tables = new Map<TableName, unknown[]>();
  readonly copies: FileCopy[] = [];
  readonly images: ImageCopy[] = [];
  /** Settings sections to merge over ours, as Shoko's settings JSON shapes them (the same names as the contract). */
  settings: Record<string, unknown> = {};

  add<T extends TableName>(table: T, rows: Array<RowOf<T>>): void {
    const list = this.tables.get(table) ?? [];
    for (const row of rows) list.push(row);
    this.tables.set(table, list);
  }

  rows<T extends TableName>(table: T): Array<RowOf<T>> {
    return (this.tables.get(table) ?? []) as Array<RowOf<T>>;
  }

  /** Tables in the order they were first added (parents before children). */
  entries(): Array<[TableName, unknown[]]> {
    return [...this.tables];
  }

  get rowCount(): number {
    let n = 0;
    for (const rows of this.tables.values()) n += rows.length;
    return n;
  }
}
