import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DialectName } from './database.js';
import type { CollectionStatsTable, Database } from './schema.js';

/**
 * The Dashboard/Stats figures over files, links and locations, each one query over the whole collection. `allowed` is
 * the condition on the series row `s` that a viewer may see (tag restrictions). The maintained row (migration 0031)
 * holds them for a viewer without restrictions; a restricted viewer's figures are computed from these same queries.
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

/** Recomputes the maintained row (the figures of a viewer without tag restrictions) from the base tables. */
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

/** The figures of the maintained row. */
export type CollectionStatsRow = Omit<CollectionStatsTable, 'id'>;

/**
 * The maintained row, brought up to date first: a base-table trigger's mark (migration 0031) says it is stale; the
 * marks are cleared and the row recomputed in one transaction. With no mark it is one probe of an empty table.
 */
export async function collectionStats(db: Kysely<Database>, dialect: DialectName): Promise<CollectionStatsRow> {
  const marked = await sql<{ marked: number }>`SELECT marked FROM collection_stats_dirty LIMIT 1`.execute(db);
  if (marked.rows.length) {
    await db.transaction().execute(async (trx) => {
      // As for the series aggregates: waits for writers whose marks are not committed yet, so none is cleared while its
      // change is still invisible here; a second reader finds the marks gone and reads the fresh row.
      if (dialect === 'postgres') await sql`LOCK TABLE collection_stats_dirty IN SHARE ROW EXCLUSIVE MODE`.execute(trx);
      const { rows } = await sql<{ marked: number }>`DELETE FROM collection_stats_dirty RETURNING marked`.execute(trx);
      if (!rows.length) return;
      if (dialect === 'postgres') await sql`SET LOCAL jit = off`.execute(trx);
      for (const statement of recomputeCollectionStats()) await statement.execute(trx);
    });
  }
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
