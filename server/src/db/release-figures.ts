import { sql, type RawBuilder } from 'kysely';

/**
 * The maintained per-series tables of release management's series lists (migration 0034). `series_release_totals`
 * (0045) follows series_release_figures through triggers.
 */
export const RELEASE_FIGURE_TABLES = ['series_release_figures', 'series_missing_days'];

/**
 * Recomputes the release figures of the marked series, inside the series aggregates' refresh (db/aggregates.ts),
 * from its working sets: `links` (one row per episode of a marked series, link and local file of the same content;
 * `episode_id` is the AniDB episode) and `episodes` (one row per episode of a marked series). `list` selects the
 * marked ids. Definitions are release management's (release-management.store.ts):
 * - several releases: more than one hashed file (`multiple_original_count`: not counting variations);
 * - duplicates: a linked file with more than one location;
 * - missing: a visible normal episode with an air date and no local file, counted by air day; "collecting" when a
 *   normal episode numbered after it has a file a release group made (an AniDB link with a group). The later episodes
 *   are looked up under the series' anime, the anime every episode of the series belongs to.
 * A series gets a figures row only while its AniDB anime is stored (the lists join it), with the anime's end day, so
 * "only finished series" is decided from the row on the day of the request (0045).
 */
export function releaseFigureStatements(
  list: RawBuilder<unknown>,
  links: RawBuilder<unknown>,
  episodes: RawBuilder<unknown>,
): Array<RawBuilder<unknown>> {
  const lastGrouped = sql`SELECT s.id AS series_id, MAX(later.number) AS number
    FROM series s JOIN anidb_episodes later ON later.anime_id = s.anime_id
      JOIN file_episode_links l ON l.episode_id = later.id JOIN files f ON f.ed2k = l.ed2k AND f.size = l.size
    WHERE s.id IN ${list} AND later.type = 'Episode' AND l.source = 'AniDB' AND l.release_group_id > 0
    GROUP BY s.id`;
  const missingDays = sql`INSERT INTO series_missing_days (series_id, air_day, missing_count, collecting_count)
    SELECT e.series_id, substr(e.air_date, 1, 10), COUNT(*), SUM(CASE WHEN e.number < g.number THEN 1 ELSE 0 END)
    FROM ${episodes} e LEFT JOIN (${lastGrouped}) g ON g.series_id = e.series_id
    WHERE e.is_hidden = 0 AND e.type = 'Episode' AND e.air_date IS NOT NULL AND e.has_file = 0
    GROUP BY e.series_id, substr(e.air_date, 1, 10)`;
  const perEpisode = sql`SELECT r.series_id, r.episode_id,
      COUNT(DISTINCT CASE WHEN f.ed2k <> '' THEN f.id END) AS releases,
      COUNT(DISTINCT CASE WHEN f.ed2k <> '' AND f.is_variation = 0 THEN f.id END) AS originals,
      MAX(CASE WHEN (SELECT COUNT(*) FROM file_locations c WHERE c.file_id = f.id) > 1 THEN 1 ELSE 0 END) AS duplicated
    FROM ${links} r JOIN files f ON f.id = r.file_id JOIN anidb_episodes ae ON ae.id = r.episode_id
    GROUP BY r.series_id, r.episode_id`;
  const fileFigures = sql`SELECT p.series_id,
      SUM(CASE WHEN p.releases > 1 THEN 1 ELSE 0 END) AS multiple_count,
      SUM(CASE WHEN p.originals > 1 THEN 1 ELSE 0 END) AS multiple_original_count,
      SUM(p.duplicated) AS duplicate_count
    FROM (${perEpisode}) p GROUP BY p.series_id`;
  const missingFigures = sql`SELECT series_id, SUM(missing_count) AS missing_count, MAX(air_day) AS missing_last_day,
      SUM(collecting_count) AS collecting_count, MAX(CASE WHEN collecting_count > 0 THEN air_day END) AS collecting_last_day
    FROM series_missing_days WHERE series_id IN ${list} GROUP BY series_id`;
  const figures = sql`INSERT INTO series_release_figures (series_id, multiple_count, multiple_original_count, duplicate_count,
      missing_count, missing_last_day, collecting_count, collecting_last_day, anime_end_day)
    SELECT s.id, COALESCE(ff.multiple_count, 0), COALESCE(ff.multiple_original_count, 0), COALESCE(ff.duplicate_count, 0),
      COALESCE(mf.missing_count, 0), mf.missing_last_day, COALESCE(mf.collecting_count, 0), mf.collecting_last_day,
      substr(a.end_date, 1, 10)
    FROM series s JOIN anidb_anime a ON a.id = s.anime_id
      LEFT JOIN (${fileFigures}) ff ON ff.series_id = s.id LEFT JOIN (${missingFigures}) mf ON mf.series_id = s.id
    WHERE s.id IN ${list}
      AND (ff.multiple_count > 0 OR ff.multiple_original_count > 0 OR ff.duplicate_count > 0 OR mf.series_id IS NOT NULL)`;
  return [missingDays, figures];
}
