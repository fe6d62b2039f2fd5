import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DialectName } from './database.js';
import type { Database } from './schema.js';
import { upkeepUnlessDbFault } from './db-faults.js';

/**
 * Continue Watching's maintained rows (migration 0061, table `continue_watching`): per user, series and episode-kind
 * choice, the session Dashboard/ContinueWatchingEpisodes shows for the series and the activity it is ordered by, so a
 * page is a walk of one index instead of every resumed file of the user joined to its episodes.
 *
 * A session is a file of the user with a non-zero resume position, by each episode of the collection its content is
 * linked to (the episode's series holding the episode's anime). Per series the most recently updated session wins
 * (then the higher file id, the link's order, the AniDB episode id), among the episode kinds the request takes:
 * `choice` 0 normal episodes only, 1 with specials, 2 with others (credits, trailers, parodies, other), 3 with both.
 * `last_activity` is the later of the session's update and the series' latest watch-state update (series_next_up).
 *
 * Kept up to date two ways, each in the transaction of the change that makes rows stale: a trigger on user_file_states
 * marks the (user, series) pairs a resume-position change touches in `continue_watching_dirty`, recomputed by the
 * next reader (refreshContinueWatching); every other base change marks the series for the series aggregates' refresh
 * (db/aggregates.ts), which recomputes these rows with series_next_up (db/dashboard-aggregates.ts).
 */

/** The rows of the sessions in `scope` (a condition on `u.user_id` and `e.series_id`), inserted. */
export function continueWatchingInsert(scope: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`INSERT INTO continue_watching (user_id, series_id, choice, episode_id, file_id, position_ms, touched, last_activity)
    WITH entries AS (
        SELECT u.user_id AS user_id, e.series_id AS sid, e.id AS eid, ae.id AS aid, u.file_id AS fid, u.resume_position_ms AS pos,
          u.updated_at AS touched, l.ordering AS ordering, CASE ae.type WHEN 'Episode' THEN 0 WHEN 'Special' THEN 1 ELSE 2 END AS kind
        FROM user_file_states u JOIN files f ON f.id = u.file_id JOIN file_episode_links l ON l.ed2k = f.ed2k AND l.size = f.size
          JOIN episodes e ON e.anidb_episode_id = l.episode_id JOIN anidb_episodes ae ON ae.id = e.anidb_episode_id
          JOIN series s ON s.id = e.series_id
        WHERE u.resume_position_ms > 0 AND s.anime_id = ae.anime_id
          AND ae.type IN ('Episode', 'Special', 'Other', 'Credits', 'Trailer', 'Parody') AND ${scope}),
      choices AS (SELECT 0 AS choice UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3),
      ranked AS (SELECT c.choice AS choice, x.*,
          ROW_NUMBER() OVER (PARTITION BY x.user_id, x.sid, c.choice ORDER BY x.touched DESC, x.fid DESC, x.ordering, x.aid) AS rn
        FROM entries x JOIN choices c ON x.kind = 0 OR (x.kind = 1 AND c.choice IN (1, 3)) OR (x.kind = 2 AND c.choice IN (2, 3)))
    SELECT r.user_id, r.sid, r.choice, r.eid, r.fid, r.pos, r.touched,
      CASE WHEN n.last_activity > r.touched THEN n.last_activity ELSE r.touched END
    FROM ranked r LEFT JOIN series_next_up n ON n.series_id = r.sid AND n.user_id = r.user_id
    WHERE r.rn = 1`;
}

/** The statements that recompute the rows of the series in `series` (a parenthesised sub-query of ids), every user. */
export function continueWatchingSeriesStatements(series: RawBuilder<unknown>): Array<RawBuilder<unknown>> {
  return [
    // Marks first: a change committed after this delete marks again, one committed before is seen by the insert.
    sql`DELETE FROM continue_watching_dirty WHERE series_id IN ${series}`,
    sql`DELETE FROM continue_watching WHERE series_id IN ${series}`,
    continueWatchingInsert(sql`e.series_id IN ${series}`),
  ];
}

/** The choice column for a request's episode kinds. */
export const continueWatchingChoice = (includeSpecials: boolean, includeOthers: boolean) =>
  (includeSpecials ? 1 : 0) + (includeOthers ? 2 : 0);

/**
 * Recomputes the (user, series) pairs the resume-position trigger marked, and clears their marks, in one transaction.
 * With nothing marked it is one indexed probe. A full disk leaves the marks for later (the rows are read as they are).
 */
export async function refreshContinueWatching(db: Kysely<Database>, dialect: DialectName): Promise<number> {
  return upkeepUnlessDbFault(db, () => recomputeMarkedPairs(db, dialect), 0);
}

async function recomputeMarkedPairs(db: Kysely<Database>, dialect: DialectName): Promise<number> {
  const any = await sql<{ one: number }>`SELECT 1 AS one FROM continue_watching_dirty LIMIT 1`.execute(db);
  if (!any.rows.length) return 0;
  return db.transaction().execute(async (trx) => {
    // Holds new marks back until this commits, so no mark is cleared while its change is still invisible here.
    if (dialect === 'postgres') await sql`LOCK TABLE continue_watching_dirty IN SHARE ROW EXCLUSIVE MODE`.execute(trx);
    const marked = await sql<{
      user_id: number;
      series_id: number;
    }>`DELETE FROM continue_watching_dirty RETURNING user_id, series_id`.execute(trx);
    const byUser = new Map<number, number[]>();
    for (const row of marked.rows) {
      const ids = byUser.get(Number(row.user_id)) ?? [];
      ids.push(Number(row.series_id));
      byUser.set(Number(row.user_id), ids);
    }
    for (const [userId, ids] of byUser) {
      const series =
        dialect === 'postgres'
          ? sql`(SELECT unnest(CAST(${ids} AS integer[])))`
          : sql`(SELECT value FROM json_each(${JSON.stringify(ids)}))`;
      await sql`DELETE FROM continue_watching WHERE user_id = ${userId} AND series_id IN ${series}`.execute(trx);
      await continueWatchingInsert(sql`u.user_id = ${userId} AND e.series_id IN ${series}`).execute(trx);
    }
    return marked.rows.length;
  });
}

/** The series of a user_file_states row's file (`row` NEW or OLD), as `series_id`. */
const seriesOfFile = (row: string) =>
  `SELECT e.series_id AS series_id FROM files f JOIN file_episode_links l ON l.ed2k = f.ed2k AND l.size = f.size
   JOIN episodes e ON e.anidb_episode_id = l.episode_id WHERE f.id = ${row}.file_id`;

/** The trigger (migration 0061) marking the pairs a resume-position change of user_file_states touches. */
export async function createContinueWatchingTrigger(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect === 'sqlite') {
    // Not INSERT OR IGNORE: inside a trigger SQLite applies the firing statement's conflict handling (see 0023).
    const mark = (row: string) =>
      `INSERT INTO continue_watching_dirty (user_id, series_id) SELECT DISTINCT ${row}.user_id, x.series_id FROM (${seriesOfFile(row)}) AS x
       WHERE NOT EXISTS (SELECT 1 FROM continue_watching_dirty d WHERE d.user_id = ${row}.user_id AND d.series_id = x.series_id);`;
    await sql
      .raw(
        `CREATE TRIGGER user_file_states_continue_watching_insert AFTER INSERT ON user_file_states
        WHEN NEW.resume_position_ms > 0 BEGIN ${mark('NEW')} END`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER user_file_states_continue_watching_delete AFTER DELETE ON user_file_states
        WHEN OLD.resume_position_ms > 0 BEGIN ${mark('OLD')} END`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER user_file_states_continue_watching_update
        AFTER UPDATE OF user_id, file_id, resume_position_ms, updated_at ON user_file_states
        WHEN OLD.resume_position_ms > 0 OR NEW.resume_position_ms > 0 BEGIN ${mark('OLD')} ${mark('NEW')} END`,
      )
      .execute(db);
    return;
  }
  const mark = (row: string) =>
    `IF ${row}.resume_position_ms > 0 THEN
       INSERT INTO continue_watching_dirty (user_id, series_id) SELECT DISTINCT ${row}.user_id, x.series_id FROM (${seriesOfFile(row)}) x
       ON CONFLICT (user_id, series_id) DO NOTHING;
     END IF;`;
  await sql
    .raw(
      `CREATE FUNCTION user_file_states_continue_watching() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN ${mark('OLD')} END IF;
  IF TG_OP <> 'DELETE' THEN ${mark('NEW')} END IF;
  RETURN NULL;
END $$`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER user_file_states_continue_watching AFTER INSERT OR DELETE OR UPDATE OF user_id, file_id, resume_position_ms, updated_at
       ON user_file_states FOR EACH ROW EXECUTE FUNCTION user_file_states_continue_watching()`,
    )
    .execute(db);
}
