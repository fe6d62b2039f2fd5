import { sql, type RawBuilder } from 'kysely';

/**
 * The maintained per-series figures of the Series and Group models' Sizes (migration 0048), kept with the series
 * aggregates (same dirty marks, same refresh, same transaction: db/aggregates.ts), so a page of models reads a few
 * rows per series instead of every episode with its AniDB row and watch state.
 */
export const SERIES_SIZE_TABLES = ['series_type_counts', 'series_missing_air', 'series_user_type_counts'];

/**
 * Recomputes the size figures of the series in `episodes`: a relation with one row per episode of those series
 * (id, series_id, is_hidden, type: the AniDB episode type or NULL without an AniDB row, air_date, has_file: 1 when a
 * local file is linked). The refresh passes its working set; migration 0048 the base tables. Definitions are those
 * of BrowseStore.sizes:
 * - per type ('' when the episode has no AniDB row or an empty type): visible episodes, visible ones with a local
 *   file, hidden ones;
 * - missing: visible normal and special episodes without a local file, by type and air date (a reader sums the
 *   days up to today), only those with an air date;
 * - per user and type: visible episodes with a local file the user has watched.
 */
export function seriesSizeStatements(episodes: RawBuilder<unknown>): Array<RawBuilder<unknown>> {
  const type = sql.raw("COALESCE(e.type, '')");
  return [
    sql`INSERT INTO series_type_counts (series_id, type, visible_count, local_count, hidden_count)
      SELECT e.series_id, ${type}, SUM(CASE WHEN e.is_hidden = 0 THEN 1 ELSE 0 END),
        SUM(CASE WHEN e.is_hidden = 0 AND e.has_file = 1 THEN 1 ELSE 0 END), SUM(CASE WHEN e.is_hidden = 0 THEN 0 ELSE 1 END)
      FROM ${episodes} e GROUP BY e.series_id, ${type}`,
    sql`INSERT INTO series_missing_air (series_id, type, air_date, episode_count)
      SELECT e.series_id, e.type, e.air_date, COUNT(*) FROM ${episodes} e
      WHERE e.is_hidden = 0 AND e.has_file = 0 AND e.type IN ('Episode', 'Special') AND e.air_date IS NOT NULL AND e.air_date <> ''
      GROUP BY e.series_id, e.type, e.air_date`,
    sql`INSERT INTO series_user_type_counts (series_id, user_id, type, watched_local_count)
      SELECT e.series_id, w.user_id, ${type}, COUNT(*) FROM ${episodes} e JOIN user_episode_states w ON w.episode_id = e.id
      WHERE e.is_hidden = 0 AND e.has_file = 1 AND w.watched_at IS NOT NULL
      GROUP BY e.series_id, w.user_id, ${type}`,
  ];
}
