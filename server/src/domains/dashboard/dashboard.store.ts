import { sql, type Kysely } from 'kysely';
import type {
  AnidbAnimeRecommendedForYou,
  DashboardCollectionStats,
  DashboardEpisode,
  DashboardSeriesSummary,
  Tag,
} from '@shoko-ts/contract';
import { refreshSeriesAggregates } from '../../db/aggregates.js';
import { continueWatchingChoice, refreshContinueWatching } from '../../db/continue-watching.js';
import { collectionStats, hiddenFileFigures, type CollectionStatsRow } from '../../db/collection-stats.js';
import type { DialectName } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { animeType, posterOf } from '../series/index.js';
import type { Viewer } from '../../http/viewer.js';
import { keepCategory, tagCategory } from '../tags/index.js';
import {
  EPISODE_COLUMNS,
  limitOffset,
  num,
  pageWithTotal,
  restrictedClause,
  toEpisode,
  type EpisodeListOptions,
  type EpisodeRow,
  type IncludeOnly,
  type Page,
  type SeriesAllowed,
  type TotalColumn,
} from './dashboard-sql.store.js';

/**
 * The dashboard's read side: every figure is one aggregate query over the whole collection, so the panels stay
 * fast on big collections (no per-series loops in JavaScript).
 */
export class DashboardStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly seriesAllowed: SeriesAllowed,
    private readonly dialect: DialectName,
    /** The names of AniDB tags and their ancestors, root first (the tags domain's, given at wiring). */
    private readonly tagAncestry: (tagIds: number[]) => Promise<Map<number, string[]>>,
  ) {}

  async stats(viewer: Viewer, today: string): Promise<DashboardCollectionStats> {
    await refreshSeriesAggregates(this.db, this.dialect);
    const allowed = this.seriesAllowed(viewer, 's');
    const userId = viewer.userId;
    // Local = an episode with at least one file record of its content.
    const local = sql.raw(
      'EXISTS (SELECT 1 FROM file_episode_links l JOIN files f ON f.ed2k = l.ed2k AND f.size = l.size WHERE l.episode_id = e.anidb_episode_id)',
    );
    // The file figures come from the maintained row (db/collection-stats.ts); a viewer with tag restrictions has what
    // the hidden series alone hold taken off.
    const fileFigures = async (): Promise<CollectionStatsRow> => {
      const everyone = await collectionStats(this.db, this.dialect);
      if (!viewer.restrictedTags.length) return everyone;
      const hidden = hiddenFileFigures(allowed);
      const [files, multiples] = await Promise.all([hidden.files.execute(this.db), hidden.multiples.execute(this.db)]);
      return {
        ...everyone,
        file_count: everyone.file_count - num(files.rows[0]?.count),
        file_size: everyone.file_size - num(files.rows[0]?.size),
        multiple_file_episodes: everyone.multiple_file_episodes - num(multiples.rows[0]?.count),
      };
    };
    const [series, watched, perSeries, missingLinks, fileStats] = await Promise.all([
      sql<{
        series: unknown;
        groups: unknown;
      }>`SELECT COUNT(*) AS series, COUNT(DISTINCT s.group_id) AS groups FROM series s WHERE ${allowed}`.execute(this.db),
      sql<{
        count: unknown;
        seconds: unknown;
      }>`-- Watched episodes and their length, maintained per series and user (migration 0035).
        SELECT COALESCE(SUM(n.watched_count), 0) AS count, COALESCE(SUM(n.watched_seconds), 0) AS seconds FROM series_next_up n
        JOIN series s ON s.id = n.series_id WHERE n.user_id = ${userId} AND ${allowed}`.execute(this.db),
      // Per series, from the maintained aggregates (db/aggregates.ts): local and watched normal episodes, aired
      // normal/special episodes without a file (by air date), and the gaps before the last local normal episode (only a
      // series with such a gap still to air is counted from its episodes).
      sql<{ finished: unknown; missing: unknown; collecting: unknown }>`SELECT
          SUM(CASE WHEN sa.local_normal_count > 0 AND COALESCE(ua.watched_normal_local_count, 0) >= sa.local_normal_count THEN 1 ELSE 0 END) AS finished,
          (SELECT COALESCE(SUM(v.file_count), 0) FROM series s JOIN series_aggregate_values v ON v.series_id = s.id
            WHERE ${allowed} AND v.kind = 'missing_air' AND v.value <= ${today}) AS missing,
          SUM(CASE WHEN sa.collecting_count = 0 THEN 0 WHEN sa.collecting_last_air <= ${today} THEN sa.collecting_count
            ELSE (SELECT COUNT(*) FROM episodes e JOIN anidb_episodes ae ON ae.id = e.anidb_episode_id WHERE e.series_id = s.id AND e.is_hidden = 0
              AND ae.type = 'Episode' AND ae.air_date IS NOT NULL AND ae.air_date <= ${today} AND NOT ${local}
              AND ae.number < (SELECT MAX(ae2.number) FROM episodes e2 JOIN anidb_episodes ae2 ON ae2.id = e2.anidb_episode_id
                WHERE e2.series_id = s.id AND ae2.type = 'Episode' AND EXISTS (SELECT 1 FROM file_episode_links l JOIN files f ON f.ed2k = l.ed2k AND f.size = l.size WHERE l.episode_id = e2.anidb_episode_id))) END) AS collecting
        FROM series s JOIN series_aggregates sa ON sa.series_id = s.id
          LEFT JOIN series_user_aggregates ua ON ua.series_id = s.id AND ua.user_id = ${userId}
        WHERE ${allowed}`.execute(this.db),
      sql<{ count: unknown }>`SELECT COUNT(*) AS count FROM series s JOIN anidb_anime a ON a.id = s.anime_id
        WHERE a.type NOT IN ('Music Video', 'Other', 'unknown', 'Unknown') AND ${allowed}
          AND NOT EXISTS (SELECT 1 FROM xref_anidb_tmdb_show x WHERE x.anime_id = s.anime_id)
          AND NOT EXISTS (SELECT 1 FROM xref_anidb_tmdb_movie m WHERE m.anime_id = s.anime_id)`.execute(this.db),
      fileFigures(),
    ]);
    const multipleFiles = fileStats.multiple_file_episodes;
    return {
      FileCount: fileStats.file_count,
      SeriesCount: num(series.rows[0]?.series),
      GroupCount: num(series.rows[0]?.groups),
      FileSize: fileStats.file_size,
      FinishedSeries: num(perSeries.rows[0]?.finished),
      WatchedEpisodes: num(watched.rows[0]?.count),
      WatchedHours: Math.round(num(watched.rows[0]?.seconds) / 360) / 10,
      PercentDuplicate: fileStats.location_count ? Math.round((multipleFiles * 10000) / fileStats.location_count) / 100 : 0,
      MissingEpisodes: num(perSeries.rows[0]?.missing),
      MissingEpisodesCollecting: num(perSeries.rows[0]?.collecting),
      UnrecognizedFiles: fileStats.unrecognized_files,
      SeriesWithMissingLinks: num(missingLinks.rows[0]?.count),
      EpisodesWithMultipleFiles: multipleFiles,
      FilesWithDuplicateLocations: fileStats.duplicate_location_files,
    };
  }

  async seriesSummary(viewer: Viewer): Promise<DashboardSeriesSummary> {
    const { rows } = await sql<{ type: string | null; count: unknown }>`SELECT a.type AS type, COUNT(*) AS count FROM series s
      LEFT JOIN anidb_anime a ON a.id = s.anime_id WHERE ${this.seriesAllowed(viewer, 's')} GROUP BY a.type`.execute(this.db);
    const summary: DashboardSeriesSummary = {
      Series: 0,
      OVA: 0,
      Movie: 0,
      Special: 0,
      Web: 0,
      Other: 0,
      MusicVideo: 0,
      Unknown: 0,
      None: 0,
    };
    const key: Record<string, keyof DashboardSeriesSummary> = {
      TV: 'Series',
      TVSpecial: 'Special',
      OVA: 'OVA',
      Movie: 'Movie',
      Web: 'Web',
      Other: 'Other',
      MusicVideo: 'MusicVideo',
      Unknown: 'Unknown',
    };
    // AniDB writes `TV Series`; the loopback fake (demo, tests) writes `TV`.
    for (const row of rows) summary[row.type === null ? 'None' : key[row.type === 'TV' ? 'TV' : animeType(row.type)]] += num(row.count);
    return summary;
  }

  /**
   * The series the viewer may see, with their maintained import figures (migration 0035), brought up to date first.
   * `a` is the series' anime, whose existence the lists require.
   */
  /** `newestFirst`: SQLite walks the maintained rows by import time (a CROSS JOIN keeps them the outer loop). */
  private async recentImports(viewer: Viewer, restricted: IncludeOnly, newestFirst = false) {
    await refreshSeriesAggregates(this.db, this.dialect);
    const join = sql.raw(newestFirst && this.dialect === 'sqlite' ? 'CROSS JOIN' : 'JOIN');
    return sql`FROM series_recent_imports r ${join} series s ON s.id = r.series_id JOIN anidb_anime a ON a.id = s.anime_id
      WHERE ${this.seriesAllowed(viewer, 's')} AND ${restrictedClause(restricted)}`;
  }

  /** One entry per (imported file, linked episode), newest import first. */
  async recentlyAddedEpisodes(viewer: Viewer, page: Page, restricted: IncludeOnly): Promise<{ Total: number; List: DashboardEpisode[] }> {
    // The newest imports first: both databases are made to walk files by import time (the files_imported index) as the
    // outer loop, so a page stops after its rows instead of joining and sorting every link: SQLite by a CROSS JOIN,
    // PostgreSQL by a lateral sub-query it cannot pull up (OFFSET 0). Only the page's rows are then looked up. The
    // total sums the series' maintained link counts.
    const series = sql`JOIN anidb_episodes ae ON ae.id = l.episode_id JOIN anidb_anime a ON a.id = ae.anime_id
      JOIN series s ON s.anime_id = ae.anime_id`;
    const visible = sql`${this.seriesAllowed(viewer, 's')} AND ${restrictedClause(restricted)}`;
    const entries =
      this.dialect === 'sqlite'
        ? sql`SELECT f.id AS fid, f.imported_at AS at, l.id AS lid, l.ordering AS ordering, s.id AS sid
            FROM files f CROSS JOIN file_episode_links l ON l.ed2k = f.ed2k AND l.size = f.size ${series} WHERE f.imported_at IS NOT NULL AND ${visible}`
        : sql`SELECT f.id AS fid, f.imported_at AS at, x.lid, x.ordering, x.sid FROM files f
            CROSS JOIN LATERAL (SELECT l.id AS lid, l.ordering AS ordering, s.id AS sid FROM file_episode_links l ${series}
              WHERE l.ed2k = f.ed2k AND l.size = f.size AND ${visible} OFFSET 0) x
            WHERE f.imported_at IS NOT NULL`;
    const imports = await this.recentImports(viewer, restricted);
    const [total, list] = await Promise.all([
      sql<{ count: unknown }>`SELECT COALESCE(SUM(r.imported_link_count), 0) AS count ${imports}`.execute(this.db),
      sql<EpisodeRow>`WITH page AS (${entries} ORDER BY at DESC, fid DESC, ordering ${limitOffset(page)})
            SELECT ${EPISODE_COLUMNS}, f.id AS file_id, f.media_info AS media_info,
              (SELECT u.resume_position_ms FROM user_file_states u WHERE u.file_id = f.id AND u.user_id = ${viewer.userId}) AS resume_position_ms,
              (SELECT w.watched_at FROM user_episode_states w WHERE w.episode_id = e.id AND w.user_id = ${viewer.userId}) AS watched_at
            FROM page p JOIN files f ON f.id = p.fid JOIN file_episode_links l ON l.id = p.lid JOIN anidb_episodes ae ON ae.id = l.episode_id
              JOIN anidb_anime a ON a.id = ae.anime_id JOIN series s ON s.id = p.sid
              LEFT JOIN episodes e ON e.series_id = s.id AND e.anidb_episode_id = ae.id
            ORDER BY p.at DESC, p.fid DESC, p.ordering`.execute(this.db),
    ]);
    return { Total: num(total.rows[0]?.count), List: list.rows.map(toEpisode) };
  }

  /** Series ids by their most recent file import (maintained, migration 0035), newest first. */
  async recentlyAddedSeriesIds(viewer: Viewer, page: Page, restricted: IncludeOnly): Promise<{ Total: number; ids: number[] }> {
    const from = sql`${await this.recentImports(viewer, restricted, true)} AND r.last_imported_at IS NOT NULL`;
    // The page is a walk of the import-time index that stops after its rows; a window count in it would make it visit
    // every series (20,000 at 400k files: ~110 ms on PostgreSQL), so the total is its own query.
    const [count, list] = await Promise.all([
      sql<{ count: unknown }>`SELECT COUNT(*) AS count ${from}`.execute(this.db),
      sql<{ id: number }>`SELECT s.id AS id ${from} ORDER BY r.last_imported_at DESC, r.series_id DESC ${limitOffset(page)}`.execute(
        this.db,
      ),
    ]);
    return { Total: num(count.rows[0]?.count), ids: list.rows.map((r) => num(r.id)) };
  }

  /**
   * Per series with an active watch session (most recent activity first): the episode whose file has the most recently
   * updated non-zero resume position. Read from the maintained rows (db/continue-watching.ts): the page is a walk of
   * their order index, looking up only its rows.
   */
  async continueWatching(viewer: Viewer, page: Page, options: EpisodeListOptions): Promise<{ Total: number; List: DashboardEpisode[] }> {
    await refreshSeriesAggregates(this.db, this.dialect);
    await refreshContinueWatching(this.db, this.dialect);
    const choice = continueWatchingChoice(options.includeSpecials, options.includeOthers);
    const from = sql`FROM continue_watching c JOIN series s ON s.id = c.series_id JOIN anidb_anime a ON a.id = s.anime_id
      WHERE c.user_id = ${viewer.userId} AND c.choice = ${choice} AND ${this.seriesAllowed(viewer, 's')} AND ${restrictedClause(options.restricted)}`;
    const [count, list] = await Promise.all([
      sql<{ count: unknown }>`SELECT COUNT(*) AS count ${from}`.execute(this.db),
      sql<EpisodeRow>`WITH paged AS (SELECT c.* ${from} ORDER BY c.last_activity DESC, c.series_id ${limitOffset(page)})
            SELECT ${EPISODE_COLUMNS}, c.file_id AS file_id, c.position_ms AS resume_position_ms, f.media_info AS media_info,
              (SELECT w.watched_at FROM user_episode_states w WHERE w.episode_id = e.id AND w.user_id = ${viewer.userId}) AS watched_at
            FROM paged c JOIN episodes e ON e.id = c.episode_id JOIN series s ON s.id = c.series_id
              JOIN anidb_episodes ae ON ae.id = e.anidb_episode_id JOIN anidb_anime a ON a.id = s.anime_id JOIN files f ON f.id = c.file_id
            ORDER BY c.last_activity DESC, c.series_id`.execute(this.db),
    ]);
    return { Total: num(count.rows[0]?.count), List: list.rows.map(toEpisode) };
  }

  /**
   * Per series the user has watched something of (most recent activity first): the first unwatched, not hidden
   * episode (normal episodes before specials). A series whose next episode would be E1 is not suggested.
   * `onlyUnwatched` leaves out series with an active watch session; otherwise that session's episode is the suggestion
   * (Continue Watching combined into Next Up). The first unwatched episodes and the watch activity come from the
   * maintained rows (migration 0035, db/dashboard-aggregates.ts), the sessions from Continue Watching's (migration 0061,
   * db/continue-watching.ts).
   */
  async nextUp(
    viewer: Viewer,
    page: Page,
    options: EpisodeListOptions & { includeMissing: boolean; onlyUnwatched: boolean },
  ): Promise<{ Total: number; List: DashboardEpisode[] }> {
    await refreshSeriesAggregates(this.db, this.dialect);
    await refreshContinueWatching(this.db, this.dialect);
    const userId = viewer.userId;
    const column = (name: string) => sql.raw(`n.${options.includeMissing ? '' : 'local_'}${name}`);
    const extra =
      options.includeSpecials && options.includeOthers
        ? 'extra_id'
        : options.includeSpecials
          ? 'special_id'
          : options.includeOthers
            ? 'other_id'
            : null;
    const next = extra ? sql`COALESCE(${column('normal_id')}, ${column(extra)})` : column('normal_id');
    // A session's series takes its session's episode (latest activity of the two), or is left out (onlyUnwatched).
    const inProgress = options.onlyUnwatched ? sql.raw('') : sql`UNION ALL SELECT c.sid, c.eid, c.fid, c.pos, c.last FROM sessions c`;
    const choice = continueWatchingChoice(options.includeSpecials, options.includeOthers);
    const base = sql`WITH sessions AS (SELECT c.series_id AS sid, c.episode_id AS eid, c.file_id AS fid, c.position_ms AS pos,
          c.last_activity AS last FROM continue_watching c WHERE c.user_id = ${userId} AND c.choice = ${choice}),
      picks AS (
        SELECT n.series_id AS sid, ${next} AS eid, CAST(NULL AS INTEGER) AS fid, CAST(NULL AS INTEGER) AS pos, n.last_activity AS last
        FROM series_next_up n
        WHERE n.user_id = ${userId} AND ${next} IS NOT NULL AND NOT (${column('normal_id')} IS NOT NULL AND ${column('normal_number')} = 1)
          AND n.series_id NOT IN (SELECT sid FROM sessions)
        ${inProgress})`;
    const where = sql`FROM picks p JOIN series s ON s.id = p.sid JOIN anidb_anime a ON a.id = s.anime_id
      WHERE ${this.seriesAllowed(viewer, 's')} AND ${restrictedClause(options.restricted)}`;
    // The page is chosen from the picks alone; only its rows look up their episodes. The total is its own query beside
    // it: a window count in the page would visit every pick (17,000 at 400k files: ~100-250 ms on PostgreSQL).
    const [count, list] = await Promise.all([
      sql<{ count: unknown }>`${base} SELECT COUNT(*) AS count ${where}`.execute(this.db),
      sql<EpisodeRow>`${base}, paged AS (SELECT p.* ${where} ORDER BY p.last DESC, p.sid ${limitOffset(page)})
          SELECT ${EPISODE_COLUMNS}, c.fid AS file_id, c.pos AS resume_position_ms,
            (SELECT f.media_info FROM files f WHERE f.id = c.fid) AS media_info, NULL AS watched_at
          FROM paged c JOIN episodes e ON e.id = c.eid JOIN series s ON s.id = e.series_id
            JOIN anidb_episodes ae ON ae.id = e.anidb_episode_id JOIN anidb_anime a ON a.id = s.anime_id
          ORDER BY c.last DESC, c.sid`.execute(this.db),
    ]);
    const total = num(count.rows[0]?.count);
    const rows = list.rows;
    const files = await this.firstFiles(rows.filter((r) => r.file_id === null).map((r) => num(r.anidb_episode_id)));
    return {
      Total: total,
      List: rows.map((r) => toEpisode(r.file_id === null ? { ...r, file_id: files.get(num(r.anidb_episode_id)) ?? null } : r)),
    };
  }

  /** The lowest file id holding each AniDB episode. */
  private async firstFiles(anidbEpisodeIds: number[]): Promise<Map<number, number>> {
    if (!anidbEpisodeIds.length) return new Map();
    const { rows } = await sql<{
      episode_id: number;
      file_id: unknown;
    }>`SELECT l.episode_id AS episode_id, MIN(f.id) AS file_id FROM file_episode_links l
      JOIN files f ON f.ed2k = l.ed2k AND f.size = l.size WHERE l.episode_id IN (${sql.join(anidbEpisodeIds)}) GROUP BY l.episode_id`.execute(
      this.db,
    );
    return new Map(rows.map((r) => [num(r.episode_id), num(r.file_id)]));
  }

  /**
   * AniDB episodes airing from `from` through `to` (inclusive), by air date. `missing` is about anime without a series
   * in the collection: left out (`false`), included (`true`) or the only ones (`only`).
   */
  async calendar(
    viewer: Viewer,
    range: { from: string; to: string },
    missing: IncludeOnly,
    restricted: IncludeOnly,
  ): Promise<DashboardEpisode[]> {
    // `e.series_id + 0`: the episode is found by its unique AniDB episode, not among all of its series' episodes, which
    // PostgreSQL preferred by its estimates (20 ms of a month at 400k files, 10 this way).
    const inCollection = missing === 'true' ? sql.raw('1 = 1') : missing === 'only' ? sql.raw('s.id IS NULL') : sql.raw('s.id IS NOT NULL');
    const { rows } = await sql<EpisodeRow>`SELECT ${EPISODE_COLUMNS}, NULL AS file_id, NULL AS watched_at
      FROM anidb_episodes ae JOIN anidb_anime a ON a.id = ae.anime_id LEFT JOIN series s ON s.anime_id = a.id
      LEFT JOIN episodes e ON e.anidb_episode_id = ae.id AND e.series_id + 0 = s.id
      WHERE ae.air_date IS NOT NULL AND ae.air_date >= ${range.from} AND ae.air_date <= ${`${range.to}T99`}
        AND ${inCollection} AND (s.id IS NULL OR ${this.seriesAllowed(viewer, 's')}) AND ${restrictedClause(restricted)}
      ORDER BY ae.air_date, a.id, ae.number LIMIT 1000`.execute(this.db);
    return rows.map(toEpisode);
  }

  /** The AniDB tags most used by the series the viewer may see, `Weight` = how many series; `filter` is TagFilter.Filter. */
  async topTags(viewer: Viewer, page: Page, filter: number): Promise<Tag[]> {
    const { rows } = await sql<{
      id: number;
      parent_id: number | null;
      name: string;
      is_spoiler: number;
      is_verified: number;
      updated_at: string;
      uses: unknown;
    }>`
      SELECT t.id, t.parent_id, t.name, t.is_spoiler, t.is_verified, t.updated_at, c.uses
      FROM (SELECT at.tag_id, COUNT(*) AS uses FROM series s JOIN anidb_anime_tags at ON at.anime_id = s.anime_id
        WHERE ${this.seriesAllowed(viewer, 's')} GROUP BY at.tag_id) c
      JOIN anidb_tags t ON t.id = c.tag_id
      ORDER BY c.uses DESC, t.name, t.id`.execute(this.db);
    // A series has one anime and an anime each tag once, so the pairs counted per tag are distinct series; counting
    // them by tag id before reading the tags is about half the work of grouping by every tag column.
    // Categories come from the tag tree, so the filter runs here over the (few thousand at most) tags in use.
    const ancestry = await this.tagAncestry(rows.map((r) => r.id));
    const kept = rows.filter((r) => keepCategory(filter, tagCategory(ancestry.get(r.id) ?? [r.name])));
    const start = (Math.max(page.page, 1) - 1) * page.pageSize;
    return (page.pageSize ? kept.slice(start, start + page.pageSize) : kept).map((r) => ({
      ID: r.id,
      ParentID: r.parent_id,
      Name: r.name,
      IsVerified: !!num(r.is_verified),
      IsSpoiler: !!num(r.is_spoiler),
      Weight: num(r.uses),
      LastUpdated: new Date(r.updated_at).toISOString(),
      Source: 'AniDB',
    }));
  }

  /**
   * AniDB's similar anime of everything the user watched (in the period), that they have not watched themselves;
   * `SimilarTo` = how many watched anime point to it.
   */
  async recommended(
    viewer: Viewer,
    page: Page,
    options: { showAll: boolean; restricted: IncludeOnly; start: string | null; end: string | null; approval: number },
  ): Promise<{ Total: number; List: AnidbAnimeRecommendedForYou[] }> {
    await refreshSeriesAggregates(this.db, this.dialect);
    // The anime the user watched anything of (hidden episodes too): the maintained per-user rows have a last watched
    // day exactly then, instead of every watch state joined to its episode (~30k rows at 100k files). A period needs
    // the watch times themselves.
    const seen = sql`SELECT s.anime_id AS anime_id FROM series_user_aggregates ua JOIN series s ON s.id = ua.series_id
      WHERE ua.user_id = ${viewer.userId} AND ua.last_watched IS NOT NULL`;
    const watched = options.start
      ? sql`SELECT DISTINCT s.anime_id AS anime_id FROM user_episode_states w JOIN episodes e ON e.id = w.episode_id
          JOIN series s ON s.id = e.series_id WHERE w.user_id = ${viewer.userId} AND w.watched_at IS NOT NULL
            AND w.watched_at >= ${options.start} AND w.watched_at <= ${options.end ?? new Date().toISOString()}`
      : seen;
    const base = sql`WITH watched AS (${watched}),
      seen AS (${seen}),
      picks AS (SELECT sim.similar_anime_id AS aid, COUNT(*) AS similar_to FROM anidb_similar sim JOIN watched wa ON wa.anime_id = sim.anime_id
        JOIN anidb_anime a ON a.id = sim.similar_anime_id LEFT JOIN series s ON s.anime_id = a.id
        WHERE sim.similar_anime_id NOT IN (SELECT anime_id FROM seen) AND ${options.showAll ? sql.raw('1 = 1') : sql.raw('s.id IS NOT NULL')}
          AND (s.id IS NULL OR ${this.seriesAllowed(viewer, 's')}) AND ${restrictedClause(options.restricted)}
          AND (sim.total = 0 OR sim.approval * 1.0 / sim.total >= ${options.approval})
        GROUP BY sim.similar_anime_id)`;
    const { total, rows } = await pageWithTotal(
      page,
      () => sql<{ count: unknown }>`${base} SELECT COUNT(*) AS count FROM picks`.execute(this.db),
      () =>
        sql<
          {
            aid: number;
            similar_to: unknown;
            type: string;
            main_title: string;
            picture: string | null;
            restricted: number;
            episode_count: number;
            air_date: string | null;
            end_date: string | null;
            series_id: number | null;
            title_override: string | null;
          } & TotalColumn
        >`${base}
            SELECT p.aid, p.similar_to, a.type, a.main_title, a.picture, a.restricted, a.episode_count, a.air_date, a.end_date, s.id AS series_id, s.title_override,
              COUNT(*) OVER () AS total_count
            FROM picks p JOIN anidb_anime a ON a.id = p.aid LEFT JOIN series s ON s.anime_id = a.id
            ORDER BY p.similar_to DESC, p.aid ${limitOffset(page)}`.execute(this.db),
    );
    return {
      Total: total,
      List: rows.map((r) => ({
        Anime: {
          ID: num(r.aid),
          ShokoID: r.series_id === null ? null : num(r.series_id),
          Type: animeType(r.type),
          Title: r.title_override ?? r.main_title,
          Restricted: !!num(r.restricted),
          Poster: posterOf(num(r.aid), r.picture),
          EpisodeCount: num(r.episode_count),
          AirDate: r.air_date,
          EndDate: r.end_date,
        },
        SimilarTo: num(r.similar_to),
      })),
    };
  }
}
