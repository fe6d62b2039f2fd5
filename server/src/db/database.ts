import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { Database } from './schema.js';
import { withStatementCache } from './statement-cache.js';

export type DialectName = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: DialectName;
  /** Human-readable location for logs, without credentials. */
  description: string;
  /** SQLite only: the open connection (its online backup API) and the database file. */
  sqlite?: { connection: SQLite.Database; file: string };
  /** PostgreSQL only: the connection URL (pg_dump and pg_restore connect with it). */
  url?: string;
  /**
   * PostgreSQL only: opens up to `count` connections of the pool now, so the first requests that run queries side by
   * side do not each wait for a new backend, and has each read `warmTables` through once. SQLite has its one
   * connection already.
   */
  openConnections(count: number, warmTables?: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * The tables the collection, group and series pages, their filters and the dashboard's cards read on every request:
 * the collection's series, groups and anime, and what is kept of them (together about 85 MB at 400,000 files).
 */
export const WARM_TABLES = [
  'series',
  'groups',
  'anidb_anime',
  'anidb_anime_titles',
  'anidb_anime_tags',
  'series_aggregates',
  'series_aggregate_values',
  'series_user_aggregates',
  'series_filter_figures',
  'series_type_counts',
  'series_user_type_counts',
  'series_next_up',
  'series_recent_imports',
  'series_release_figures',
  'series_file_folders',
] as const;

/** Where the SQLite database of a data directory lives. */
export function sqliteFile(home: string): string {
  return path.join(home, 'SQLite', 'shoko.db');
}

const requirePackage = createRequire(import.meta.url);

/** pg, loaded when a PostgreSQL database is opened: a server on SQLite does not spend its start-up loading it. */
function loadPg(): typeof pg {
  const loaded = requirePackage('pg') as typeof pg;
  // File sizes are BIGINT on PostgreSQL; they stay far below 2^53, so read them as plain numbers like SQLite does.
  loaded.types.setTypeParser(loaded.types.builtins.INT8, (value) => Number(value));
  return loaded;
}

/**
 * `idleConnectionMs`: how long an unused PostgreSQL connection stays open (pg's default, 10 s, when absent). A new
 * connection costs a backend process and its catalogue caches (about 50–140 ms for its connect and first query at
 * load 10 on the 2-core machine), which a request after a quiet spell would otherwise pay.
 */
export function openDatabase(options: { home: string; databaseUrl: string | null; idleConnectionMs?: number }): Db {
  if (options.databaseUrl) {
    const pg = loadPg();
    // No JIT compilation: every query here is short, and a misjudged cost (a correlated sub-query PostgreSQL expects to
    // run per row) made it spend about 2 s compiling Dashboard/Stats' 5 ms query at 100,000 files. Parallel workers
    // only for long queries: each worker is a new backend process started for the one query, which pays the first
    // touch of every page it reads (see openConnections); the console search at 400k files took 72-125 ms with two
    // workers, 17-20 without, while whole-collection scans still gain from them.
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      options: '-c jit=off -c parallel_setup_cost=2000',
      ...(options.idleConnectionMs !== undefined ? { idleTimeoutMillis: options.idleConnectionMs } : {}),
    });
    // An idle connection can be closed by the server (restart, admin command); the pool replaces it on the next
    // query, so this must not become an uncaught exception that takes the whole process down.
    pool.on('error', (error) => process.stderr.write(`PostgreSQL connection lost: ${error.message}\n`));
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const url = new URL(options.databaseUrl);
    return {
      kysely,
      dialect: 'postgres',
      description: `PostgreSQL ${url.hostname}:${url.port || 5432}${url.pathname}`,
      url: options.databaseUrl,
      openConnections: async (count, warmTables = []) => {
        // Held together, so each is a connection of its own.
        const clients = await Promise.all(Array.from({ length: Math.min(count, 10) }, () => pool.connect()));
        try {
          // A new backend process pays for the first touch of each shared-buffer page it reads: its first query over a
          // table took 2-3 times as long as the next (an 11 MB table: 45-65 ms, then 18). Reading the tables every
          // page reads once, whole rows (not an index-only count), moves that cost from the first requests to here.
          for (const table of warmTables)
            await Promise.all(clients.map((client) => client.query(`SELECT sum(pg_column_size(t.*)) FROM ${table} t`)));
        } finally {
          for (const client of clients) client.release();
        }
      },
      close: () => kysely.destroy(),
    };
  }
  const file = sqliteFile(options.home);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return {
    kysely,
    dialect: 'sqlite',
    description: `SQLite ${file}`,
    sqlite: { connection: sqlite, file },
    openConnections: async () => undefined,
    close: () => kysely.destroy(),
  };
}
