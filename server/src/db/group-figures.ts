import { sql, type RawBuilder } from 'kysely';
import type { DialectName } from './database.js';

/**
 * The maintained group figures (migration 0051): per group, over every series below it (its own and its subgroups'),
 * what the filters' group-level number and date selectors read (domains/filters/compiler/, `maintainedFigure`):
 * - `group_figures`: how many series; the sums of their anime's episode counts (normal, and normal plus specials);
 *   their ratings' sum, count, highest and lowest; first air date and last (end, else air) date; first and last day a
 *   series or file was added; the sums of their files, visible episodes with a file and collecting gaps;
 * - `group_user_figures`: per user, the sums of watched episodes (all and those with a file) and the first and last
 *   watched day.
 * The file, episode and watch figures are summed from the series aggregates, so they are recomputed after those.
 */
export const GROUP_FIGURE_TABLES = ['group_figures', 'group_user_figures'];

const GROUPS = sql.raw('aggregate_refresh_groups');

/** An id list as rows of one column `value`, for a statement's FROM. */
function idRows(ids: number[], dialect: DialectName): RawBuilder<unknown> {
  return dialect === 'postgres'
    ? sql`(SELECT unnest(CAST(${ids} AS integer[])) AS value) ids`
    : sql`(SELECT value FROM json_each(${JSON.stringify(ids)})) ids`;
}

/**
 * Recomputes the figures of the groups in `groupIds`, the groups of the series in `seriesIds` and all their ancestors,
 * inside the aggregates' refresh (its transaction, after the series aggregates): a working set of those groups, their
 * old rows deleted, then one grouped pass each over the series below them.
 */
export function groupFigureStatements(groupIds: number[], seriesIds: number[], dialect: DialectName): Array<RawBuilder<unknown>> {
  const postgres = dialect === 'postgres';
  const seeds = sql`SELECT ids.value FROM ${idRows(groupIds, dialect)} UNION SELECT s.group_id FROM series s JOIN ${idRows(seriesIds, dialect)} ON s.id = ids.value`;
  // UNION, not UNION ALL: a group is visited once however many seeds lie below it.
  const below = sql`WITH RECURSIVE below(root, id) AS (SELECT id, id FROM ${GROUPS} UNION SELECT b.root, g.id FROM groups g JOIN below b ON g.parent_id = b.id)`;
  const series = sql`below b JOIN series xs ON xs.group_id = b.id`;
  return [
    sql`CREATE TEMPORARY TABLE ${GROUPS} (id integer PRIMARY KEY)${sql.raw(postgres ? ' ON COMMIT DROP' : '')}`,
    sql`WITH RECURSIVE up(id) AS (SELECT seed.value FROM (${seeds}) seed UNION SELECT g.parent_id FROM groups g JOIN up ON g.id = up.id WHERE g.parent_id IS NOT NULL)
      INSERT INTO ${GROUPS} (id) SELECT id FROM up WHERE id IS NOT NULL`,
    ...(postgres ? [sql`ANALYZE ${GROUPS}`] : []),
    ...GROUP_FIGURE_TABLES.map((table) => sql`DELETE FROM ${sql.table(table)} WHERE group_id IN (SELECT id FROM ${GROUPS})`),
    sql`${below} INSERT INTO group_figures (group_id, series_count, episode_count, total_episode_count, rating_sum, rating_count, rating_max,
        rating_min, air_date, last_air_date, added_date, last_added, file_count, local_episode_count, collecting_missing_count)
      SELECT b.root, COUNT(*), SUM(a.episode_count), SUM(a.episode_count + a.special_count), SUM(a.rating), COUNT(a.rating), MAX(a.rating),
        MIN(a.rating), MIN(a.air_date), MAX(COALESCE(a.end_date, a.air_date)), MIN(substr(xs.created_at, 1, 10)), MAX(sa.last_added),
        SUM(sa.file_count), SUM(sa.local_episode_count), SUM(ff.collecting_missing_count)
      FROM ${series} LEFT JOIN anidb_anime a ON a.id = xs.anime_id LEFT JOIN series_aggregates sa ON sa.series_id = xs.id
        LEFT JOIN series_filter_figures ff ON ff.series_id = xs.id
      GROUP BY b.root`,
    sql`${below} INSERT INTO group_user_figures (group_id, user_id, watched_count, watched_local_count, first_watched, last_watched)
      SELECT b.root, ua.user_id, SUM(ua.watched_count), SUM(ua.watched_local_count), MIN(ua.first_watched), MAX(ua.last_watched)
      FROM ${series} JOIN series_user_aggregates ua ON ua.series_id = xs.id
      GROUP BY b.root, ua.user_id`,
    ...(postgres ? [] : [sql`DROP TABLE ${GROUPS}`]),
  ];
}
