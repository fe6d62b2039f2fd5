import type { Kysely } from 'kysely';
import { foldAppendedCounts } from './appended-counts.js';
import { upkeepUnlessDbFault } from './db-faults.js';
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
  if (rows > FOLD_AT) await upkeepUnlessDbFault(db, () => foldFileKeyCounts(db, dialect), undefined);
  return total;
}

/** One row per flag combination in place of the appended +1/−1 rows, same sums. */
export const foldFileKeyCounts = (db: Kysely<Database>, dialect: DialectName) => foldAppendedCounts(db, dialect, 'file_key_counts');
