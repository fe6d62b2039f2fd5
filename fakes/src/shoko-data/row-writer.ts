import type Database from 'better-sqlite3';
import { shokoTables, type ShokoSchemaShape } from './schema.js';
import { TABLES_V122, TABLES_V138 } from './tables.js';

export type RowValue = string | number | bigint | Buffer | Uint8Array | null;
export type Row = Record<string, RowValue>;

/**
 * Inserts rows through one prepared statement per table (positional parameters: quicker to bind than named ones). A
 * row may carry columns of the other schema shape (the writers describe the union of both); they are left out here,
 * so only columns no shape has are an error, and so is a row without a column the table's first row had.
 */
export class RowWriter {
  private readonly statements = new Map<string, { statement: Database.Statement; keys: string[] }>();
  private readonly tables: Record<string, Record<string, string>>;

  constructor(
    private readonly db: Database.Database,
    readonly shape: ShokoSchemaShape,
  ) {
    this.tables = shokoTables(shape);
  }

  has(table: string): boolean {
    return table in this.tables;
  }

  insert(table: string, row: Row): void {
    let prepared = this.statements.get(table);
    if (!prepared) {
      prepared = this.prepare(table, Object.keys(row));
      this.statements.set(table, prepared);
    }
    const values: RowValue[] = [];
    for (const key of prepared.keys) {
      const value = row[key] as RowValue | undefined;
      if (value === undefined) throw new Error(`A ${table} row has no ${key}`);
      values.push(value);
    }
    prepared.statement.run(values);
  }

  private prepare(table: string, rowKeys: string[]): { statement: Database.Statement; keys: string[] } {
    const columns = this.tables[table];
    if (!columns) throw new Error(`Table ${table} is not part of the ${this.shape} schema`);
    const known = new Set([...Object.keys(TABLES_V138[table] ?? {}), ...Object.keys(TABLES_V122[table] ?? {})]);
    const unknown = rowKeys.filter((key) => !known.has(key));
    if (unknown.length) throw new Error(`${table} has no column ${unknown.join(', ')} in any schema shape`);
    const keys = rowKeys.filter((key) => key in columns);
    const sql = `INSERT INTO "${table}" (${keys.map((key) => `"${key}"`).join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`;
    return { statement: this.db.prepare(sql), keys };
  }
}

export const bit = (value: boolean): number => (value ? 1 : 0);
