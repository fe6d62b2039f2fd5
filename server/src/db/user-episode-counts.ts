import type { Kysely } from 'kysely';
import { foldAppendedCounts } from './appended-counts.js';
import { upkeepUnlessDbFault } from './db-faults.js';
import type { DialectName } from './database.js';
import type { Database } from './schema.js';

/** Past this many rows of one user the reader folds the appended +1/−1 rows into one row per combination. */
const FOLD_AT = 64;

/** A watched or voted condition: 1 must be, 0 must not be, null either way. */
export interface EpisodeStateWanted {
  watched: 0 | 1 | null;
  voted: 0 | 1 | null;
}

/**
 * How many listed episodes (AniDB data, a local file, not hidden) of a user are in the wanted watched and voted states,
 * from migration 0047's maintained rows. Only watched or voted states are counted there, so one condition must be 1.
 */
export async function listedEpisodeCount(
  db: Kysely<Database>,
  dialect: DialectName,
  userId: number,
  wanted: EpisodeStateWanted,
): Promise<number> {
  if (wanted.watched !== 1 && wanted.voted !== 1) throw new Error('listedEpisodeCount needs a watched or voted condition');
  const combos = await db
    .selectFrom('user_episode_counts')
    .select(['is_watched', 'is_voted'])
    .select((eb) => [eb.fn.sum<number | string>('episodes').as('episodes'), eb.fn.countAll<number | string>().as('rows')])
    .where('user_id', '=', userId)
    .groupBy(['is_watched', 'is_voted'])
    .execute();
  let total = 0;
  let rows = 0;
  for (const combo of combos) {
    rows += Number(combo.rows);
    const matches = (value: 0 | 1 | null, flag: number) => value === null || Number(flag) === value;
    if (matches(wanted.watched, combo.is_watched) && matches(wanted.voted, combo.is_voted)) total += Number(combo.episodes);
  }
  if (rows > FOLD_AT) await upkeepUnlessDbFault(db, () => foldUserEpisodeCounts(db, dialect), undefined);
  return total;
}

/** One row per user and combination in place of the appended +1/−1 rows, same sums. */
export const foldUserEpisodeCounts = (db: Kysely<Database>, dialect: DialectName) => foldAppendedCounts(db, dialect, 'user_episode_counts');
