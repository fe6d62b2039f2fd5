import { sql, type Kysely } from 'kysely';
import type { DialectName } from './database.js';
import type { Database } from './schema.js';

/** The tables of +1/−1 rows that triggers append and readers sum (0046, 0047): their key columns and counted column. */
const APPENDED = {
  file_key_counts: { keys: 'is_ignored, is_linked, has_manual_link', count: 'files' },
  user_episode_counts: { keys: 'user_id, is_watched, is_voted', count: 'episodes' },
} as const;

/**
 * A fold of a bulk change (an import appends one row per file) leaves that many dead rows behind on PostgreSQL, and
 * every reader's sum scans them until autovacuum comes, which it never does when the server's statistics were lost (an
 * unclean shutdown): 86 MB for 2 live rows after a 400,000-file import, ~100 ms on every keyed file list.
 */
const VACUUM_AFTER_FOLDING = 10_000;

/**
 * Rewrites a folded table beside the caller's work. A plain VACUUM would not do: the folded rows are written after
 * the dead ones, so the emptied pages are not at the table's end and are kept. The rewrite holds the table's lock for
 * the few live rows; it gives up rather than queue readers behind it for long, and a failure leaves it to autovacuum.
 */
async function vacuumFolded(db: Kysely<Database>, table: keyof typeof APPENDED): Promise<void> {
  await db
    .connection()
    .execute(async (connection) => {
      await sql`SET lock_timeout = '2s'`.execute(connection);
      try {
        await sql`VACUUM FULL ${sql.table(table)}`.execute(connection);
      } finally {
        await sql`RESET lock_timeout`.execute(connection);
      }
    })
    .catch(() => undefined);
}

/**
 * One row per key in place of the appended ones, same sums. On PostgreSQL the rows a concurrent change appends
 * meanwhile are not in this statement's snapshot: they are neither deleted nor summed, so nothing is lost or counted
 * twice. SQLite has one writer: in the transaction the rows up to the highest rowid are the ones summed and deleted.
 */
export async function foldAppendedCounts(db: Kysely<Database>, dialect: DialectName, table: keyof typeof APPENDED): Promise<void> {
  const keys = sql.raw(APPENDED[table].keys);
  const into = sql.raw(`${table} (${APPENDED[table].keys}, ${APPENDED[table].count})`);
  const sum = sql.raw(`SUM(${APPENDED[table].count})`);
  if (dialect === 'postgres') {
    const { rows } = await sql<{ folded: number }>`WITH gone AS (DELETE FROM ${sql.table(table)} RETURNING *),
      kept AS (INSERT INTO ${into} SELECT ${keys}, ${sum} FROM gone GROUP BY ${keys} HAVING ${sum} <> 0)
      SELECT COUNT(*)::int AS folded FROM gone`.execute(db);
    if (rows[0]!.folded >= VACUUM_AFTER_FOLDING && !db.isTransaction) void vacuumFolded(db, table);
    return;
  }
  await db.transaction().execute(async (trx) => {
    const { last } = (await sql<{ last: number | null }>`SELECT MAX(rowid) AS last FROM ${sql.table(table)}`.execute(trx)).rows[0]!;
    if (last === null) return;
    await sql`INSERT INTO ${into} SELECT ${keys}, ${sum} FROM ${sql.table(table)} WHERE rowid <= ${last}
      GROUP BY ${keys} HAVING ${sum} <> 0`.execute(trx);
    await sql`DELETE FROM ${sql.table(table)} WHERE rowid <= ${last}`.execute(trx);
  });
}
