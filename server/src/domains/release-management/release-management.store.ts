import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { ReleaseManagementType } from '@shoko-ts/contract';
import { refreshSeriesAggregates } from '../../db/aggregates.js';
import type { DialectName } from '../../db/database.js';
import type { Database } from '../../db/schema.js';

/** Which episodes a list covers: the category, its toggles, and who is looking (restricted tags hide series). */
export interface EpisodeScope {
  type: ReleaseManagementType;
  /** Multiple releases: files flagged as variations do not count. */
  ignoreVariations: boolean;
  /** Missing episodes: only those a release group the user collects has (presumably) released. */
  collecting: boolean;
  /** SQL condition over the series row `s` (BrowseStore.seriesAllowed). */
  allowed: RawBuilder<unknown>;
  /** The viewer has restricted tags, so `allowed` hides some series. */
  restricted: boolean;
  seriesId?: number;
  today: string;
}

export interface Paging {
  page: number;
  /** 0 = everything. */
  pageSize: number;
}

/** A file of an episode in a list, with the content key the files API filters on. */
export interface EpisodeFileRow {
  episode_id: number;
  file_id: number;
  ed2k: string;
  size: number;
}

// AniDB's raw episode type numbers order episode lists: Episode 1, Credits 2, Special 3, Trailer 4, Parody 5, Other 6.
const RAW_TYPE_ORDER = sql.raw(
  `CASE x.type WHEN 'Episode' THEN 1 WHEN 'Credits' THEN 2 WHEN 'Special' THEN 3 WHEN 'Trailer' THEN 4 WHEN 'Parody' THEN 5 WHEN 'Other' THEN 6 ELSE 7 END`,
);
/**
 * What episode lists order by, selected with each episode in scope: its AniDB anime, type and number, and its series'
 * maintained name key (migration 0040: lower(title override, else main title)) and anime.
 */
const ORDER_COLUMNS = sql.raw('ae.anime_id, ae.type, ae.number, s.name_key, s.anime_id AS series_anime_id');
/** Links `l` and their stored files `f`, for a FROM clause. */
const LINKED_FILE = sql.raw('file_episode_links l JOIN files f ON f.ed2k = l.ed2k AND f.size = l.size');
/** Joins the links `l` of the AniDB episode column `episode` and their stored files `f`. */
const joinFilesOf = (episode: string) =>
  sql.raw(`JOIN file_episode_links l ON l.episode_id = ${episode} JOIN files f ON f.ed2k = l.ed2k AND f.size = l.size`);
const MORE_THAN_ONE_LOCATION = sql.raw('(SELECT COUNT(*) FROM file_locations c WHERE c.file_id = f.id) > 1');

/** The figure column of the multiples and duplicates lists, named alike in the figures (0034) and their totals (0045). */
function fileFigure(scope: EpisodeScope): string | null {
  switch (scope.type) {
    case 'MultipleReleases':
      return scope.ignoreVariations ? 'multiple_original_count' : 'multiple_count';
    case 'DuplicateFiles':
      return 'duplicate_count';
    case 'MissingEpisodes':
      return null;
  }
}

/**
 * The maintained figure of a scope's category for the series figures row `r`; `upper` gives a bound for prefiltering
 * rows (missing episodes: all of them, aired or not). Missing episodes of a series still airing are summed by air day.
 */
function figureOf(scope: EpisodeScope, upper = false): RawBuilder<unknown> {
  const column = fileFigure(scope);
  if (column) return sql.raw(`r.${column}`);
  const kind = scope.collecting ? 'collecting' : 'missing';
  const [count, last] = [sql.raw(`r.${kind}_count`), sql.raw(`r.${kind}_last_day`)];
  if (upper) return count;
  return sql`CASE WHEN ${last} <= ${scope.today} THEN ${count} ELSE (SELECT COALESCE(SUM(d.${sql.raw(kind)}_count), 0)
    FROM series_missing_days d WHERE d.series_id = r.series_id AND d.air_day <= ${scope.today}) END`;
}

const limit = (paging: Paging) =>
  paging.pageSize > 0 ? sql`LIMIT ${paging.pageSize} OFFSET ${(paging.page - 1) * paging.pageSize}` : sql``;

/**
 * The SQL of release management: which episodes have several files, files stored twice, or are missing, counted
 * and paged in the database. Series lists read the maintained per-series figures; episode lists scan the links of
 * one series (or, for the whole collection, of every series).
 */
export class ReleaseManagementStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  /**
   * Every episode in the category, for visible series (aliases e, ae, s, a joined): its id and ORDER_COLUMNS, so
   * that a page sorts them without joining them again (each relation more costs PostgreSQL planning time).
   */
  private episodesInScope(scope: EpisodeScope): RawBuilder<{ episode_id: number }> {
    const bySeries = scope.seriesId === undefined ? sql`` : sql`AND e.series_id = ${scope.seriesId}`;
    const base = sql`FROM episodes e
        JOIN anidb_episodes ae ON ae.id = e.anidb_episode_id
        JOIN series s ON s.id = e.series_id
        JOIN anidb_anime a ON a.id = s.anime_id`;
    switch (scope.type) {
      case 'MultipleReleases':
        return sql`SELECT e.id AS episode_id, ${ORDER_COLUMNS} ${base}
          ${joinFilesOf('ae.id')}
          WHERE f.ed2k <> '' ${scope.ignoreVariations ? sql`AND f.is_variation = 0` : sql``} ${bySeries} AND ${scope.allowed}
          GROUP BY e.id, ae.anime_id, ae.type, ae.number, s.name_key, s.anime_id
          HAVING COUNT(DISTINCT f.id) > 1`;
      case 'DuplicateFiles':
        return sql`SELECT e.id AS episode_id, ${ORDER_COLUMNS} ${base}
          ${joinFilesOf('ae.id')}
          WHERE ${MORE_THAN_ONE_LOCATION} ${bySeries} AND ${scope.allowed}
          GROUP BY e.id, ae.anime_id, ae.type, ae.number, s.name_key, s.anime_id`;
      case 'MissingEpisodes':
        // We keep no AniDB group-status data, so "a group you collect released it" is read from the files: a group
        // whose later episode of this anime you hold is taken to have released the earlier ones too.
        return sql`SELECT e.id AS episode_id, ${ORDER_COLUMNS} ${base}
          WHERE ae.type = 'Episode' AND e.is_hidden = 0 AND ae.air_date IS NOT NULL AND substr(ae.air_date, 1, 10) <= ${scope.today}
            AND NOT EXISTS (SELECT 1 FROM ${LINKED_FILE} WHERE l.episode_id = ae.id)
            ${
              scope.collecting
                ? sql`AND EXISTS (SELECT 1 FROM anidb_episodes later ${joinFilesOf('later.id')}
                    WHERE later.anime_id = ae.anime_id AND later.type = 'Episode' AND later.number > ae.number AND l.source = 'AniDB' AND l.release_group_id > 0)`
                : sql``
            }
            ${bySeries} AND ${scope.allowed}`;
    }
  }

  /**
   * One page of the series having episodes in scope, by name then AniDB id, with how many each has: a read of the
   * maintained figures (migration 0034, db/release-figures.ts), brought up to date first. The page walks the index of
   * the maintained name keys (migration 0040) and stops after it; the total is seriesTotal's.
   */
  async seriesPage(
    scope: EpisodeScope,
    onlyFinished: boolean,
    paging: Paging,
  ): Promise<{ total: number; rows: Array<{ series_id: number; episode_count: number }> }> {
    await refreshSeriesAggregates(this.db, this.dialect);
    // A figures row exists only for a series whose anime is stored, and carries the anime's end day (0045).
    const finished = onlyFinished ? sql`AND r.anime_end_day <= ${scope.today}` : sql``;
    const from = sql`FROM (SELECT s.id AS series_id, ${figureOf(scope)} AS episode_count, s.name_key AS name, s.anime_id AS anime_id
        FROM series s JOIN series_release_figures r ON r.series_id = s.id
        WHERE ${figureOf(scope, true)} > 0 ${finished} AND ${scope.allowed}) x
      WHERE x.episode_count > 0`;
    const { rows } = await sql<{ series_id: number; episode_count: number | string }>`
      SELECT x.series_id, x.episode_count ${from}
      ORDER BY x.name, x.anime_id
      ${limit(paging)}`.execute(this.db);
    const total =
      paging.pageSize > 0 && (rows.length === paging.pageSize || paging.page > 1)
        ? await this.seriesTotal(scope, onlyFinished, from)
        : rows.length;
    return { total, rows: rows.map((r) => ({ series_id: r.series_id, episode_count: Number(r.episode_count) })) };
  }

  /**
   * How many series a list has. Multiples and duplicates for a viewer without restrictions: the maintained total
   * (migration 0045), less the series not finished by today when only finished ones are asked for (a range of the
   * end-day index: airing anime and those without an end date). Otherwise the rows of `from` are counted.
   */
  private async seriesTotal(scope: EpisodeScope, onlyFinished: boolean, from: RawBuilder<unknown>): Promise<number> {
    const column = fileFigure(scope);
    const query =
      column && !scope.restricted
        ? sql<{ n: number | string }>`SELECT t.${sql.raw(column)} - ${
            onlyFinished
              ? sql`(SELECT COUNT(*) FROM series_release_figures r
                  WHERE r.${sql.raw(column)} > 0 AND (r.anime_end_day IS NULL OR r.anime_end_day > ${scope.today}))`
              : sql`0`
          } AS n FROM series_release_totals t`
        : sql<{ n: number | string }>`SELECT COUNT(*) AS n ${from}`;
    return Number((await query.execute(this.db)).rows[0]?.n ?? 0);
  }

  /**
   * One page of episode ids in scope. Multiple releases and duplicates: by AniDB anime, raw episode type, number;
   * missing episodes: by series name, then the series' episode order.
   */
  async episodePage(scope: EpisodeScope, paging: Paging): Promise<{ total: number; ids: number[] }> {
    const from = sql`FROM (${this.episodesInScope(scope)}) x`;
    const order =
      scope.type === 'MissingEpisodes'
        ? sql`x.name_key, x.series_anime_id, ${RAW_TYPE_ORDER}, x.number, x.episode_id`
        : sql`x.anime_id, ${RAW_TYPE_ORDER}, x.number, x.episode_id`;
    const { rows } = await sql<{
      id: number;
      total: number | string;
    }>`SELECT x.episode_id AS id, COUNT(*) OVER () AS total ${from} ORDER BY ${order} ${limit(paging)}`.execute(this.db);
    const total = rows.length
      ? Number(rows[0].total)
      : paging.page > 1
        ? Number((await sql<{ n: number | string }>`SELECT COUNT(*) AS n ${from}`.execute(this.db)).rows[0]?.n ?? 0)
        : 0;
    return { total, ids: rows.map((r) => r.id) };
  }

  /** Files of the given episodes; with `duplicatesOnly` only those stored in more than one place. Hashed files only. */
  async episodeFiles(episodeIds: number[], duplicatesOnly: boolean): Promise<EpisodeFileRow[]> {
    const result: EpisodeFileRow[] = [];
    for (let i = 0; i < episodeIds.length; i += 500) {
      const { rows } = await sql<EpisodeFileRow>`
        SELECT DISTINCT e.id AS episode_id, f.id AS file_id, f.ed2k, f.size
        FROM episodes e ${joinFilesOf('e.anidb_episode_id')}
        WHERE e.id IN (${sql.join(episodeIds.slice(i, i + 500))}) AND f.ed2k <> ''
          ${duplicatesOnly ? sql`AND ${MORE_THAN_ONE_LOCATION}` : sql``}
        ORDER BY e.id, f.id`.execute(this.db);
      result.push(...rows.map((r) => ({ ...r, size: Number(r.size) })));
    }
    return result;
  }

  /** Series id of each episode. */
  async seriesOfEpisodes(episodeIds: number[]): Promise<Map<number, number>> {
    const result = new Map<number, number>();
    for (let i = 0; i < episodeIds.length; i += 500) {
      const rows = await this.db
        .selectFrom('episodes')
        .select(['id', 'series_id'])
        .where('id', 'in', episodeIds.slice(i, i + 500))
        .execute();
      for (const row of rows) result.set(row.id, row.series_id);
    }
    return result;
  }

  /** Locations of files in id order, accessible ones flagged. */
  /** `folder_available` is 0 while the location's import folder is offline (issue 49). */
  async locationsOf(fileIds: number[]): Promise<Array<{ id: number; file_id: number; is_accessible: number; folder_available: number }>> {
    const result: Array<{ id: number; file_id: number; is_accessible: number; folder_available: number }> = [];
    for (let i = 0; i < fileIds.length; i += 500) {
      result.push(
        ...(await this.db
          .selectFrom('file_locations')
          .innerJoin('import_folders', 'import_folders.id', 'file_locations.import_folder_id')
          .select([
            'file_locations.id',
            'file_locations.file_id',
            'file_locations.is_accessible',
            'import_folders.is_available as folder_available',
          ])
          .where('file_locations.file_id', 'in', fileIds.slice(i, i + 500))
          .orderBy('file_locations.id')
          .execute()),
      );
    }
    return result;
  }

  /** What the quality ranking reads of files: media info and the AniDB release data. */
  async qualityFacts(fileIds: number[]): Promise<QualityFacts[]> {
    const result: QualityFacts[] = [];
    for (let i = 0; i < fileIds.length; i += 500) {
      const rows = await this.db
        .selectFrom('files as f')
        .leftJoin('anidb_files as af', (join) => join.onRef('af.ed2k', '=', 'f.ed2k').onRef('af.size', '=', 'f.size'))
        .leftJoin('anidb_release_groups as rg', 'rg.id', 'af.group_id')
        .select([
          'f.id',
          'f.media_info',
          'af.source',
          'af.version',
          'af.is_chaptered',
          'af.file_id as anidb_file_id',
          'rg.name as group_name',
          'rg.short_name as group_short',
        ])
        .where('f.id', 'in', fileIds.slice(i, i + 500))
        .execute();
      result.push(...rows);
    }
    return result;
  }
}

export interface QualityFacts {
  id: number;
  media_info: string | null;
  source: string | null;
  version: number | null;
  is_chaptered: number | null;
  anidb_file_id: number | null;
  group_name: string | null;
  group_short: string | null;
}
