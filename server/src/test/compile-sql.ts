// Compiles SQL fragments to their text and parameters without a database, for unit tests of the filter compiler.
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type RawBuilder,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import type { DialectName } from '../db/database.js';
import type { FilterScope } from '../domains/filters/compiler/index.js';

const databases: Record<DialectName, Kysely<unknown>> = {
  sqlite: new Kysely<unknown>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  }),
  postgres: new Kysely<unknown>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  }),
};

/** `fragment` as the SQL text (whitespace runs made one space) and parameters `dialect` would be sent. */
export function compileSql(
  fragment: RawBuilder<unknown>,
  dialect: DialectName = 'sqlite',
): { text: string; parameters: readonly unknown[] } {
  const compiled = fragment.compile(databases[dialect]);
  return { text: compiled.sql.replace(/\s+/g, ' ').trim(), parameters: compiled.parameters };
}

/** A filter scope for the compiler's unit tests: series of user 1 on SQLite, on 2026-01-01, unless `over` says else. */
export function testScope(over: Partial<FilterScope> = {}): FilterScope {
  return { level: 'series', userId: 1, today: '2026-01-01', dialect: 'sqlite', nested: false, ...over };
}
