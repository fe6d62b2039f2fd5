import { sql, type Kysely } from 'kysely';
import type { DialectName } from './database.js';
import type { Database } from './schema.js';

/** The tables of +1/−1 rows that triggers append and readers sum (0046, 0047): their key columns and counted column. */
const APPENDED = {
  file_key_counts: { keys: 'is_ignored, is_linked, has_manual_link', count: 'files' },
  user_episode_counts: { keys: 'user_id, is_watched, is_voted', count: 'episodes' },
} as const;

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
    await sql`WITH gone AS (DELETE FROM ${sql.table(table)} RETURNING *)
      INSERT INTO ${into} SELECT ${keys}, ${sum} FROM gone GROUP BY ${keys} HAVING ${sum} <> 0`.execute(db);
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
