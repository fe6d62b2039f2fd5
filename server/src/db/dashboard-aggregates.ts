import { sql, type RawBuilder } from 'kysely';

/**
 * What the dashboard's episode lists need per series (migration 0035), recomputed with the series aggregates for the
 * series the triggers marked (db/aggregates.ts), or for every series (the migration). `series` is a parenthesised
 * sub-query of series ids.
 *
 * - `series_recent_imports`: the newest import time of a file linked to the series' anime (RecentlyAddedSeries) and
 *   how many (imported file, link) pairs hold an AniDB episode of it (the total of RecentlyAddedEpisodes).
 * - `series_next_up`: per series and user with a watched episode, the latest update of those watch states (the
 *   activity Next Up orders by), how many of them have an AniDB episode and its length summed (Dashboard/Stats' watched
 *   figures), and the first unwatched visible episode of each kind, in Next Up's order (number, then
 *   AniDB id): normal, special, other (credits, trailer, parody, other) and special-or-other, each among all episodes
 *   and among those with a local file, so every combination of the endpoint's options reads one column.
 */
export function dashboardAggregateStatements(series: RawBuilder<unknown>): Array<RawBuilder<unknown>> {
  const content = 'f.ed2k = l.ed2k AND f.size = l.size';
  const imports = sql`WITH marked AS (SELECT id, anime_id FROM series WHERE id IN ${series}),
      latest AS (SELECT l.anime_id AS anime_id, MAX(f.imported_at) AS at FROM file_episode_links l JOIN files f ON ${sql.raw(content)}
        WHERE l.anime_id IN (SELECT anime_id FROM marked) AND f.imported_at IS NOT NULL GROUP BY l.anime_id),
      linked AS (SELECT ae.anime_id AS anime_id, COUNT(*) AS n FROM anidb_episodes ae JOIN file_episode_links l ON l.episode_id = ae.id
          JOIN files f ON ${sql.raw(content)}
        WHERE ae.anime_id IN (SELECT anime_id FROM marked) AND f.imported_at IS NOT NULL GROUP BY ae.anime_id)
    INSERT INTO series_recent_imports (series_id, last_imported_at, imported_link_count)
    SELECT m.id, latest.at, COALESCE(linked.n, 0) FROM marked m LEFT JOIN latest ON latest.anime_id = m.anime_id
      LEFT JOIN linked ON linked.anime_id = m.anime_id`;

  // Kinds: 0 normal, 1 special, 2 other; `extra` ranks specials and others together (1 for both).
  const first = (column: string, where: string, rank: string) => `MAX(CASE WHEN ${where} AND ${rank} = 1 THEN ${column} END)`;
  const firsts = (prefix: string, local: boolean) => {
    const scope = local ? 'local = 1 AND ' : '';
    const [byKind, byExtra] = local ? ['by_kind_local', 'by_extra_local'] : ['by_kind', 'by_extra'];
    return [
      `${first('id', `${scope}kind = 0`, byKind)} AS ${prefix}normal_id`,
      `${first('number', `${scope}kind = 0`, byKind)} AS ${prefix}normal_number`,
      `${first('id', `${scope}kind = 1`, byKind)} AS ${prefix}special_id`,
      `${first('id', `${scope}kind = 2`, byKind)} AS ${prefix}other_id`,
      `${first('id', `${scope}kind > 0`, byExtra)} AS ${prefix}extra_id`,
    ].join(', ');
  };
  const columns = ['normal_id', 'normal_number', 'special_id', 'other_id', 'extra_id'];
  const allColumns = [...columns, ...columns.map((c) => `local_${c}`)];
  const nextUp = sql`WITH pairs AS (SELECT e.series_id AS series_id, w.user_id AS user_id, MAX(w.updated_at) AS last_activity,
          COUNT(ae.id) AS watched_count, COALESCE(SUM(ae.length_seconds), 0) AS watched_seconds
        FROM episodes e JOIN user_episode_states w ON w.episode_id = e.id LEFT JOIN anidb_episodes ae ON ae.id = e.anidb_episode_id
        WHERE e.series_id IN ${series} AND w.watched_at IS NOT NULL GROUP BY e.series_id, w.user_id),
      candidates AS (SELECT e.id AS id, e.series_id AS series_id, ae.id AS aid, ae.number AS number,
          CASE ae.type WHEN 'Episode' THEN 0 WHEN 'Special' THEN 1 ELSE 2 END AS kind,
          CASE WHEN EXISTS (SELECT 1 FROM file_episode_links l JOIN files f ON ${sql.raw(content)} WHERE l.episode_id = e.anidb_episode_id)
            THEN 1 ELSE 0 END AS local
        FROM episodes e JOIN anidb_episodes ae ON ae.id = e.anidb_episode_id
        WHERE e.series_id IN (SELECT series_id FROM pairs) AND e.is_hidden = 0
          AND ae.type IN ('Episode', 'Special', 'Other', 'Credits', 'Trailer', 'Parody')),
      unwatched AS (SELECT p.series_id AS series_id, p.user_id AS user_id, c.id AS id, c.aid AS aid, c.number AS number, c.kind AS kind,
          c.local AS local FROM pairs p JOIN candidates c ON c.series_id = p.series_id
        WHERE NOT EXISTS (SELECT 1 FROM user_episode_states w WHERE w.episode_id = c.id AND w.user_id = p.user_id AND w.watched_at IS NOT NULL)),
      ranked AS (SELECT u.*,
          ROW_NUMBER() OVER (PARTITION BY series_id, user_id, kind ORDER BY number, aid) AS by_kind,
          ROW_NUMBER() OVER (PARTITION BY series_id, user_id, kind, local ORDER BY number, aid) AS by_kind_local,
          ROW_NUMBER() OVER (PARTITION BY series_id, user_id, CASE WHEN kind = 0 THEN 0 ELSE 1 END ORDER BY number, aid) AS by_extra,
          ROW_NUMBER() OVER (PARTITION BY series_id, user_id, CASE WHEN kind = 0 THEN 0 ELSE 1 END, local ORDER BY number, aid) AS by_extra_local
        FROM unwatched u),
      firsts AS (SELECT series_id, user_id, ${sql.raw(firsts('', false))}, ${sql.raw(firsts('local_', true))}
        FROM ranked GROUP BY series_id, user_id)
    INSERT INTO series_next_up (series_id, user_id, last_activity, watched_count, watched_seconds, ${sql.raw(allColumns.join(', '))})
    SELECT p.series_id, p.user_id, p.last_activity, p.watched_count, p.watched_seconds, ${sql.raw(allColumns.map((c) => `f.${c}`).join(', '))}
    FROM pairs p LEFT JOIN firsts f ON f.series_id = p.series_id AND f.user_id = p.user_id`;
  return [
    sql`DELETE FROM series_recent_imports WHERE series_id IN ${series}`,
    sql`DELETE FROM series_next_up WHERE series_id IN ${series}`,
    imports,
    nextUp,
  ];
}
