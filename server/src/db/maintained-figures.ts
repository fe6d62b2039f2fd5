import type { Kysely } from 'kysely';
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
}
