import type SQLite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/**
 * Kysely's SQLite driver prepares every query it runs, and preparing costs about as much as running a small indexed
 * read. This hands Kysely the connection with its statements kept by SQL text (least recently used dropped past
 * `capacity`), so a query the server runs again is only bound and stepped. SQLite re-prepares a kept statement
 * by itself when the schema changes under it.
 */
export function withStatementCache(connection: SQLite.Database, capacity = 1000): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    prepare(sql: string) {
      const kept = statements.get(sql);
      // A statement still being iterated (a streamed query) cannot run a second time; that caller gets its own.
      if (kept && !kept.busy) {
        statements.delete(sql);
        statements.set(sql, kept);
        return kept;
      }
      const statement = connection.prepare(sql);
      if (!kept) {
        statements.set(sql, statement);
        if (statements.size > capacity) statements.delete(statements.keys().next().value as string);
      }
      return statement;
    },
    close() {
      statements.clear();
      connection.close();
    },
  };
}
