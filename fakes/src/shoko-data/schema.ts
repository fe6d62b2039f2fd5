import type Database from 'better-sqlite3';
import { INDEXES_V122, INDEXES_V138, TABLES_V122, TABLES_V138, type ShokoIndex, type ShokoTableColumns } from './tables.js';

/** The two table shapes we write: Shoko 5.0 (schema versions 122–130) and Shoko 5.1–5.3 (131 on). */
export type ShokoSchemaShape = 'v5.0' | 'v5.3';

/** Versions 122–130 get the 5.0 tables; every other number (also an unsupported one) the 5.3.3 tables. */
export const schemaShapeOf = (schemaVersion: number): ShokoSchemaShape => (schemaVersion >= 122 && schemaVersion <= 130 ? 'v5.0' : 'v5.3');

export function shokoTables(shape: ShokoSchemaShape): Record<string, ShokoTableColumns> {
  return shape === 'v5.0' ? TABLES_V122 : TABLES_V138;
}

function shokoIndexes(shape: ShokoSchemaShape): ShokoIndex[] {
  return shape === 'v5.0' ? INDEXES_V122 : INDEXES_V138;
}

export interface ShokoColumn {
  name: string;
  /** The declared type, as Shoko wrote it (`int`, `text`, `timestamp`, `INTEGER`, ...). */
  type: string;
  key: boolean;
  nullable: boolean;
  /** SQL literal of the column's default, if any. */
  defaultValue: string | null;
}

const COLUMN_SPEC = /^([^?=]+?)(\?)?(?:\s*=\s*(.+))?$/;

export function parseColumn(name: string, spec: string): ShokoColumn {
  if (spec === 'key') return { name, type: 'INTEGER', key: true, nullable: false, defaultValue: null };
  const match = COLUMN_SPEC.exec(spec);
  if (!match) throw new Error(`Bad column spec for ${name}: ${spec}`);
  return { name, type: match[1].trim(), key: false, nullable: match[2] === '?', defaultValue: match[3] ?? null };
}

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

function columnDdl(column: ShokoColumn): string {
  if (column.key) return `${quote(column.name)} INTEGER PRIMARY KEY AUTOINCREMENT`;
  const parts = [quote(column.name), column.type];
  if (!column.nullable) parts.push('NOT NULL');
  if (column.defaultValue !== null) parts.push(`DEFAULT ${column.defaultValue}`);
  return parts.join(' ');
}

export function tableDdl(table: string, columns: ShokoTableColumns): string {
  const body = Object.entries(columns).map(([name, spec]) => columnDdl(parseColumn(name, spec)));
  return `CREATE TABLE ${quote(table)} (${body.join(', ')})`;
}

function indexDdl(index: ShokoIndex): string {
  const columns = index.columns.map(quote).join(', ');
  return `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX ${quote(index.name)} ON ${quote(index.table)} (${columns})`;
}

/**
 * Creates every table of the shape in a new, still empty database (nothing else may have written to it yet: Shoko
 * asks for UTF-16 text, stored in the machine's byte order, and SQLite fixes the encoding at the first write).
 */
export function createShokoTables(db: Database.Database, shape: ShokoSchemaShape): void {
  db.pragma('encoding = "UTF-16"');
  for (const [table, columns] of Object.entries(shokoTables(shape))) db.exec(tableDdl(table, columns));
}

/** Shoko's indexes; built once the rows are in, which is quicker than growing them row by row. */
export function createShokoIndexes(db: Database.Database, shape: ShokoSchemaShape): void {
  for (const index of shokoIndexes(shape)) db.exec(indexDdl(index));
}
