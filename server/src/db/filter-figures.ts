import { sql, type RawBuilder } from 'kysely';
import type { DialectName } from './database.js';

/** The maintained tables of the filter catalogue's base-table expressions (migration 0039). */
export const FILTER_FIGURE_TABLES = ['series_filter_figures', 'series_file_folders'];

/** Closes each path in `series_filter_figures.file_paths`; a needle holding it cannot be looked up there. */
export const FILE_PATH_SEPARATOR = '\u001f';

/**
 * Recomputes the filter figures of the marked series, inside the series aggregates' refresh (db/aggregates.ts), from
 * its working sets: `links` (one row per episode of a marked series, link and local file of the same content;
 * `episode_id` is the AniDB episode, `release_group` the group of the file's AniDB record, 0 or null without one) and `episodes` (one row per episode of a marked series, with its AniDB type and
 * number and whether it has a local file). `list` selects the marked ids. Definitions are the filters'
 * (domains/filters/compiler/):
 * - folders and paths: the locations of the files linked to the series' episodes;
 * - collecting: a visible normal episode without a local file, with a normal episode of the same or a higher number
 *   in the series that has a local file AniDB knows a release group of (any air date, hidden or not).
 */
export function filterFigureStatements(
  list: RawBuilder<unknown>,
  links: RawBuilder<unknown>,
  episodes: RawBuilder<unknown>,
  dialect: DialectName,
): Array<RawBuilder<unknown>> {
  const separator = sql.raw(dialect === 'postgres' ? 'chr(31)' : 'char(31)');
  const concat = dialect === 'postgres' ? sql`string_agg(p.path || ${separator}, '')` : sql`group_concat(p.path || ${separator}, '')`;
  const locations = sql`SELECT DISTINCT r.series_id, fl.id, fl.import_folder_id, fl.relative_path
    FROM ${links} r JOIN file_locations fl ON fl.file_id = r.file_id`;
  const folders = sql`INSERT INTO series_file_folders (series_id, import_folder_id, location_count)
    SELECT p.series_id, p.import_folder_id, COUNT(*) FROM (${locations}) p GROUP BY p.series_id, p.import_folder_id`;
  const paths = sql`SELECT p.series_id, ${separator} || ${concat} AS paths
    FROM (SELECT q.series_id, lower(q.relative_path) AS path FROM (${locations}) q) p GROUP BY p.series_id`;
  // The release group is the working set's (the file's AniDB record, joined when the set was made): joining files and
  // anidb_files again on ed2k and size here, PostgreSQL expected one row of 100,000 and read every episode of the
  // refresh once per series (35 s of a refresh of 5,000 series).
  const lastGrouped = sql`SELECT r.series_id, MAX(ae.number) AS number
    FROM ${links} r JOIN anidb_episodes ae ON ae.id = r.episode_id
    WHERE ae.type = 'Episode' AND r.release_group > 0 GROUP BY r.series_id`;
  const collecting = sql`SELECT e.series_id, COUNT(*) AS n FROM ${episodes} e JOIN (${lastGrouped}) g ON g.series_id = e.series_id
    WHERE e.is_hidden = 0 AND e.type = 'Episode' AND e.has_file = 0 AND e.number <= g.number GROUP BY e.series_id`;
  const figures = sql`INSERT INTO series_filter_figures (series_id, collecting_missing_count, file_paths)
    SELECT s.id, COALESCE(c.n, 0), p.paths
    FROM series s LEFT JOIN (${collecting}) c ON c.series_id = s.id LEFT JOIN (${paths}) p ON p.series_id = s.id
    WHERE s.id IN ${list} AND (c.n > 0 OR p.paths IS NOT NULL)`;
  return [folders, figures];
}
