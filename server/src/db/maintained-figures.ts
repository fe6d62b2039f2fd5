import { sql, type Kysely } from 'kysely';
import { refreshSeriesAggregates } from './aggregates.js';
import { collectionStats } from './collection-stats.js';
import { refreshContinueWatching } from './continue-watching.js';
import { foldFileKeyCounts } from './file-key-counts.js';
import { refreshNameFolds } from './name-folds.js';
import { refreshOrderKeys } from './name-order.js';
import type { DialectName } from './database.js';
import type { Database } from './schema.js';
import { foldUserEpisodeCounts } from './user-episode-counts.js';

/**
 * Brings every maintained figure up to date after a bulk change (a generated collection, a Shoko import): the series
 * and group figures, name order keys and folds, the folded episode and file counts, and the Dashboard/Stats row, each
 * of which its first reader would otherwise bring up to date (a first Dashboard/Stats of 160–190 ms after 100,000
 * files instead of a few ms). `step` hears what is being done.
 */
export async function refreshMaintainedFigures(
  db: Kysely<Database>,
  dialect: DialectName,
  step: (message: string) => void = () => undefined,
): Promise<void> {
  step('Computing series and group figures');
  await refreshSeriesAggregates(db, dialect);
  await refreshContinueWatching(db, dialect);
  step('Preparing name order and search');
  await refreshOrderKeys(db);
  await refreshNameFolds(db);
  step('Counting episodes and files');
  await foldUserEpisodeCounts(db, dialect);
  await foldFileKeyCounts(db, dialect);
  await collectionStats(db, dialect);
  if (dialect === 'postgres') await flushGinPendingLists(db);
}

/**
 * PostgreSQL: moves the entries waiting in each GIN index's pending list (what was written since the last vacuum)
 * into the index proper. The planner costs an index scan as reading every pending page, so after a bulk change it
 * read every row instead of the trigram indexes until autovacuum came by a minute later: the name folds and order
 * keys of a 100,000-file Shoko import rewrite every title and group, and the console search's statement then took
 * 25-32 ms instead of 8. Only indexes this role may clean (their owner's) are flushed.
 */
async function flushGinPendingLists(db: Kysely<Database>): Promise<void> {
  await sql`SELECT gin_clean_pending_list(c.oid)
    FROM pg_class c JOIN pg_am a ON a.oid = c.relam JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind = 'i' AND a.amname = 'gin' AND n.nspname = current_schema() AND pg_has_role(c.relowner, 'USAGE')`.execute(db);
}
