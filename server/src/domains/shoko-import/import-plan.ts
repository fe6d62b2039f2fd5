import type { Insertable } from 'kysely';
import type { Database } from '../../db/schema.js';

export type TableName = keyof Database;
export type RowOf<T extends TableName> = Insertable<Database[T]>;

/** A file of the Shoko folder to copy into our data folder (`to` relative to it), keeping its modification time. */
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
/**
 * The order tables are written in: these first (foreign keys, and a file's links before the file, so that the links'
 * triggers find no file to update yet and the file's own trigger computes its sort keys once, with its links in place:
 * the other way round cost 5-8 s at 100,000 files), then the rest in the order they were first added, the files and
 * what hangs on them last (their media info is decoded on worker threads meanwhile).
 */
const WRITE_FIRST: TableName[] = [
  'anidb_tags',
  'anidb_anime',
  'users',
  'import_folders',
  'anidb_release_groups',
  'anidb_files',
  'file_episode_links',
];
const WRITE_LAST: TableName[] = ['files', 'file_avdumps', 'file_locations', 'user_file_states'];

export class ImportPlan {
  private readonly tables = new Map<TableName, unknown[]>(WRITE_FIRST.map((table) => [table, []]));
  readonly copies: FileCopy[] = [];
  readonly images: ImageCopy[] = [];
  /** The files' media info, decoded on worker threads while the other rows are written (files.media_info). */
  fileMediaInfo: Promise<Array<{ id: number; json: string }>> = Promise.resolve([]);
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

  /** Tables in the order they are written (parents before children). */
  entries(): Array<[TableName, unknown[]]> {
    const last = new Set(WRITE_LAST);
    return [
      ...[...this.tables].filter(([table]) => !last.has(table)),
      ...WRITE_LAST.map((table): [TableName, unknown[]] => [table, this.tables.get(table) ?? []]),
    ];
  }

  /** Lets go of the rows, copies and media info once they are written (a 100,000-file import: most of a gigabyte). */
  releaseRows(): void {
    this.tables.clear();
    this.copies.length = 0;
    this.images.length = 0;
    this.fileMediaInfo = Promise.resolve([]);
  }

  get rowCount(): number {
    let n = 0;
    for (const rows of this.tables.values()) n += rows.length;
    return n;
  }
}
