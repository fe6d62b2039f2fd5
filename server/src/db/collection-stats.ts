import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DialectName } from './database.js';
import type { CollectionStatsTable, Database } from './schema.js';
import { upkeepUnlessDbFault } from './db-faults.js';

/**
 * The Dashboard/Stats figures over files, links and locations, each one query over the whole collection. `allowed` is
 * the condition on the series row `s` that a viewer may see (tag restrictions). The maintained row (migration 0031, kept
 * up to date by what changed since 0041) holds them for a viewer without restrictions.
 */
export function collectionFileFigures(allowed: RawBuilder<unknown>) {
  return {
    /** Files holding the content of an episode of a series the viewer may see: how many, and their total size. */
    files: sql<{ count: unknown; size: unknown }>`SELECT COUNT(*) AS count, COALESCE(SUM(f.size), 0) AS size FROM files f
      WHERE EXISTS (SELECT 1 FROM file_episode_links l JOIN series s ON s.anime_id = l.anime_id WHERE l.ed2k = f.ed2k AND l.size = f.size AND ${allowed})`,
    /** Episodes (of such series) held by more than one file that is not a variation. */
    multiples: sql<{ count: unknown }>`SELECT COUNT(*) AS count FROM (SELECT l.episode_id FROM file_episode_links l
      JOIN files f ON f.ed2k = l.ed2k AND f.size = l.size JOIN series s ON s.anime_id = l.anime_id
      WHERE f.is_variation = 0 AND ${allowed} GROUP BY l.episode_id HAVING COUNT(DISTINCT f.id) > 1) t`,
  };
}

/**
 * What tag restrictions take away from the maintained row's figures, read from the hidden series' links only (the
 * series row `s` for which `allowed` is false): the files linked to hidden series and to no visible one (how many, and
 * their size), and the episodes of hidden series' links held by several non-variation files of which the visible
 * series' links hold at most one. The restricted figures are the row's minus these; a viewer who hides little pays
 * little, where computing them from every link cost about 300 ms at 100,000 files.
 */
export function hiddenFileFigures(allowed: RawBuilder<unknown>) {
  const hiddenLinks = sql`SELECT l.ed2k, l.size, l.episode_id FROM series s JOIN file_episode_links l ON l.anime_id = s.anime_id WHERE NOT (${allowed})`;
  return {
    files: sql<{ count: unknown; size: unknown }>`SELECT COUNT(*) AS count, COALESCE(SUM(f.size), 0) AS size FROM files f
      WHERE f.id IN (SELECT f2.id FROM (${hiddenLinks}) h JOIN files f2 ON f2.ed2k = h.ed2k AND f2.size = h.size)
        AND NOT EXISTS (SELECT 1 FROM file_episode_links l JOIN series s ON s.anime_id = l.anime_id WHERE l.ed2k = f.ed2k AND l.size = f.size AND ${allowed})`,
    multiples: sql<{ count: unknown }>`SELECT COUNT(*) AS count FROM (SELECT l.episode_id FROM file_episode_links l
      JOIN files f ON f.ed2k = l.ed2k AND f.size = l.size JOIN series s ON s.anime_id = l.anime_id
      WHERE f.is_variation = 0 AND l.episode_id IN (SELECT h.episode_id FROM (${hiddenLinks}) h)
      GROUP BY l.episode_id HAVING COUNT(DISTINCT f.id) > 1 AND COUNT(DISTINCT CASE WHEN ${allowed} THEN f.id END) <= 1) t`,
  };
}

/** The figures every viewer shares: hashed, not ignored files without a link, files in several places, locations. */
export const sharedFileFigures = {
  unrecognized: sql<{ count: unknown }>`SELECT COUNT(*) AS count FROM files f WHERE f.ed2k <> '' AND f.is_ignored = 0
    AND NOT EXISTS (SELECT 1 FROM file_episode_links l WHERE l.ed2k = f.ed2k AND l.size = f.size)`,
  duplicateLocations: sql<{
    count: unknown;
  }>`SELECT COUNT(*) AS count FROM (SELECT file_id FROM file_locations GROUP BY file_id HAVING COUNT(*) > 1) t`,
  locations: sql<{ count: unknown }>`SELECT COUNT(*) AS count FROM file_locations`,
};

/** Recomputes the row (the figures of a viewer without tag restrictions) from the base tables: migration 0031's fill. */
export function recomputeCollectionStats(): Array<RawBuilder<unknown>> {
  const everyone = collectionFileFigures(sql.raw('1 = 1'));
  return [
    sql`DELETE FROM collection_stats`,
    sql`INSERT INTO collection_stats (id, file_count, file_size, multiple_file_episodes, unrecognized_files, duplicate_location_files, location_count)
      SELECT 1, fc.count, fc.size, (${everyone.multiples}), (${sharedFileFigures.unrecognized}), (${sharedFileFigures.duplicateLocations}),
        (${sharedFileFigures.locations})
      FROM (${everyone.files}) fc`,
  ];
}

/**
 * The rows of the three tables the row is counted from (migration 0041), for the files, episodes or located files
 * that `scope` admits: a file outside the collection (no link of its content to an anime with a series; unrecognized
 * when it is hashed, not ignored and its content has no link at all), an episode held by several non-variation files
 * through links to anime with a series (a file linked to two series counts once), a file in several places.
 */
const stateRows = {
  outside: (scope: RawBuilder<unknown>) => sql`INSERT INTO collection_stats_outside_files (file_id, size, unrecognized)
    SELECT f.id, f.size, CASE WHEN f.ed2k <> '' AND f.is_ignored = 0
      AND NOT EXISTS (SELECT 1 FROM file_episode_links l WHERE l.ed2k = f.ed2k AND l.size = f.size) THEN 1 ELSE 0 END
    FROM files f WHERE ${scope}
      AND NOT EXISTS (SELECT 1 FROM file_episode_links l JOIN series s ON s.anime_id = l.anime_id WHERE l.ed2k = f.ed2k AND l.size = f.size)`,
  multiple: (scope: RawBuilder<unknown>) => sql`INSERT INTO collection_stats_multiple_episodes (episode_id)
    SELECT l.episode_id FROM file_episode_links l JOIN files f ON f.ed2k = l.ed2k AND f.size = l.size
      JOIN series s ON s.anime_id = l.anime_id
    WHERE ${scope} AND f.is_variation = 0 GROUP BY l.episode_id HAVING COUNT(DISTINCT f.id) > 1`,
  located: (scope: RawBuilder<unknown>) => sql`INSERT INTO collection_stats_located_files (file_id)
    SELECT file_id FROM file_locations WHERE ${scope} GROUP BY file_id HAVING COUNT(*) > 1`,
};

/** Fills the three tables from the whole collection and the row from them (migration 0041). */
export function fillCollectionStats(): Array<RawBuilder<unknown>> {
  const all = sql.raw('1 = 1');
  return [
    stateRows.outside(all),
    stateRows.multiple(all),
    stateRows.located(all),
    sql`DELETE FROM collection_stats`,
    sql`INSERT INTO collection_stats (id, file_count, file_size, multiple_file_episodes, unrecognized_files, duplicate_location_files, location_count)
      SELECT 1, (SELECT COUNT(*) FROM files) - o.count, (SELECT COALESCE(SUM(size), 0) FROM files) - o.size,
        (SELECT COUNT(*) FROM collection_stats_multiple_episodes), o.unrecognized,
        (SELECT COUNT(*) FROM collection_stats_located_files), (SELECT COUNT(*) FROM file_locations)
      FROM (SELECT COUNT(*) AS count, COALESCE(SUM(size), 0) AS size, COALESCE(SUM(unrecognized), 0) AS unrecognized
        FROM collection_stats_outside_files) o`,
  ];
}

/** The whole of the statistics computed again from the collection, whatever the change rows say (a bulk load). */
export function rebuildCollectionStats(): Array<RawBuilder<unknown>> {
  return [
    ...['collection_stats_outside_files', 'collection_stats_multiple_episodes', 'collection_stats_located_files'].map(
      (table) => sql`DELETE FROM ${sql.table(table)}`,
    ),
    ...fillCollectionStats(),
    sql`DELETE FROM collection_stats_changes`,
  ];
}

const touchedFiles = sql`SELECT file_id FROM collection_stats_changes WHERE file_id IS NOT NULL`;
const touchedEpisodes = sql`SELECT episode_id FROM collection_stats_changes WHERE episode_id IS NOT NULL`;

/**
 * The row's share of the touched keys' state rows, taken off (`sign` -1) before they are recomputed and put back (1)
 * after: files outside the collection count against the file figures, the others for theirs.
 */
function moveRow(sign: 1 | -1) {
  const outside = sql`FROM collection_stats_outside_files WHERE file_id IN (${touchedFiles})`;
  const mine = sql.raw(String(sign));
  const theirs = sql.raw(String(-sign));
  return sql`UPDATE collection_stats SET
      file_count = file_count + ${theirs} * (SELECT COUNT(*) ${outside}),
      file_size = file_size + ${theirs} * (SELECT COALESCE(SUM(size), 0) ${outside}),
      unrecognized_files = unrecognized_files + ${mine} * (SELECT COALESCE(SUM(unrecognized), 0) ${outside}),
      multiple_file_episodes = multiple_file_episodes + ${mine} * (SELECT COUNT(*) FROM collection_stats_multiple_episodes
        WHERE episode_id IN (${touchedEpisodes})),
      duplicate_location_files = duplicate_location_files + ${mine} * (SELECT COUNT(*) FROM collection_stats_located_files
        WHERE file_id IN (${touchedFiles}))
    WHERE id = 1`;
}

/**
 * Brings the row up to date from the change rows, at a cost proportional to what they touched: a series' anime stands
 * for the contents its links hold; a content for its files and for the episodes its links hold (the touched links'
 * own episodes are written by their triggers, so an unlinked episode is found too). The row-local differences are
 * added, the touched keys' state rows recomputed with the row moved by the difference, the change rows removed.
 */
export function refreshCollectionStats(): Array<RawBuilder<unknown>> {
  return [
    sql`INSERT INTO collection_stats_changes (ed2k, size) SELECT l.ed2k, l.size FROM file_episode_links l
      WHERE l.anime_id IN (SELECT anime_id FROM collection_stats_changes WHERE anime_id IS NOT NULL)`,
    // CROSS JOIN: SQLite has no statistics of the change rows and would otherwise read every file or link.
    sql`INSERT INTO collection_stats_changes (file_id) SELECT DISTINCT f.id FROM collection_stats_changes c
      CROSS JOIN files f WHERE f.ed2k = c.ed2k AND f.size = c.size`,
    sql`INSERT INTO collection_stats_changes (episode_id) SELECT DISTINCT l.episode_id FROM collection_stats_changes c
      CROSS JOIN file_episode_links l WHERE l.ed2k = c.ed2k AND l.size = c.size`,
    sql`UPDATE collection_stats SET file_count = file_count + (SELECT SUM(file_delta) FROM collection_stats_changes),
      file_size = file_size + (SELECT SUM(size_delta) FROM collection_stats_changes),
      location_count = location_count + (SELECT SUM(location_delta) FROM collection_stats_changes) WHERE id = 1`,
    moveRow(-1),
    sql`DELETE FROM collection_stats_outside_files WHERE file_id IN (${touchedFiles})`,
    sql`DELETE FROM collection_stats_multiple_episodes WHERE episode_id IN (${touchedEpisodes})`,
    sql`DELETE FROM collection_stats_located_files WHERE file_id IN (${touchedFiles})`,
    stateRows.outside(sql`f.id IN (${touchedFiles})`),
    stateRows.multiple(sql`l.episode_id IN (${touchedEpisodes})`),
    stateRows.located(sql`file_id IN (${touchedFiles})`),
    moveRow(1),
    sql`DELETE FROM collection_stats_changes`,
  ];
}

/** The figures of the maintained row. */
export type CollectionStatsRow = Omit<CollectionStatsTable, 'id'>;

/**
 * The maintained row, brought up to date first from the change rows the base tables' triggers wrote (migration 0041).
 * With none it is one probe of an empty table.
 */
/**
 * From this many change rows on, the row and its three tables are filled again from the whole collection instead: the
 * rows an import of 400,000 files leaves (about three per file) took PostgreSQL over five minutes to apply key by key.
 */
export const FULL_REFRESH_CHANGES = 50_000;

export async function collectionStats(
  db: Kysely<Database>,
  dialect: DialectName,
  fullRefreshAt = FULL_REFRESH_CHANGES,
): Promise<CollectionStatsRow> {
  const changed = await sql`SELECT 1 FROM collection_stats_changes LIMIT 1`.execute(db);
  // Applying the change rows is the first reader's upkeep: on a full disk they wait for a later one (the figures
  // read meanwhile are from before them).
  if (changed.rows.length) await upkeepUnlessDbFault(db, () => applyChanges(db, dialect, fullRefreshAt), undefined);
  const { rows } = await sql<
    Record<keyof CollectionStatsRow, unknown>
  >`SELECT file_count, file_size, multiple_file_episodes, unrecognized_files,
      duplicate_location_files, location_count FROM collection_stats WHERE id = 1`.execute(db);
  const row = rows[0] ?? {};
  const num = (value: unknown) => Number(value ?? 0);
  return {
    file_count: num(row.file_count),
    file_size: num(row.file_size),
    multiple_file_episodes: num(row.multiple_file_episodes),
    unrecognized_files: num(row.unrecognized_files),
    duplicate_location_files: num(row.duplicate_location_files),
    location_count: num(row.location_count),
  };
}

/** Applies the change rows to the maintained row and its tables, in one transaction (see collectionStats). */
async function applyChanges(db: Kysely<Database>, dialect: DialectName, fullRefreshAt: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // As for the series aggregates: waits for writers whose change rows are not committed yet, so none is removed
    // unread, and keeps new ones out until this commits; a second reader then finds none and reads the fresh row.
    if (dialect === 'postgres') await sql`LOCK TABLE collection_stats_changes IN SHARE ROW EXCLUSIVE MODE`.execute(trx);
    const { rows } = await sql<{
      n: unknown;
    }>`SELECT COUNT(*) AS n FROM (SELECT 1 FROM collection_stats_changes LIMIT ${fullRefreshAt}) t`.execute(trx);
    const pending = Number(rows[0]?.n ?? 0);
    if (!pending) return;
    const statements = pending >= fullRefreshAt ? rebuildCollectionStats() : refreshCollectionStats();
    for (const statement of statements) await statement.execute(trx);
  });
}
