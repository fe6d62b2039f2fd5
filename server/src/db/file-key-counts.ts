import { sql, type Kysely } from 'kysely';
import type { DialectName } from './database.js';
import type { Database } from './schema.js';

/** A condition of the File list's keyed lists: a key flag and its value. */
export type FileKeyCondition = ['is_ignored' | 'is_linked' | 'has_manual_link', 0 | 1];

/** Past this many rows the reader folds the appended +1/−1 rows into one row per flag combination. */
const FOLD_AT = 64;

/**
 * How many files match every condition, from the maintained counts of migration 0046: at most eight combinations of
 * the three flags, summed here, instead of a count over every file.
 */
export async function keyedFileCount(db: Kysely<Database>, dialect: DialectName, conditions: FileKeyCondition[]): Promise<number> {
  const combos = await db
    .selectFrom('file_key_counts')
    .select(['is_ignored', 'is_linked', 'has_manual_link'])
    .select((eb) => [eb.fn.sum<number | string>('files').as('files'), eb.fn.countAll<number | string>().as('rows')])
    .groupBy(['is_ignored', 'is_linked', 'has_manual_link'])
    .execute();
  let total = 0;
  let rows = 0;
  for (const combo of combos) {
    rows += Number(combo.rows);
    if (conditions.every(([flag, value]) => Number(combo[flag]) === value)) total += Number(combo.files);
  }
  if (rows > FOLD_AT) await foldFileKeyCounts(db, dialect);
  return total;
}

/**
 * One row per combination in place of the appended ones, same sums. On PostgreSQL the rows a concurrent import appends
 * meanwhile are not in this statement's snapshot: they are neither deleted nor summed, so nothing is lost or counted twice.
 */
export async function foldFileKeyCounts(db: Kysely<Database>, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') {
    await sql`WITH gone AS (DELETE FROM file_key_counts RETURNING *)
      INSERT INTO file_key_counts (is_ignored, is_linked, has_manual_link, files)
      SELECT is_ignored, is_linked, has_manual_link, SUM(files) FROM gone
      GROUP BY is_ignored, is_linked, has_manual_link HAVING SUM(files) <> 0`.execute(db);
    return;
  }
  // SQLite has one writer: the read, the delete and the insert see the same rows.
  await db.transaction().execute(async (trx) => {
    const sums = await trx
      .selectFrom('file_key_counts')
      .select(['is_ignored', 'is_linked', 'has_manual_link'])
      .select((eb) => eb.fn.sum<number>('files').as('files'))
      .groupBy(['is_ignored', 'is_linked', 'has_manual_link'])
      .execute();
    await trx.deleteFrom('file_key_counts').execute();
    const kept = sums.filter((row) => Number(row.files) !== 0).map((row) => ({ ...row, files: Number(row.files) }));
    if (kept.length) await trx.insertInto('file_key_counts').values(kept).execute();
  });
}
