import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import { refreshSeriesAggregates } from '../../db/aggregates.js';
import { refreshNameFolds } from '../../db/name-folds.js';
import { refreshOrderKeys } from '../../db/name-order.js';
import type { Database, FiltersTable } from '../../db/schema.js';
import type { CollectionReads } from './collection-reads.js';
import type { Viewer } from '../../http/viewer.js';
import type { CompiledSql } from './compiler/index.js';

export type FilterRow = Selectable<FiltersTable>;
type FilterValues = Pick<
  FilterRow,
  'parent_id' | 'name' | 'is_directory' | 'is_hidden' | 'apply_at_series_level' | 'expression' | 'sorting'
>;

/**
 * A filter compiled by FilterCompiler (compiler/), ready to run: the candidates (`it`: series or groups) the viewer
 * may see, the compiled expression (null: every candidate), the HasVideoFiles condition when only groups/series with
 * files count, and the sort order.
 */
export interface CompiledFilter {
  level: 'series' | 'group';
  nested: boolean;
  viewer: Viewer;
  condition: CompiledSql | null;
  withFiles: CompiledSql | null;
  /** Joins the condition and the order read from, after the candidates (FilterCompiler.joins). */
  joins: CompiledSql;
  /** Series level only: limits the candidates to series of these groups. */
  withinGroups?: number[];
  order: CompiledSql;
}

type GroupRow = { id: number; name: string; parent_id: number | null };

/** LIMIT/OFFSET of a page (1-based); page size 0 is every row. */
const pageLimit = ({ page, pageSize }: { page: number; pageSize: number }) =>
  pageSize > 0 ? sql`LIMIT ${pageSize} OFFSET ${pageSize * (page - 1)}` : sql.raw('');

/** A tag name as HasTag compares it: lower-cased. */
const tagKey = (alias: string) => sql.raw(`lower(${alias}.name)`);

/** How many rows of a page and the pages before it pageOfMatchingGroups reads in one statement. */
const HEAD_ROWS = 1000;

/** Saved filters (presets) and their directories; runs compiled filters and reads the catalogue's options. */
export class FiltersStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly browse: CollectionReads,
  ) {}

  /** Every account's id (the filter Sizes are counted for each at start). */
  async userIds(): Promise<number[]> {
    return (await this.db.selectFrom('users').select('id').orderBy('id').execute()).map((row) => row.id);
  }

  /** Compiled filters read the maintained series aggregates: bring them up to date first. */
  private refreshAggregates(): Promise<number> {
    return refreshSeriesAggregates(this.db, this.browse.dialect);
  }

  /** The same for a filter run in an order, which may sort by the name-order keys (db/name-order.ts). */
  private async refreshMaintained(): Promise<void> {
    await this.refreshAggregates();
    await refreshOrderKeys(this.db);
  }

  /** `FROM … WHERE …` of a compiled filter: its candidates and every condition they must meet. */
  private from(filter: CompiledFilter): CompiledSql {
    const conditions = [filter.condition ?? sql.raw('1 = 1')];
    if (filter.withFiles) conditions.push(filter.withFiles);
    if (filter.level === 'series') {
      conditions.push(this.browse.seriesAllowed(filter.viewer, 'it'));
      if (filter.withinGroups)
        conditions.push(filter.withinGroups.length ? sql`it.group_id IN (${sql.join(filter.withinGroups)})` : sql.raw('1 = 0'));
      return sql`FROM series it LEFT JOIN anidb_anime ia ON ia.id = it.anime_id ${filter.joins} WHERE ${sql.join(conditions, sql.raw(' AND '))}`;
    }
    conditions.push(this.browse.groupAllowed(filter.viewer, 'it', filter.nested));
    return sql`FROM groups it ${filter.joins} WHERE ${sql.join(conditions, sql.raw(' AND '))}`;
  }

  /** Every match in filter order: its id (series or group) and its group (the series' group, or the group itself). */
  async matches(filter: CompiledFilter): Promise<Array<{ id: number; gid: number }>> {
    await this.refreshMaintained();
    const group = sql.raw(filter.level === 'series' ? 'it.group_id' : 'it.id');
    const { rows } = await sql<{
      id: number;
      gid: number;
    }>`${this.browse.treeCte(filter.nested)}SELECT it.id AS id, ${group} AS gid ${this.from(filter)} ORDER BY ${filter.order}`.execute(
      this.db,
    );
    return rows;
  }

  /**
   * Id, name and parent of the matching groups, in no order, in one query: the group-level matches themselves, or
   * with `lift` the top-level groups of the matches (series-level matches: their groups). Null for the groups of
   * series-level matches in a nested collection without `lift`: the caller then reads them in code.
   */
  async matchingGroupRows(filter: CompiledFilter, lift: boolean): Promise<GroupRow[] | null> {
    const set = this.groupSet(filter, lift);
    if (!set) return null;
    await this.refreshAggregates();
    const { rows } = await set(sql.raw('it.id AS id, it.name AS name, it.parent_id AS parent_id'), sql.raw('1 = 1'), sql.raw('')).execute(
      this.db,
    );
    return rows as GroupRow[];
  }

  /**
   * The matching groups (or with `lift` the top-level groups of the matches) as one SELECT over groups with the given
   * columns and an extra condition, plus what follows it (ORDER BY, GROUP BY…); null for the groups of series-level
   * matches in a nested collection without `lift`.
   */
  private groupSet(
    filter: CompiledFilter,
    lift: boolean,
  ): ((columns: CompiledSql, where: CompiledSql, tail: CompiledSql) => CompiledSql) | null {
    const from = this.from(filter);
    if (filter.nested && lift) {
      // Lifted in the database: the tree's top of every group (treeCte's gup) of a match, one statement.
      const gid = sql.raw(filter.level === 'series' ? 'it.group_id' : 'it.id');
      return (columns, where, tail) =>
        sql`${this.browse.treeCte(true)}SELECT ${columns} FROM groups it WHERE it.id IN (SELECT u.top FROM gup u WHERE u.id IN (SELECT ${gid} ${from})) AND ${where} ${tail}`;
    }
    if (filter.nested && filter.level === 'series') return null;
    if (filter.level === 'group')
      return (columns, where, tail) => sql`${this.browse.treeCte(filter.nested)}SELECT ${columns} ${from} AND ${where} ${tail}`;
    return (columns, where, tail) =>
      sql`SELECT ${columns} FROM groups it WHERE it.id IN (SELECT m.gid FROM (SELECT it.group_id AS gid ${from}) m) AND ${where} ${tail}`;
  }

  /**
   * A page of the matching groups (see groupSet) by sort name then id — a range of the order-key index of 0042 — and
   * how many there are; only top-level ones with `topLevelOnly`. Null as groupSet.
   */
  async pageOfGroupsByName(
    filter: CompiledFilter,
    options: { lift: boolean; topLevelOnly: boolean; page: number; pageSize: number },
  ): Promise<{ total: number; ids: number[] } | null> {
    const set = this.groupSet(filter, options.lift);
    if (!set) return null;
    await this.refreshMaintained();
    const where = options.topLevelOnly ? sql.raw('it.parent_id IS NULL') : sql.raw('1 = 1');
    const limit = pageLimit(options);
    const [page, count] = await Promise.all([
      set(sql.raw('it.id AS id'), where, sql`ORDER BY it.order_key, it.id ${limit}`).execute(this.db),
      set(sql.raw('COUNT(*) AS total'), where, sql.raw('')).execute(this.db),
    ]);
    return {
      total: Number((count.rows[0] as { total: number | string } | undefined)?.total ?? 0),
      ids: (page.rows as Array<{ id: number }>).map((r) => r.id),
    };
  }

  /**
   * The matching groups (see groupSet) counted by the first UTF-16 code unit of their sort names (the first four hex
   * digits of the order key), in code-unit order; only top-level ones with `topLevelOnly`. Null as groupSet.
   */
  async groupLettersByName(
    filter: CompiledFilter,
    options: { lift: boolean; topLevelOnly: boolean },
  ): Promise<Record<string, number> | null> {
    const set = this.groupSet(filter, options.lift);
    if (!set) return null;
    await this.refreshMaintained();
    const where = options.topLevelOnly ? sql.raw('it.parent_id IS NULL') : sql.raw('1 = 1');
    const { rows } = await set(
      sql.raw('substr(it.order_key, 1, 4) AS letter, COUNT(*) AS total'),
      where,
      sql.raw('GROUP BY substr(it.order_key, 1, 4) ORDER BY 1'),
    ).execute(this.db);
    const counts: Record<string, number> = {};
    for (const row of rows as Array<{ letter: string; total: number | string }>)
      counts[String.fromCharCode(parseInt(row.letter, 16))] = Number(row.total);
    return counts;
  }

  /**
   * One page of the matches' top-level groups in filter order (a group where its first match is) and how many there
   * are. A page past the end has no ids but still the total.
   */
  async pageOfMatchingGroups(
    filter: CompiledFilter,
    paging: { page: number; pageSize: number },
  ): Promise<{ total: number; ids: number[] }> {
    await this.refreshMaintained();
    const from = this.from(filter);
    const limit = pageLimit(paging);
    // A nested collection lifts each match to its top-level group (treeCte's gup), keeping its first place.
    const lifted = filter.nested ? sql.raw(' JOIN gup u ON u.id = m.gid') : sql.raw('');
    const gid = sql.raw(filter.nested ? 'u.top' : 'm.gid');
    const matchGroup = sql.raw(filter.level === 'group' ? 'it.id' : 'it.group_id');
    const run = (page: typeof limit) =>
      filter.level === 'group' && !filter.nested
        ? sql<{
            id: number;
            total: number | string;
          }>`SELECT it.id AS id, COUNT(*) OVER () AS total ${from} ORDER BY ${filter.order} ${page}`.execute(this.db)
        : sql<{
            id: number;
            total: number | string;
          }>`${this.browse.treeCte(filter.nested)}SELECT ${gid} AS id, COUNT(*) OVER () AS total
            FROM (SELECT ${matchGroup} AS gid, ROW_NUMBER() OVER (ORDER BY ${filter.order}) AS rn ${from}) m${lifted}
            GROUP BY ${gid} ORDER BY MIN(m.rn) ${page}`.execute(this.db);
    // A page past the end still needs the total, which a second statement evaluating the filter again would count: the
    // rows before a near page are read as well (a top-N sort of a few hundred rows), so any match carries the total.
    const before = paging.pageSize * (paging.page - 1);
    const withHead = paging.pageSize > 0 && before > 0 && before + paging.pageSize <= HEAD_ROWS;
    const { rows } = await run(withHead ? sql`LIMIT ${before + paging.pageSize}` : limit);
    const pageRows = withHead ? rows.slice(before) : rows;
    if (!rows.length && paging.page > 1 && !withHead) {
      const first = await run(sql`LIMIT 1`);
      return { total: Number(first.rows[0]?.total ?? 0), ids: [] };
    }
    return { total: Number(rows[0]?.total ?? 0), ids: pageRows.map((r) => r.id) };
  }

  /**
   * One page of series-level matches by name (order key, then id) and how many there are. Sorting every match by name
   * in the database and slicing in code took PostgreSQL 40–55 ms at 20,000 series. Without a filter expression (only
   * the files and visibility conditions, which most series meet) a count and a walk of the name-order index answer in
   * a few milliseconds. With one, a single statement evaluates it once: the matches are gathered, counted, and only
   * they are sorted; a walk would evaluate a costly condition again, and meets sparse matches only after testing most
   * of the collection one series at a time (a rare tag: 120–180 ms at 400k files).
   */
  async pageOfSeriesByName(filter: CompiledFilter, paging: { page: number; pageSize: number }): Promise<{ total: number; ids: number[] }> {
    await this.refreshMaintained();
    const tree = this.browse.treeCte(filter.nested);
    const from = this.from(filter);
    const limit = pageLimit(paging);
    if (!filter.condition) {
      const [page, count] = await Promise.all([
        sql<{ id: number }>`${tree}SELECT it.id AS id ${from} ORDER BY it.order_key, it.id ${limit}`.execute(this.db),
        sql<{ total: number | string }>`${tree}SELECT COUNT(*) AS total ${from}`.execute(this.db),
      ]);
      return { total: Number(count.rows[0]?.total ?? 0), ids: page.rows.map((r) => r.id) };
    }
    // The one-row side keeps the total when the page is past the end.
    const { rows } = await sql<{
      id: number | null;
      total: number | string;
    }>`${tree}${sql.raw(filter.nested ? ',' : 'WITH')} matched AS MATERIALIZED (SELECT it.id AS id, it.order_key AS o ${from})
      SELECT p.id AS id, (SELECT COUNT(*) FROM matched) AS total
      FROM (SELECT 1 AS one) one LEFT JOIN (SELECT id, o FROM matched ORDER BY o, id ${limit}) p ON 1 = 1 ORDER BY p.o, p.id`.execute(
      this.db,
    );
    return { total: Number(rows[0]?.total ?? 0), ids: rows.flatMap((r) => (r.id === null ? [] : [r.id])) };
  }

  /**
   * The (k = candidate id, v = value) rows of a regex/fuzzy node's plan (FilterCompiler.textMatchPlan); with `folded`,
   * also each value's fold `f`. Both the rows and the candidates the plan settles in the database read the maintained
   * values, and a folded plan the name folds: they are brought up to date first.
   */
  async textMatchPairs(
    nested: boolean,
    query: CompiledSql,
    folded: boolean,
  ): Promise<Array<{ k: number; v: string | null; f?: string | null }>> {
    await this.refreshAggregates();
    if (folded) await refreshNameFolds(this.db);
    const { rows } = await sql<{
      k: number;
      v: string | null;
      f?: string | null;
    }>`${this.browse.treeCte(nested)}SELECT q.k AS k, q.v AS v${sql.raw(folded ? ', q.f AS f' : '')} FROM (${query}) q`.execute(this.db);
    return rows;
  }

  /** What the collection offers the catalogue's parameters: used tags, custom tags, air years, release groups, image types. */
  async expressionOptions() {
    const db = this.db;
    const [tags, customTags, years, releaseGroups, tmdbImageTypes, anidbPoster] = await Promise.all([
      db
        .selectFrom('anidb_tags')
        .select('name')
        .where('id', 'in', db.selectFrom('anidb_anime_tags').select('tag_id'))
        .orderBy('name')
        .execute(),
      db.selectFrom('custom_tags').select('name').orderBy('name').execute(),
      db
        .selectFrom('anidb_anime')
        .select(['air_date', 'end_date'])
        .where('id', 'in', db.selectFrom('series').select('anime_id'))
        .where('air_date', 'is not', null)
        .execute(),
      db.selectFrom('anidb_release_groups').select('name').orderBy('name').execute(),
      db.selectFrom('tmdb_images').select('image_type').distinct().where('parent_type', 'in', ['Show', 'Season', 'Movie']).execute(),
      db
        .selectFrom('series')
        .innerJoin('anidb_anime', 'anidb_anime.id', 'series.anime_id')
        .select('series.id')
        .where('anidb_anime.picture', 'is not', null)
        .limit(1)
        .executeTakeFirst(),
    ]);
    return { tags, customTags, years, releaseGroups, tmdbImageTypes, anidbPoster };
  }

  // ---------------------------------------------------------------- directories computed from the collection

  /** The first directory whose sub-filters are computed from `kind` (Years, Seasons, Tags); null once deleted. */
  async dynamicDirectory(kind: string): Promise<FilterRow | null> {
    return (
      (await this.db.selectFrom('filters').selectAll().where('directory_of', '=', kind).orderBy('id').limit(1).executeTakeFirst()) ?? null
    );
  }

  /**
   * The air spans of the series the viewer may see that have an air date, as years and quarters (0–3) of the air date
   * and of the end date (the air date when there is none), each span once; with `byGroup`, once per group holding it.
   */
  async seriesAirSpans(viewer: Viewer, byGroup: boolean): Promise<Array<{ g?: number; y1: number; q1: number; y2: number; q2: number }>> {
    const end = sql.raw('COALESCE(a.end_date, a.air_date)');
    const year = (day: RawBuilder<unknown>) => sql`CAST(substr(${day}, 1, 4) AS INTEGER)`;
    const quarter = (day: RawBuilder<unknown>) => sql`(CAST(substr(${day}, 6, 2) AS INTEGER) - 1) / 3`;
    const air = sql.raw('a.air_date');
    const { rows } = await sql<{
      g?: number;
      y1: number | string;
      q1: number | string;
      y2: number | string;
      q2: number | string;
    }>`SELECT DISTINCT
      ${sql.raw(byGroup ? 'it.group_id AS g, ' : '')}${year(air)} AS y1, ${quarter(air)} AS q1, ${year(end)} AS y2, ${quarter(end)} AS q2
      FROM series it JOIN anidb_anime a ON a.id = it.anime_id WHERE a.air_date IS NOT NULL AND ${this.browse.seriesAllowed(viewer, 'it')}`.execute(
      this.db,
    );
    return rows.map((r) => ({ g: r.g, y1: Number(r.y1), q1: Number(r.q1), y2: Number(r.y2), q2: Number(r.q2) }));
  }

  /** Whether any series aired between the two days (the InYear / InSeason condition: air date to end date). */
  async anySeriesAiredBetween(start: string, end: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('series as it')
      .innerJoin('anidb_anime as a', 'a.id', 'it.anime_id')
      .select('it.id')
      .where('a.air_date', 'is not', null)
      .where('a.air_date', '<=', end)
      .where(sql<string>`COALESCE(a.end_date, a.air_date)`, '>=', start)
      .limit(1)
      .executeTakeFirst();
    return !!row;
  }

  /**
   * The AniDB tags of the series the viewer may see, one row per name (case-insensitive, as HasTag compares them): a
   * spelling, its lowest tag id and how many groups hold such series.
   */
  async seriesTagNames(viewer: Viewer): Promise<Array<{ id: number; name: string; groups: number }>> {
    const { rows } = await sql<{ id: number; name: string; groups: number | string }>`SELECT MIN(t.id) AS id, MIN(t.name) AS name,
      COUNT(DISTINCT it.group_id) AS groups
      FROM series it JOIN anidb_anime_tags at ON at.anime_id = it.anime_id JOIN anidb_tags t ON t.id = at.tag_id
      WHERE ${this.browse.seriesAllowed(viewer, 'it')} GROUP BY ${tagKey('t')}`.execute(this.db);
    return rows.map((r) => ({ id: Number(r.id), name: r.name, groups: Number(r.groups) }));
  }

  /** How many names seriesTagNames lists: each tag probes its links until it meets a series, no grouping of links. */
  async seriesTagNameCount(viewer: Viewer): Promise<number> {
    const { rows } = await sql<{ n: number | string }>`SELECT COUNT(DISTINCT ${tagKey('t')}) AS n FROM anidb_tags t
      WHERE EXISTS (SELECT 1 FROM anidb_anime_tags at JOIN series it ON it.anime_id = at.anime_id
        WHERE at.tag_id = t.id AND ${this.browse.seriesAllowed(viewer, 'it')})`.execute(this.db);
    return Number(rows[0]?.n ?? 0);
  }

  /** The lowest id among the tags of local series named as tag `id` is, with that tag's name; null if none. */
  async seriesTagName(id: number): Promise<{ id: number; name: string } | null> {
    const tag = await this.db.selectFrom('anidb_tags').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
    if (!tag) return null;
    const { rows } = await sql<{ id: number | null }>`SELECT MIN(t.id) AS id FROM anidb_tags t
      WHERE ${tagKey('t')} = lower(${tag.name})
        AND EXISTS (SELECT 1 FROM anidb_anime_tags at JOIN series it ON it.anime_id = at.anime_id WHERE at.tag_id = t.id)`.execute(this.db);
    const lowest = rows[0]?.id;
    return lowest === null || lowest === undefined ? null : { id: Number(lowest), name: tag.name };
  }

  /** Names of AniDB tags (the viewer's hidden tags hide the filters named after them). */
  async anidbTagNames(ids: number[]): Promise<string[]> {
    if (!ids.length) return [];
    return (await this.db.selectFrom('anidb_tags').select('name').where('id', 'in', ids).execute()).map((t) => t.name);
  }

  async get(id: number): Promise<FilterRow | null> {
    return (await this.db.selectFrom('filters').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
  }

  children(parentId: number | null): Promise<FilterRow[]> {
    const query = this.db.selectFrom('filters').selectAll().orderBy('name').orderBy('id');
    return (parentId === null ? query.where('parent_id', 'is', null) : query.where('parent_id', '=', parentId)).execute();
  }

  async childCount(id: number): Promise<number> {
    const row = await this.db
      .selectFrom('filters')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('parent_id', '=', id)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Ids from `id` up to its root. */
  async ancestors(id: number): Promise<number[]> {
    const chain: number[] = [];
    for (
      let current = await this.get(id);
      current && chain.length < 100;
      current = current.parent_id ? await this.get(current.parent_id) : null
    )
      chain.push(current.id);
    return chain;
  }

  async insert(values: FilterValues & { is_locked?: number }): Promise<number> {
    const stamp = new Date().toISOString();
    const row = await this.db
      .insertInto('filters')
      .values({ is_locked: 0, ...values, created_at: stamp, updated_at: stamp })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async update(id: number, values: FilterValues): Promise<void> {
    await this.db
      .updateTable('filters')
      .set({ ...values, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('filters').where('id', '=', id).execute();
  }
}
