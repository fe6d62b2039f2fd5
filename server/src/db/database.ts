import fs from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, type Driver, type SqliteDialectConfig } from 'kysely';
import type { Database } from './schema.js';
import { readIntoCache } from './file-warm.js';
import { withStatementCache } from './statement-cache.js';
import { clientWithConnectTimeout } from './pg-connect.js';

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
   * Readies the database for the first requests after a start. PostgreSQL: opens up to `plan.connections` connections
   * of the pool, so the first requests that run queries side by side do not each wait for a new backend, and has each
   * read `plan.indexes` (those that fit in the server's shared buffers beside the tables) and `plan.tables` through
   * once. SQLite (its one connection open already): reads the
   * database file through once, so its pages come from the operating system's cache rather than the disk.
   */
  warmUp(plan: WarmPlan): Promise<void>;
  close(): Promise<void>;
}

export interface WarmPlan {
  connections: number;
  tables: readonly string[];
  /** Indexes to read through in their order: each by its name and its table and columns (a whole index, no condition). */
  indexes: ReadonlyArray<{ name: string; table: string; columns: readonly string[] }>;
}

/**
 * The tables the collection, group and series pages, their filters and the dashboard's cards read on every request:
 * the collection's series, groups and anime, and what is kept of them (together about 85 MB at 400,000 files).
 */
const WARM_TABLES = [
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
];

/**
 * What a started server reads before the first requests: the tables above, and the indexes that the file list's deep
 * pages walk (an offset of 90,000 rows reads a fifth of a 70 MB index at 400,000 files).
 */
export const WARM_PLAN: WarmPlan = {
  connections: 5,
  tables: WARM_TABLES,
  indexes: [
    {
      name: 'file_sort_keys_default',
      table: 'file_sort_keys',
      columns: ['is_ignored', 'no_location', 'folder_name', 'relative_path', 'file_id'],
    },
    {
      name: 'file_sort_keys_console',
      table: 'file_sort_keys',
      columns: ['is_ignored', 'no_location', 'folder_name', 'file_name', 'relative_path', 'file_id'],
    },
  ],
};

/** At most this much of a PostgreSQL database is read into the system's cache at start (readIntoSystemCache). */
const SYSTEM_CACHE_BYTES = 2 * 1024 ** 3;

/**
 * PostgreSQL: has the server read the schema's tables and indexes from its disk once, smallest first and at most
 * SYSTEM_CACHE_BYTES, so the first visits find in the system's cache what the shared buffers do not hold. After a quiet
 * spell the files had left it: 10-14 of 473 first visits at 400,000 files were over budget, 1-2 with the files cached.
 * pg_prewarm reads them without passing through the shared buffers; where it is available but not installed and the role
 * may create it, it is created for this and dropped again (a backup then holds no extension that a restore by a role
 * without that right would fail on). Without it the tables alone are read through.
 */
async function readIntoSystemCache(client: pg.PoolClient): Promise<void> {
  const installed = (await client.query(`SELECT 1 FROM pg_extension WHERE extname = 'pg_prewarm'`)).rowCount! > 0;
  const created =
    !installed &&
    (await client.query('CREATE EXTENSION pg_prewarm').then(
      () => true,
      () => false,
    ));
  const prewarm = installed || created;
  try {
    const { rows } = await client.query<{ oid: string; name: string; kind: string; size: string }>(
      `SELECT c.oid::text AS oid, quote_ident(c.relname) AS name, c.relkind::text AS kind, pg_relation_size(c.oid)::text AS size
       FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'i', 'm')
       ORDER BY pg_relation_size(c.oid), c.oid`,
    );
    const readable = rows.filter((row) => prewarm || row.kind !== 'i');
    for (const relation of leadingWithin(
      readable,
      readable.map((row) => Number(row.size)),
      SYSTEM_CACHE_BYTES,
    )) {
      if (prewarm) await client.query(`SELECT pg_prewarm(${Number(relation.oid)}::oid, 'read')`);
      else await readTable(client, relation.name);
    }
  } finally {
    if (created) await client.query('DROP EXTENSION IF EXISTS pg_prewarm');
  }
}

/** The first of `plan.indexes` that fit in three quarters of the shared buffers beside `plan.tables` (see warmUp). */
async function indexesThatFit(client: pg.PoolClient, plan: WarmPlan): Promise<WarmPlan['indexes'][number][]> {
  const { rows } = await client.query<{ buffers: string; tables: string; indexes: string[] }>(
    `SELECT pg_size_bytes(current_setting('shared_buffers')) AS buffers,
       (SELECT coalesce(sum(pg_relation_size(to_regclass(t))), 0) FROM unnest($1::text[]) t) AS tables,
       ARRAY(SELECT coalesce(pg_relation_size(to_regclass(i)), 0)
             FROM unnest($2::text[]) WITH ORDINALITY AS x(i, n) ORDER BY n)::text[] AS indexes`,
    [plan.tables, plan.indexes.map((index) => index.name)],
  );
  const room = Number(rows[0]!.buffers) * 0.75 - Number(rows[0]!.tables);
  return leadingWithin(plan.indexes, rows[0]!.indexes.map(Number), room);
}

/** Reads a table through, whole rows (an index-only count would leave the table's pages unread). */
const readTable = (client: pg.PoolClient, table: string) => client.query(`SELECT sum(pg_column_size(t.*)) FROM ${table} t`);

/** The first of `items` whose `sizes` add up to at most `room`. */
export function leadingWithin<T>(items: readonly T[], sizes: readonly number[], room: number): T[] {
  const taken: T[] = [];
  for (const [n, item] of items.entries()) {
    room -= sizes[n]!;
    if (room < 0) break;
    taken.push(item);
  }
  return taken;
}

/**
 * SQLite ends a transaction by itself when a statement in it fails for want of space (SQLITE_FULL, an I/O error);
 * Kysely's ROLLBACK after it then fails with "no transaction is active", and that error would replace the real one,
 * so the request or job could not tell a full disk. Rolling back only what is still open keeps the real error.
 */
class SqliteKeepingErrors extends SqliteDialect {
  constructor(
    private readonly connection: SQLite.Database,
    config: SqliteDialectConfig,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const { connection } = this;
    const rollback = driver.rollbackTransaction.bind(driver);
    driver.rollbackTransaction = async (open) => {
      if (connection.inTransaction) await rollback(open);
    };
    const rollbackToSavepoint = driver.rollbackToSavepoint?.bind(driver);
    if (rollbackToSavepoint)
      driver.rollbackToSavepoint = async (open, name, compile) => {
        if (connection.inTransaction) await rollbackToSavepoint(open, name, compile);
      };
    return driver;
  }
}

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
 * load 10 on the 2-core machine), which a request after a quiet spell would otherwise pay. `connectTimeoutMs`: how
 * long making one may take (default 15 s; see clientWithConnectTimeout).
 */
export function openDatabase(options: {
  home: string;
  databaseUrl: string | null;
  idleConnectionMs?: number;
  connectTimeoutMs?: number;
}): Db {
  if (options.databaseUrl) {
    const pg = loadPg();
    // No JIT compilation: every query here is short, and a misjudged cost (a correlated sub-query PostgreSQL expects to
    // run per row) made it spend about 2 s compiling Dashboard/Stats' 5 ms query at 100,000 files. Parallel workers
    // only for long queries: each worker is a new backend process started for the one query, which pays the first
    // touch of every page it reads (see warmUp); the console search at 400k files took 72-125 ms with two
    // workers, 17-20 without, while whole-collection scans still gain from them.
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      options: '-c jit=off -c parallel_setup_cost=2000',
      Client: clientWithConnectTimeout(pg, options.connectTimeoutMs ?? 15_000),
      ...(options.idleConnectionMs !== undefined ? { idleTimeoutMillis: options.idleConnectionMs } : {}),
    });
    // An idle connection can be closed by the server (restart, admin command); the pool replaces it on the next
    // query, so this must not become an uncaught exception that takes the whole process down.
    pool.on('error', (error) => process.stderr.write(`PostgreSQL connection lost: ${error.message}\n`));
    // The pool listens to its idle connections only: one checked out when the server ends it (a restart's 57P01
    // between two queries of a transaction, or during warmUp) emits 'error' with nobody listening, which would end the
    // process. Its query, if any, fails on its own, and the pool drops the broken connection when it comes back.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const url = new URL(options.databaseUrl);
    return {
      kysely,
      dialect: 'postgres',
      description: `PostgreSQL ${url.hostname}:${url.port || 5432}${url.pathname}`,
      url: options.databaseUrl,
      warmUp: async (plan) => {
        // Held together, so each is a connection of its own.
        const clients = await Promise.all(Array.from({ length: Math.min(plan.connections, 10) }, () => pool.connect()));
        const failed = new Set<pg.PoolClient>();
        const each = (read: (client: pg.PoolClient) => Promise<unknown>) =>
          Promise.all(clients.map((client) => read(client).catch(() => failed.add(client))));
        try {
          if (clients.length) await readIntoSystemCache(clients[0]!).catch(() => failed.add(clients[0]!));
          // A new backend process pays for the first touch of each shared-buffer page it reads: its first query over a
          // table took 2-3 times as long as the next (an 11 MB table: 45-65 ms, then 18), and a new backend's first
          // deep file page 40 ms for what an older one read in 7. So each connection reads the indexes (an index scan
          // forced through the whole index: no sort, no table scan allowed) and then the tables, whole rows (not an
          // index-only count). The tables come last, as the pages and the dashboard read them on every visit; an index
          // is read only if it fits in three quarters of the shared buffers beside the tables and the indexes before
          // it: PostgreSQL's default 128 MB do not hold the 150 MB of the two at 400,000 files beside the tables' 85,
          // and reading them anyway pushed out what other pages read (11 more of 473 first visits over budget).
          const fitting = plan.indexes.length ? await indexesThatFit(clients[0]!, plan) : [];
          for (const { table, columns } of fitting) {
            const list = columns.join(', ');
            await each(async (client) => {
              await client.query('BEGIN');
              try {
                await client.query('SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off; SET LOCAL enable_sort = off');
                await client.query(`SELECT count(*) FROM (SELECT ${list} FROM ${table} ORDER BY ${list}) s`);
              } finally {
                await client.query('ROLLBACK');
              }
            });
          }
          for (const table of plan.tables) await each((client) => readTable(client, table));
        } finally {
          // A connection whose reading failed is closed rather than handed to a request in an unknown state.
          for (const client of clients) client.release(failed.has(client));
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
  const kysely = new Kysely<Database>({ dialect: new SqliteKeepingErrors(sqlite, { database: withStatementCache(sqlite) }) });
  let closed = false;
  return {
    kysely,
    dialect: 'sqlite',
    description: `SQLite ${file}`,
    sqlite: { connection: sqlite, file },
    warmUp: async () => {
      // At most half of the memory the system has free: a cache larger than that would push out what is in use.
      await readIntoCache([file, `${file}-wal`], { limitBytes: Math.floor(os.freemem() / 2), stopped: () => closed });
    },
    close: () => {
      closed = true;
      return kysely.destroy();
    },
  };
}
