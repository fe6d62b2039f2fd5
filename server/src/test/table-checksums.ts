import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

export interface TableSummary {
  rows: number;
  checksum: string;
}

type Row = Record<string, unknown>;

/** A row as text that does not depend on column order or driver types (Buffer, Date). */
function rowText(row: Row): string {
  const sorted = Object.fromEntries(
    Object.keys(row)
      .sort()
      .map((k) => [k, row[k]]),
  );
  return JSON.stringify(sorted, (_key, value: unknown) => {
    if (value && typeof value === 'object' && 'type' in value && (value as { type: unknown }).type === 'Buffer') {
      return `base64:${Buffer.from((value as unknown as { data: number[] }).data).toString('base64')}`;
    }
    return value;
  });
}

export async function tableRows(db: Db, table: string): Promise<Row[]> {
  return (await sql<Row>`select * from ${sql.table(table)}`.execute(db.kysely)).rows;
}

export function summarize(rows: Row[]): TableSummary {
  const hash = createHash('sha256');
  for (const text of rows.map(rowText).sort()) hash.update(text).update('\n');
  return { rows: rows.length, checksum: hash.digest('hex') };
}

/** Row count and checksum of every table in the database, Kysely's migration bookkeeping included. */
export async function tableChecksums(db: Db): Promise<Record<string, TableSummary>> {
  const tables = await db.kysely.introspection.getTables({ withInternalKyselyTables: true });
  const result: Record<string, TableSummary> = {};
  for (const table of tables
    .filter((t) => !t.isView && (!t.schema || t.schema === 'public'))
    .sort((a, b) => a.name.localeCompare(b.name))) {
    result[table.name] = summarize(await tableRows(db, table.name));
  }
  return result;
}
