import type { CreateTableBuilder } from 'kysely';
import type { DialectName } from '../database.js';

export interface MigrationContext {
  dialect: DialectName;
}

/** An auto-increment integer primary key named `id`, spelled the way each dialect wants it. */
export function addIdColumn<T extends string>(table: CreateTableBuilder<T, never>, ctx: MigrationContext) {
  return ctx.dialect === 'postgres'
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}
