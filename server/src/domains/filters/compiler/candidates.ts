import { raw, sql, type Sql } from './fragments.js';
import type { FilterScope } from './scope.js';

/**
 * Joins from a series row `xs` to what the selectors and conditions read of it: its maintained aggregates (migration
 * 0023, kept by db/aggregates.ts) as `sa`, its AniDB anime as `a`, its aggregate values (sources, languages,
 * resolutions, release groups, missing episodes) as `v`, the filters' own maintained figures (migration 0039, kept by
 * db/filter-figures.ts: the collecting missing count and the files' paths) as `ff`, and its files as `f`.
 */
export const SERIES_JOINS = {
  aggregates: 'JOIN series_aggregates sa ON sa.series_id = xs.id',
  anime: 'JOIN anidb_anime a ON a.id = xs.anime_id',
  values: 'JOIN series_aggregate_values v ON v.series_id = xs.id',
  figures: 'JOIN series_filter_figures ff ON ff.series_id = xs.id',
  files:
    'JOIN episodes e ON e.series_id = xs.id JOIN file_episode_links l ON l.episode_id = e.anidb_episode_id JOIN files f ON f.ed2k = l.ed2k AND f.size = l.size',
} as const;

/** A series' figures from its own maintained rows (Candidates.maintainedFigure): value, and whether none is 0. */
const SERIES_OWN_FIGURES: Record<string, [value: string, zero: boolean]> = {
  VideoFiles: ['so.file_count', true],
  LastAddedDate: ['so.last_added', false],
  UnwatchedEpisodeCount: ['so.local_episode_count - COALESCE(suo.watched_local_count, 0)', true],
  WatchedEpisodeCount: ['suo.watched_count', true],
  WatchedDate: ['suo.first_watched', false],
  LastWatchedDate: ['suo.last_watched', false],
  MissingEpisodeCollectingCount: ['sff.collecting_missing_count', true],
};

/**
 * The candidates of one filter evaluation (the row `it`: a `series` row joined with its anime as `ia`, or a `groups`
 * row) and how a fragment reads what they hold over their series: a correlated sub-query per candidate, one grouped
 * pass joined to the candidates (joinFigures), or maintained rows joined once (maintainedFigures). A filter so costs
 * a few index lookups per candidate and never loads the collection into memory.
 */
export class Candidates {
  /** The joins of figures to the candidates (joinFigures, maintainedFigures), by selector id or table. */
  private readonly joinedFigures = new Map<string, { alias: string; join: Sql }>();

  constructor(readonly scope: FilterScope) {}

  /**
   * `LEFT JOIN`s of the figures the compiled fragments read (grouped figures with joinFigures, maintained group figures
   * with maintainedFigures; else empty); they go right after the candidates in FROM. Call it after compiling the
   * condition and the order.
   */
  joins(): Sql {
    return sql.join(
      [...this.joinedFigures.values()].map(({ join }) => join),
      raw(' '),
    );
  }

  /**
   * A candidate's figure `id` read from maintained rows, or null when the scope does not read them or they do not hold
   * it: a group's from its group figures (migration 0051: `gf`, and `guf` for the viewer's watch figures), a series'
   * from its own aggregates (`so`, `suo`, `sff`) rather than grouping the collection's aggregates by series. Each
   * gives what `figure` computes over the candidate's series (the joined-figures test compares them).
   */
  maintainedFigure(id: string): Sql | null {
    if (!this.scope.maintainedFigures) return null;
    const figures: Record<string, [value: string, zero: boolean]> = this.scope.level === 'group' ? this.groupFigures() : SERIES_OWN_FIGURES;
    const figure = figures[id];
    if (!figure) return null;
    const [value, zero] = figure;
    for (const alias of Object.keys(this.maintainedJoins())) if (new RegExp(`\\b${alias}\\.`).test(value)) this.joinMaintained(alias);
    return raw(zero ? `COALESCE(${value}, 0)` : `(${value})`);
  }

  /** The maintained rows a candidate may read joined to it (maintainedFigure), by alias. */
  private maintainedJoins(): Record<string, string> {
    const uid = Math.trunc(this.scope.userId);
    return {
      gf: 'LEFT JOIN group_figures gf ON gf.group_id = it.id',
      guf: `LEFT JOIN group_user_figures guf ON guf.group_id = it.id AND guf.user_id = ${uid}`,
      so: 'LEFT JOIN series_aggregates so ON so.series_id = it.id',
      suo: `LEFT JOIN series_user_aggregates suo ON suo.series_id = it.id AND suo.user_id = ${uid}`,
      sff: 'LEFT JOIN series_filter_figures sff ON sff.series_id = it.id',
    };
  }

  private joinMaintained(alias: string): void {
    if (!this.joinedFigures.has(alias)) this.joinedFigures.set(alias, { alias, join: raw(this.maintainedJoins()[alias]!) });
  }

  private groupFigures(): Record<string, [value: string, zero: boolean]> {
    const average = this.scope.dialect === 'postgres' ? 'CAST(gf.rating_sum AS numeric)' : 'CAST(gf.rating_sum AS REAL)';
    return {
      SeriesCount: ['gf.series_count', true],
      EpisodeCount: ['gf.episode_count', true],
      TotalEpisodeCount: ['gf.total_episode_count', true],
      AverageAniDBRating: [`${average} / NULLIF(gf.rating_count, 0) / 100.0`, true],
      HighestAniDBRating: ['gf.rating_max / 100.0', true],
      LowestAniDBRating: ['gf.rating_min / 100.0', true],
      VideoFiles: ['gf.file_count', true],
      MissingEpisodeCollectingCount: ['gf.collecting_missing_count', true],
      AirDate: ['gf.air_date', false],
      LastAirDate: ['gf.last_air_date', false],
      AddedDate: ['gf.added_date', false],
      LastAddedDate: ['gf.last_added', false],
      UnwatchedEpisodeCount: ['gf.local_episode_count - COALESCE(guf.watched_local_count, 0)', true],
      WatchedEpisodeCount: ['guf.watched_count', true],
      WatchedDate: ['guf.first_watched', false],
      LastWatchedDate: ['guf.last_watched', false],
    };
  }

  /**
   * A figure of the candidate aggregated over its series: `aggregate` over `series xs` with `joins`, the rows meeting
   * `where`; with `zero`, 0 where the candidate has no such rows (otherwise NULL). `key` names the figure (the same key
   * must give the same SQL). Either one correlated sub-query per candidate — SQLite answers each in about 3 µs — or,
   * with joinFigures, one grouped pass over every series joined by candidate: PostgreSQL took about 9 µs a sub-query,
   * 150 ms for the 16,571 groups of a collection page at 400k files.
   */
  figure(key: string, aggregate: string, options: { joins?: string; where?: Sql; zero?: boolean }): Sql {
    if (!this.scope.joinFigures) {
      const value = raw(options.zero ? `COALESCE(${aggregate}, 0)` : aggregate);
      return sql`(SELECT ${value} ${this.seriesOfCandidate(options.joins ?? '', options.where)})`;
    }
    let joined = this.joinedFigures.get(key);
    if (!joined) {
      const where = options.where ? sql`WHERE ${options.where}` : raw('');
      const owner = this.ownerKey();
      const query = sql`SELECT ${owner} AS k, ${raw(aggregate)} AS v FROM series xs ${this.ownerJoin()} ${raw(options.joins ?? '')} ${where} GROUP BY ${owner}`;
      const alias = `fig${this.joinedFigures.size + 1}`;
      joined = { alias, join: sql`LEFT JOIN (${query}) ${raw(alias)} ON ${raw(alias)}.k = it.id` };
      this.joinedFigures.set(key, joined);
    }
    return raw(options.zero ? `COALESCE(${joined.alias}.v, 0)` : `${joined.alias}.v`);
  }

  /**
   * `FROM … WHERE …` of the series rows `xs` that belong to the candidate (then `joins`), meeting `where`, for a
   * sub-query correlated on the candidate. In a nested collection a group's series are those of its subtree, joined
   * from the tree (gdesc) by its root: SQLite reads the tree once and looks each candidate up in an index it builds on
   * it. Asked as `xs.group_id IN (SELECT d.id FROM gdesc d WHERE d.root = it.id)` it walked the whole tree again for
   * each candidate group: 0.6–1.9 s per collection page of a 100,000-file Shoko import (4,500 groups, 45 nested).
   */
  seriesOfCandidate(joins: string, where?: Sql): Sql {
    const [from, owner] =
      this.scope.level === 'series'
        ? ['series xs', 'xs.id = it.id']
        : this.scope.nested
          ? ['gdesc sd JOIN series xs ON xs.group_id = sd.id', 'sd.root = it.id']
          : ['series xs', 'xs.group_id = it.id'];
    return sql`FROM ${raw(from)} ${raw(joins)} WHERE ${raw(owner)}${where ? sql` AND ${where}` : raw('')}`;
  }

  /**
   * The candidate has a series satisfying `where`. `in` (the default) evaluates the sub-query once, uncorrelated,
   * which suits conditions an index narrows (tags, types, dates); `exists` probes per candidate and stops at the
   * first hit, which suits per-episode conditions most candidates meet early.
   */
  anySeries(where: Sql, join = '', mode: 'in' | 'exists' = 'in'): Sql {
    if (mode === 'exists') return sql`EXISTS (SELECT 1 ${this.seriesOfCandidate(join, where)})`;
    return sql`it.id IN (SELECT ${this.ownerKey()} FROM series xs ${this.ownerJoin()} ${raw(join)} WHERE ${where})`;
  }

  /**
   * A condition on a series row and its anime, `where` given their aliases: at series level on the candidate's own row
   * (`it`) and anime (`ia`), at group level on any of its series (anySeries). Reading the candidate's own row rather
   * than joining series to themselves took PostgreSQL's count of a series page from 33 to 11 ms at 400k files.
   */
  ownOrAnySeries(where: (series: string, anime: string) => Sql, withAnime = false): Sql {
    if (this.scope.level === 'series') return sql`(${where('it', 'ia')})`;
    return this.anySeries(where('xs', 'a'), withAnime ? SERIES_JOINS.anime : '');
  }

  /**
   * A condition on the maintained aggregates of the candidate's own series, or at group level of any of its series;
   * `where` is given their alias.
   */
  anyAggregates(where: (aggregates: string) => Sql): Sql {
    if (this.scope.level === 'group') return this.anySeries(where('sa'), SERIES_JOINS.aggregates);
    return (
      this.maintainedCondition('series', ['so'], where('so')) ??
      sql`EXISTS (SELECT 1 FROM series_aggregates sa WHERE sa.series_id = it.id AND ${where('sa')})`
    );
  }

  /**
   * A condition read from maintained rows joined once to the candidate (maintainedFigure): a series' own aggregates
   * (`so`) and the viewer's (`suo`), or a group's figures (`gf`, `guf`); null at another level or without
   * maintainedFigures. Probed per series inside an OR or a comparison, PostgreSQL took 40 ms for a series page at
   * 400k files.
   */
  maintainedCondition(level: FilterScope['level'], reads: string[], condition: Sql): Sql | null {
    if (this.scope.level !== level || !this.scope.maintainedFigures) return null;
    for (const alias of reads) this.joinMaintained(alias);
    // No row, or a NULL figure, fails the condition as an EXISTS would, also under NOT.
    return sql`COALESCE(${condition}, 1 = 0)`;
  }

  /** For uncorrelated sub-queries over `series xs`: the candidate id each series row belongs to. */
  ownerKey(): Sql {
    return raw(this.scope.level === 'series' ? 'xs.id' : this.scope.nested ? 'od.root' : 'xs.group_id');
  }

  ownerJoin(): Sql {
    return raw(this.scope.level === 'group' && this.scope.nested ? 'JOIN gdesc od ON od.id = xs.group_id' : '');
  }

  /** Join of `xs`'s viewer's watch counts as `ua`. */
  userAggJoin(kind: 'JOIN' | 'LEFT JOIN'): string {
    return `${kind} series_user_aggregates ua ON ua.series_id = xs.id AND ua.user_id = ${Math.trunc(this.scope.userId)}`;
  }

  /** The groups whose names are a series' names (`g`, of the series `xs`): its group, with nested groups also its top one. */
  groupNamesJoin(): string {
    return this.scope.nested
      ? 'JOIN gup u ON u.id = xs.group_id JOIN groups g ON g.id IN (u.id, u.top)'
      : 'JOIN groups g ON g.id = xs.group_id';
  }
}
