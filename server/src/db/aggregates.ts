import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DialectName } from './database.js';
import type { Database } from './schema.js';

/**
 * Brings the maintained series aggregates (migration 0023) up to date: recomputes every series the base-table triggers
 * marked dirty, from the base tables, and clears the marks, in one transaction. Readers of the aggregates call it
 * first; with nothing marked it is one indexed probe.
 */
export async function refreshSeriesAggregates(db: Kysely<Database>, dialect: DialectName): Promise<number> {
  const any = await sql<{ id: number }>`SELECT series_id AS id FROM aggregate_dirty_series LIMIT 1`.execute(db);
  if (!any.rows.length) return 0;
  return db.transaction().execute(async (trx) => {
    // Waits for writers whose marks are not committed yet and holds new marks back until this commits, so no mark is
    // cleared while its change is still invisible here (SQLite has one writer at a time anyway).
    if (dialect === 'postgres') await sql`LOCK TABLE aggregate_dirty_series IN SHARE ROW EXCLUSIVE MODE`.execute(trx);
    const { rows } = await sql<{ id: number }>`DELETE FROM aggregate_dirty_series RETURNING series_id AS id`.execute(trx);
    if (!rows.length) return 0;
    const ids = rows.map((r) => Number(r.id));
    const list =
      dialect === 'postgres' ? sql`(SELECT unnest(CAST(${ids} AS integer[])))` : sql`(SELECT value FROM json_each(${JSON.stringify(ids)}))`;
    for (const table of ['series_aggregates', 'series_aggregate_values', 'series_user_aggregates'])
      await sql`DELETE FROM ${sql.table(table)} WHERE series_id IN ${list}`.execute(trx);
    for (const statement of recomputeStatements(list, dialect)) await statement.execute(trx);
    return ids.length;
  });
}

/** The episode `e` has a local file. */
const local = (e: string) =>
  `EXISTS (SELECT 1 FROM file_episode_links l JOIN files f ON f.ed2k = l.ed2k AND f.size = l.size WHERE l.episode_id = ${e}.anidb_episode_id)`;
const LOCAL = local('e');
const FILES =
  'episodes e JOIN file_episode_links l ON l.episode_id = e.anidb_episode_id JOIN files f ON f.ed2k = l.ed2k AND f.size = l.size';

function recomputeStatements(list: RawBuilder<unknown>, dialect: DialectName): Array<RawBuilder<unknown>> {
  const missing =
    "FROM episodes e JOIN anidb_episodes ae ON ae.id = e.anidb_episode_id WHERE e.series_id = s.id AND e.is_hidden = 0 AND ae.type IN ('Episode', 'Special') AND ae.air_date IS NOT NULL AND NOT " +
    LOCAL;
  const normal = `FROM episodes e JOIN anidb_episodes ae ON ae.id = e.anidb_episode_id WHERE e.series_id = s.id AND e.is_hidden = 0 AND ae.type = 'Episode'`;
  // Missing normal episodes numbered below the last normal episode with a file (hidden or not).
  const collecting = `${normal} AND ae.air_date IS NOT NULL AND NOT ${LOCAL} AND ae.number < (SELECT MAX(ae2.number) FROM episodes e2
    JOIN anidb_episodes ae2 ON ae2.id = e2.anidb_episode_id WHERE e2.series_id = s.id AND ae2.type = 'Episode' AND ${local('e2')})`;
  const series = sql`INSERT INTO series_aggregates (series_id, file_count, anidb_file_count, local_episode_count, last_added, missing_count, missing_first_air, missing_last_air,
      local_normal_count, collecting_count, collecting_last_air)
    SELECT s.id,
      (SELECT COUNT(DISTINCT f.id) FROM ${sql.raw(FILES)} WHERE e.series_id = s.id),
      (SELECT COUNT(DISTINCT f.id) FROM ${sql.raw(FILES)} JOIN anidb_files af ON af.ed2k = f.ed2k AND af.size = f.size WHERE e.series_id = s.id),
      (SELECT COUNT(*) FROM episodes e WHERE e.series_id = s.id AND e.is_hidden = 0 AND ${sql.raw(LOCAL)}),
      (SELECT MAX(substr(f.created_at, 1, 10)) FROM ${sql.raw(FILES)} WHERE e.series_id = s.id),
      (SELECT COUNT(*) ${sql.raw(missing)}),
      (SELECT MIN(ae.air_date) ${sql.raw(missing)}),
      (SELECT MAX(ae.air_date) ${sql.raw(missing)}),
      (SELECT COUNT(*) ${sql.raw(normal)} AND ${sql.raw(LOCAL)}),
      (SELECT COUNT(*) ${sql.raw(collecting)}),
      (SELECT MAX(ae.air_date) ${sql.raw(collecting)})
    FROM series s WHERE s.id IN ${list}`;
  const anidbFiles = `${FILES} JOIN anidb_files af ON af.ed2k = f.ed2k AND af.size = f.size`;
  const values = (kind: string, value: string, from: string) =>
    sql`INSERT INTO series_aggregate_values (series_id, kind, value, file_count)
      SELECT e.series_id, ${kind}, ${sql.raw(value)}, COUNT(DISTINCT f.id) FROM ${sql.raw(from)}
      WHERE e.series_id IN ${list} AND ${sql.raw(value)} IS NOT NULL GROUP BY e.series_id, ${sql.raw(value)}`;
  // Languages are JSON arrays; media info is the contract's model, whose video streams carry a Resolution. Anything
  // else stored there counts as empty rather than failing the refresh.
  const json = (column: string, empty: string) => `CASE WHEN ${column} LIKE '${empty[0]}%' THEN ${column} ELSE '${empty}' END`;
  const elements = (column: string) =>
    dialect === 'postgres'
      ? `json_array_elements_text(CAST(${json(column, '[]')} AS json)) AS j(value)`
      : `json_each(${json(column, '[]')}) AS j`;
  const videos =
    dialect === 'postgres'
      ? `json_array_elements(CAST(${json('f.media_info', '{}')} AS json) -> 'Video') AS v(value)`
      : `json_each(${json('f.media_info', '{}')}, '$.Video') AS v`;
  const resolution = dialect === 'postgres' ? "lower(v.value ->> 'Resolution')" : "lower(json_extract(v.value, '$.Resolution'))";
  const users = sql`INSERT INTO series_user_aggregates (series_id, user_id, watched_count, watched_local_count, first_watched, last_watched,
      watched_normal_local_count)
    SELECT e.series_id, w.user_id,
      SUM(CASE WHEN e.is_hidden = 0 AND w.watched_at IS NOT NULL THEN 1 ELSE 0 END),
      SUM(CASE WHEN e.is_hidden = 0 AND w.watched_at IS NOT NULL AND ${sql.raw(LOCAL)} THEN 1 ELSE 0 END),
      MIN(substr(w.watched_at, 1, 10)), MAX(substr(w.watched_at, 1, 10)),
      SUM(CASE WHEN e.is_hidden = 0 AND w.watched_at IS NOT NULL AND ae.type = 'Episode' AND ${sql.raw(LOCAL)} THEN 1 ELSE 0 END)
    FROM episodes e JOIN user_episode_states w ON w.episode_id = e.id LEFT JOIN anidb_episodes ae ON ae.id = e.anidb_episode_id WHERE e.series_id IN ${list} GROUP BY e.series_id, w.user_id`;
  // Missing episodes by air date (file_count holds the episodes here), so a reader sums those aired by any day.
  const missingByDay = sql`INSERT INTO series_aggregate_values (series_id, kind, value, file_count)
    SELECT e.series_id, 'missing_air', ae.air_date, COUNT(*) FROM episodes e JOIN anidb_episodes ae ON ae.id = e.anidb_episode_id
    WHERE e.series_id IN ${list} AND e.is_hidden = 0 AND ae.type IN ('Episode', 'Special') AND ae.air_date IS NOT NULL AND NOT ${sql.raw(LOCAL)}
    GROUP BY e.series_id, ae.air_date`;
  return [
    series,
    missingByDay,
    values('source', 'lower(af.source)', anidbFiles),
    values('audio', 'lower(j.value)', `${anidbFiles} CROSS JOIN ${elements('af.audio_languages')}`),
    values('subtitle', 'lower(j.value)', `${anidbFiles} CROSS JOIN ${elements('af.subtitle_languages')}`),
    values('resolution', resolution, `${FILES} CROSS JOIN ${videos}`),
    users,
  ];
}
