import { sql, type Kysely, type RawBuilder } from 'kysely';
import { continueWatchingSeriesStatements } from './continue-watching.js';
import { dashboardAggregateStatements } from './dashboard-aggregates.js';
import type { DialectName } from './database.js';
import { FILTER_FIGURE_TABLES, filterFigureStatements } from './filter-figures.js';
import { groupFigureStatements } from './group-figures.js';
import type { Database } from './schema.js';
import { RELEASE_FIGURE_TABLES, releaseFigureStatements } from './release-figures.js';
import { SERIES_SIZE_TABLES, seriesSizeStatements } from './series-sizes.js';
import { upkeepUnlessDbFault } from './db-faults.js';

/**
 * Brings the maintained series aggregates (migration 0023) and group figures (0051) up to date: recomputes every
 * series the base-table triggers marked dirty, from the base tables, then the marked groups and those of the
 * recomputed series (db/group-figures.ts), and clears the marks, in one transaction. Readers of the aggregates call it
 * first; with nothing marked it is one indexed probe. Answers how many series it recomputed.
 */
export async function refreshSeriesAggregates(db: Kysely<Database>, dialect: DialectName): Promise<number> {
  // A full disk leaves the marks for later: the dashboard and lists read on with the figures as they are.
  return upkeepUnlessDbFault(db, () => recomputeMarked(db, dialect), 0);
}

async function recomputeMarked(db: Kysely<Database>, dialect: DialectName): Promise<number> {
  const any = await sql<{
    one: number;
  }>`SELECT 1 AS one FROM aggregate_dirty_series UNION ALL SELECT 1 FROM aggregate_dirty_groups LIMIT 1`.execute(db);
  if (!any.rows.length) return 0;
  return db.transaction().execute(async (trx) => {
    // Waits for writers whose marks are not committed yet and holds new marks back until this commits, so no mark is
    // cleared while its change is still invisible here (SQLite has one writer at a time anyway).
    if (dialect === 'postgres')
      await sql`LOCK TABLE aggregate_dirty_series, aggregate_dirty_groups IN SHARE ROW EXCLUSIVE MODE`.execute(trx);
    const series = await sql<{ id: number }>`DELETE FROM aggregate_dirty_series RETURNING series_id AS id`.execute(trx);
    const groups = await sql<{ id: number }>`DELETE FROM aggregate_dirty_groups RETURNING group_id AS id`.execute(trx);
    if (!series.rows.length && !groups.rows.length) return 0;
    const ids = series.rows.map((r) => Number(r.id));
    // A refresh of most of a large collection (after a bulk import) is whole-set work: PostgreSQL misjudges joins on
    // ed2k and size as one row and nests loops over tens of thousands of rows (25-35 s instead of 7 at 5,000 series).
    if (dialect === 'postgres' && ids.length >= WHOLE_SET_REFRESH) await sql`SET LOCAL enable_nestloop = off`.execute(trx);
    const statements = [
      ...(ids.length ? recomputeStatements(ids, dialect) : []),
      ...groupFigureStatements(
        groups.rows.map((r) => Number(r.id)),
        ids,
        dialect,
      ),
    ];
    for (const statement of statements) await statement.execute(trx);
    return ids.length;
  });
}

/** From this many series a refresh is planned as whole-set work (see refreshSeriesAggregates). */
const WHOLE_SET_REFRESH = 1_000;

/** Working sets of one refresh, as temporary tables (each connection has its own; dropped when the refresh ends). */
const MARKED = sql.raw('aggregate_refresh_series');
const LINKS = sql.raw('aggregate_refresh_links');
const EPISODES = sql.raw('aggregate_refresh_episodes');

/**
 * Every figure is computed over whole sets: the marked ids, the content links of their episodes to local files
 * (`LINKS`: one row per episode, link and file, with what AniDB knows of the file) and their episodes (`EPISODES`: one
 * row each, with what the figures filter on) are resolved once into temporary tables; each aggregate is then one
 * GROUP BY over them. One sub-query per series and figure took minutes on PostgreSQL for 5,000 series. Marked ids
 * it can look up by index, rather than a function's output it would rescan per row, keep a misjudged row count from
 * choosing a plan that grows with the square of the rows. It knows nothing of a fresh temporary table, so each
 * gets statistics (ANALYZE, about a millisecond when small): without them a one-series refresh scanned whole tables.
 */
function recomputeStatements(ids: number[], dialect: DialectName): Array<RawBuilder<unknown>> {
  const postgres = dialect === 'postgres';
  const workingSet = (name: RawBuilder<unknown>, columns: string, select: RawBuilder<unknown>, ...then: Array<RawBuilder<unknown>>) => [
    sql`CREATE TEMPORARY TABLE ${name} (${sql.raw(columns)})${sql.raw(postgres ? ' ON COMMIT DROP' : '')}`,
    sql`INSERT INTO ${name} ${select}`,
    ...then,
    ...(postgres ? [sql`ANALYZE ${name}`] : []),
  ];
  const marked = workingSet(
    MARKED,
    'id integer PRIMARY KEY',
    postgres ? sql`SELECT unnest(CAST(${ids} AS integer[]))` : sql`SELECT value FROM json_each(${JSON.stringify(ids)})`,
  );
  const list = sql`(SELECT id FROM ${MARKED})`;
  // Joined on ed2k alone, the sizes compared once the rows are in: PostgreSQL takes ed2k and size for independent and
  // expects one row from the pair where there are 100,000, then plans every later join of the statement as nested
  // loops (it took twice as long at 400,000 files).
  const links = workingSet(
    LINKS,
    'series_id integer, episode_id integer, file_id integer, link_size bigint, file_size bigint, added text, known integer, source text, audio_languages text, subtitle_languages text, release_group integer',
    sql`SELECT e.series_id, e.anidb_episode_id, f.id, l.size, f.size, substr(f.created_at, 1, 10), CASE WHEN af.ed2k IS NULL THEN 0 ELSE 1 END,
        af.source, af.audio_languages, af.subtitle_languages, af.group_id
      FROM episodes e JOIN file_episode_links l ON l.episode_id = e.anidb_episode_id JOIN files f ON f.ed2k = l.ed2k
        LEFT JOIN anidb_files af ON af.ed2k = f.ed2k AND af.size = f.size
      WHERE e.series_id IN ${list}`,
    sql`DELETE FROM ${LINKS} WHERE link_size <> file_size`,
  );
  // Missing: visible normal/special episodes with an air date and no local file.
  const episodes = workingSet(
    EPISODES,
    'id integer, series_id integer, is_hidden integer, type text, number integer, air_date text, has_file integer, missing integer',
    sql`SELECT e.id, e.series_id, e.is_hidden, ae.type, ae.number, ae.air_date, CASE WHEN local.episode_id IS NULL THEN 0 ELSE 1 END,
        CASE WHEN e.is_hidden = 0 AND ae.type IN ('Episode', 'Special') AND ae.air_date IS NOT NULL AND local.episode_id IS NULL THEN 1 ELSE 0 END
      FROM episodes e LEFT JOIN anidb_episodes ae ON ae.id = e.anidb_episode_id
        LEFT JOIN (SELECT DISTINCT episode_id FROM ${LINKS}) local ON local.episode_id = e.anidb_episode_id
      WHERE e.series_id IN ${list}`,
  );
  // Collecting: the missing normal episodes numbered below the last normal episode with a file (hidden or not).
  const collecting = "f.missing = 1 AND f.type = 'Episode' AND f.number < last.number";
  const series = sql`WITH last_local AS (SELECT series_id, MAX(number) AS number FROM ${EPISODES} WHERE type = 'Episode' AND has_file = 1 GROUP BY series_id),
      episode_figures AS (SELECT f.series_id,
          SUM(CASE WHEN f.is_hidden = 0 AND f.has_file = 1 THEN 1 ELSE 0 END) AS local_episode_count,
          SUM(f.missing) AS missing_count,
          MIN(CASE WHEN f.missing = 1 THEN f.air_date END) AS missing_first_air,
          MAX(CASE WHEN f.missing = 1 THEN f.air_date END) AS missing_last_air,
          SUM(CASE WHEN f.is_hidden = 0 AND f.type = 'Episode' AND f.has_file = 1 THEN 1 ELSE 0 END) AS local_normal_count,
          SUM(CASE WHEN ${sql.raw(collecting)} THEN 1 ELSE 0 END) AS collecting_count,
          MAX(CASE WHEN ${sql.raw(collecting)} THEN f.air_date END) AS collecting_last_air
        FROM ${EPISODES} f LEFT JOIN last_local last ON last.series_id = f.series_id GROUP BY f.series_id),
      file_figures AS (SELECT series_id, COUNT(DISTINCT file_id) AS file_count, COUNT(DISTINCT CASE WHEN known = 1 THEN file_id END) AS anidb_file_count,
          MAX(added) AS last_added
        FROM ${LINKS} GROUP BY series_id)
    INSERT INTO series_aggregates (series_id, file_count, anidb_file_count, local_episode_count, last_added, missing_count, missing_first_air, missing_last_air,
      local_normal_count, collecting_count, collecting_last_air)
    SELECT s.id, COALESCE(ff.file_count, 0), COALESCE(ff.anidb_file_count, 0), COALESCE(ef.local_episode_count, 0), ff.last_added,
      COALESCE(ef.missing_count, 0), ef.missing_first_air, ef.missing_last_air, COALESCE(ef.local_normal_count, 0),
      COALESCE(ef.collecting_count, 0), ef.collecting_last_air
    FROM series s LEFT JOIN file_figures ff ON ff.series_id = s.id LEFT JOIN episode_figures ef ON ef.series_id = s.id WHERE s.id IN ${list}`;
  const values = (kind: string, value: string, from: RawBuilder<unknown>) =>
    sql`INSERT INTO series_aggregate_values (series_id, kind, value, file_count)
      SELECT r.series_id, ${kind}, ${sql.raw(value)}, COUNT(DISTINCT r.file_id) FROM ${from}
      WHERE ${sql.raw(value)} IS NOT NULL GROUP BY r.series_id, ${sql.raw(value)}`;
  // Languages are JSON arrays; media info is the contract's model, whose video streams carry a Resolution. Anything
  // else stored there counts as empty rather than failing the refresh.
  const json = (column: string, empty: string) => `CASE WHEN ${column} LIKE '${empty[0]}%' THEN ${column} ELSE '${empty}' END`;
  const elements = (column: string) =>
    sql.raw(
      postgres ? `json_array_elements_text(CAST(${json(column, '[]')} AS json)) AS j(value)` : `json_each(${json(column, '[]')}) AS j`,
    );
  const videos = sql.raw(
    postgres
      ? `json_array_elements(CAST(${json('f.media_info', '{}')} AS json) -> 'Video') AS v(value)`
      : `json_each(${json('f.media_info', '{}')}, '$.Video') AS v`,
  );
  const resolution = postgres ? "lower(v.value ->> 'Resolution')" : "lower(json_extract(v.value, '$.Resolution'))";
  const known = sql`(SELECT * FROM ${LINKS} WHERE known = 1) r`;
  const users = sql`INSERT INTO series_user_aggregates (series_id, user_id, watched_count, watched_local_count, first_watched, last_watched,
      watched_normal_local_count)
    SELECT e.series_id, w.user_id,
      SUM(CASE WHEN e.is_hidden = 0 AND w.watched_at IS NOT NULL THEN 1 ELSE 0 END),
      SUM(CASE WHEN e.is_hidden = 0 AND w.watched_at IS NOT NULL AND e.has_file = 1 THEN 1 ELSE 0 END),
      MIN(substr(w.watched_at, 1, 10)), MAX(substr(w.watched_at, 1, 10)),
      SUM(CASE WHEN e.is_hidden = 0 AND w.watched_at IS NOT NULL AND e.type = 'Episode' AND e.has_file = 1 THEN 1 ELSE 0 END)
    FROM ${EPISODES} e JOIN user_episode_states w ON w.episode_id = e.id GROUP BY e.series_id, w.user_id`;
  // Missing episodes by air date (file_count holds the episodes here), so a reader sums those aired by any day.
  const missingByDay = sql`INSERT INTO series_aggregate_values (series_id, kind, value, file_count)
    SELECT series_id, 'missing_air', air_date, COUNT(*) FROM ${EPISODES} WHERE missing = 1 GROUP BY series_id, air_date`;
  return [
    ...marked,
    ...[
      'series_aggregates',
      'series_aggregate_values',
      'series_user_aggregates',
      ...RELEASE_FIGURE_TABLES,
      ...FILTER_FIGURE_TABLES,
      ...SERIES_SIZE_TABLES,
    ].map((table) => sql`DELETE FROM ${sql.table(table)} WHERE series_id IN ${list}`),
    ...links,
    ...episodes,
    series,
    missingByDay,
    values('source', 'lower(r.source)', known),
    // The release group's id (its name is read from anidb_release_groups, so a renamed group needs no refresh); 0 is none.
    values('release_group', 'CASE WHEN r.release_group > 0 THEN CAST(r.release_group AS TEXT) END', known),
    values('audio', 'lower(j.value)', sql`${known} CROSS JOIN ${elements('r.audio_languages')}`),
    values('subtitle', 'lower(j.value)', sql`${known} CROSS JOIN ${elements('r.subtitle_languages')}`),
    values(
      'resolution',
      resolution,
      sql`(SELECT DISTINCT series_id, file_id FROM ${LINKS}) r JOIN files f ON f.id = r.file_id CROSS JOIN ${videos}`,
    ),
    users,
    ...releaseFigureStatements(list, LINKS, EPISODES),
    ...filterFigureStatements(list, LINKS, EPISODES, dialect),
    ...seriesSizeStatements(EPISODES),
    ...dashboardAggregateStatements(list),
    // After series_next_up (above): Continue Watching orders by its activity.
    ...continueWatchingSeriesStatements(list),
    // PostgreSQL drops them at commit; SQLite would keep them for the connection's life.
    ...(postgres ? [] : [MARKED, LINKS, EPISODES].map((name) => sql`DROP TABLE ${name}`)),
  ];
}
