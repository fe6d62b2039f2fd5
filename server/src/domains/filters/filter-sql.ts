// This file compiles filter expressions to SQL fragments (it builds them with kysely's `sql`); it runs nothing, FiltersStore does.
// eslint-disable-next-line @typescript-eslint/no-restricted-imports
import { sql, type RawBuilder } from 'kysely';
import type { FilterCondition, SortingCriteria } from '@shoko-ts/contract';
import type { DialectName } from '../../db/database.js';
import { FILE_PATH_SEPARATOR } from '../../db/filter-figures.js';
import { NAME_SEARCH, nameCandidates, type NameKind } from '../../db/name-search.js';
import { FieldErrorCollector } from '../../http/problem.js';
import { CREATOR_ROLES, EXPRESSION_BY_ID, SEASONS, SORTING_CRITERIA, stripExpressionId } from './filter-catalogue.js';
import { compilePattern, fuzzyPieces, MAX_PATTERN_LENGTH, PatternError, requiredLiteral, TEXT_MATCHERS } from './filter-text.js';

/** A compiled SQL fragment (a condition, an order, a sub-query); FiltersStore runs it. */
export type CompiledSql = RawBuilder<unknown>;
type Sql = CompiledSql;

/** How one filter evaluation sees the database: per series or per group, for one user, on one day. */
export interface FilterScope {
  level: 'series' | 'group';
  userId: number;
  /** `yyyy-MM-dd`. */
  today: string;
  dialect: DialectName;
  /** False when no group has a parent: then a group's series are simply those with its id. */
  nested: boolean;
  /**
   * Compute per-candidate figures (dates, counts, votes over a candidate's series) for every candidate in one grouped
   * pass joined to the candidates (see FilterCompiler.figure), instead of one sub-query per candidate. Pays off when
   * most of the collection is a candidate (a collection page) on a database whose correlated sub-queries are dear.
   */
  joinFigures?: boolean;
  /**
   * Read the figures maintained rows hold from them (FilterCompiler.maintainedFigure): a group's group figures
   * (migration 0051, db/group-figures.ts), a series' own aggregates; instead of computing them over its series.
   */
  maintainedFigures?: boolean;
  /**
   * Results of the regex/fuzzy nodes (filter-text.ts), computed before compiling: the candidate ids that match, or
   * with `negate` those that fail. Absent when compiling only to validate.
   */
  textMatches?: Map<FilterCondition, { ids: number[]; negate: boolean }>;
}

/**
 * How a regex/fuzzy node is evaluated: its pattern and the SQL giving the (k = candidate id, v = value) rows the worker
 * tests; the database may settle some candidates itself (`settled`), and leaves only the rest's values to test.
 */
export interface TextMatchPlan {
  kind: 'regex' | 'fuzzy';
  pattern: string;
  ignoreCase: boolean;
  /** Every value must match (AllRegexMatches) rather than any. */
  all: boolean;
  /** Null when the database settles every candidate. */
  values: Sql | null;
  /** The value rows also carry `f`, the value's fold where the database keeps it (db/name-folds.ts), else NULL. */
  folded: boolean;
  /**
   * Candidate ids (column k) whose outcome the database settles without the worker: ones that match for a node on any
   * value (or a single one), ones that fail for AllRegexMatches. Null when the worker decides every candidate.
   */
  settled: Sql | null;
  /** Per-candidate needles (k, v) when a fuzzy node compares with a Right selector instead of Parameter. */
  needles: Sql | null;
}

/** A filter node that cannot be evaluated; the message names the node. */
export class FilterError extends Error {}

const raw = (text: string) => sql.raw(text);

/**
 * The stored type values by the catalogue's option names: the metadata pipeline stores the v3 names (`TV`,
 * `TVSpecial`, …), older or hand-seeded rows AniDB's texts (`TV Series`, `TV Special`, …); both match.
 */
const ANIDB_TYPES: Record<string, string[]> = {
  movie: ['Movie'],
  ova: ['OVA'],
  tvseries: ['TV', 'TV Series'],
  tv: ['TV', 'TV Series'],
  tvspecial: ['TVSpecial', 'TV Special'],
  web: ['Web'],
  other: ['Other'],
  musicvideo: ['MusicVideo', 'Music Video'],
  unknown: ['Unknown', 'unknown'],
};

// `IN` over the link tables rather than `EXISTS` per series: PostgreSQL cannot turn `EXISTS … OR EXISTS …` into a
// join and probed both per series (96 ms over the 20,000 series at 400k files, where the `IN` lists take 2 ms).
const tmdbLinked = (series: string) =>
  raw(
    `(${series}.anime_id IN (SELECT ts.anime_id FROM xref_anidb_tmdb_show ts UNION ALL SELECT tm.anime_id FROM xref_anidb_tmdb_movie tm))`,
  );
/** The series' anime has a TMDB show or movie that Trakt knows (integrations/trakt.sync.ts links them). */
const traktLinked = (series: string) =>
  raw(`(${series}.anime_id IN (SELECT tl.anime_id FROM trakt_links tl WHERE tl.trakt_id IS NOT NULL))`);

/** The catalogue's appearance types by the AniDB texts stored for a character's role in an anime. */
const APPEARANCES: Record<string, string[]> = {
  Main_Character: ['main character in'],
  Minor_Character: ['secondary cast in'],
  Background_Character: ['appears in'],
  Cameo: ['cameo appearance in'],
  Unknown: ['', 'unknown'],
};

/**
 * CreatorRoleType of a stored AniDB staff role text, in SQL; the same mapping as creatorRole() of the series domain
 * (voice actors are the rows with a character and count as Actor).
 */
const CREATOR_ROLE_SQL = `CASE WHEN ast.character_id IS NOT NULL THEN 'Actor'
  WHEN lower(ast.role) IN ('animation work', 'work') THEN 'Studio'
  WHEN lower(ast.role) IN ('direction', 'director', 'chief direction') THEN 'Director'
  WHEN lower(ast.role) = 'series composition' THEN 'SeriesComposer'
  WHEN lower(ast.role) = 'character design' THEN 'CharacterDesign'
  WHEN lower(ast.role) = 'music' THEN 'Music'
  WHEN lower(ast.role) IN ('original work', 'story', 'original story') THEN 'SourceWork'
  WHEN lower(ast.role) LIKE '%producer%' THEN 'Producer'
  ELSE 'Staff' END`;

const escapeLike = (value: string) => value.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);

export function parseTimeSpanDays(text: string): number {
  const match = /^(-)?(?:(\d+)[.:])?(\d{1,2}):(\d{2}):(\d{2})(?:\.\d+)?$/.exec(text.trim());
  if (!match) throw new FilterError(`'${text}' is not a TimeSpan (d:hh:mm:ss.fffffff).`);
  const days = Number(match[2] ?? 0) + Number(match[3]) / 24 + Number(match[4]) / 1440;
  return Math.round(days) * (match[1] ? -1 : 1);
}

const addDays = (date: string, days: number) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

/**
 * The images a series shows (see the series domain's images) besides its anime's AniDB poster (ANIDB_POSTER): the TMDB
 * images of its linked shows, their seasons and its linked movies; each the link (`x`, by `x.anime_id`) and the joins
 * from it to the image (`ti`).
 */
const TMDB_IMAGES = [
  { link: 'xref_anidb_tmdb_show x', image: "JOIN tmdb_images ti ON ti.parent_type = 'Show' AND ti.parent_id = x.show_id" },
  {
    link: 'xref_anidb_tmdb_show x',
    image: "JOIN tmdb_seasons se ON se.show_id = x.show_id JOIN tmdb_images ti ON ti.parent_type = 'Season' AND ti.parent_id = se.id",
  },
  { link: 'xref_anidb_tmdb_movie x', image: "JOIN tmdb_images ti ON ti.parent_type = 'Movie' AND ti.parent_id = x.movie_id" },
];
const ANIDB_POSTER = (anime: string) => `${anime}.picture IS NOT NULL AND ${anime}.picture <> ''`;

/** A series' figures from its own maintained rows (FilterCompiler.maintainedFigure): value, and whether none is 0. */
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
 * Compiles a contract FilterCondition into one SQL boolean over the candidate row `it` (a `series` row joined with
 * its anime as `ia`, or a `groups` row). Each selector is a correlated sub-query over the candidate's series, so a
 * filter costs a few index lookups per candidate and never loads the collection into memory.
 */
export class FilterCompiler {
  /** The joins of figures to the candidates (joinFigures, maintainedFigures), by selector id or table. */
  private readonly joinedFigures = new Map<string, { alias: string; join: Sql }>();

  constructor(private readonly scope: FilterScope) {}

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
  private maintainedFigure(id: string): Sql | null {
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
  private figure(key: string, aggregate: string, options: { joins?: string; where?: Sql; zero?: boolean }): Sql {
    const joins = raw(options.joins ?? '');
    if (!this.scope.joinFigures) {
      const where = options.where ? sql`${this.seriesOf('xs')} AND ${options.where}` : this.seriesOf('xs');
      const value = raw(options.zero ? `COALESCE(${aggregate}, 0)` : aggregate);
      return sql`(SELECT ${value} FROM series xs ${joins} WHERE ${where})`;
    }
    let joined = this.joinedFigures.get(key);
    if (!joined) {
      const where = options.where ? sql`WHERE ${options.where}` : raw('');
      const owner = this.ownerKey();
      const query = sql`SELECT ${owner} AS k, ${raw(aggregate)} AS v FROM series xs ${this.ownerJoin()} ${joins} ${where} GROUP BY ${owner}`;
      const alias = `fig${this.joinedFigures.size + 1}`;
      joined = { alias, join: sql`LEFT JOIN (${query}) ${raw(alias)} ON ${raw(alias)}.k = it.id` };
      this.joinedFigures.set(key, joined);
    }
    return raw(options.zero ? `COALESCE(${joined.alias}.v, 0)` : `${joined.alias}.v`);
  }

  /** The series rows (alias `alias`) that belong to the candidate. */
  private seriesOf(alias: string): Sql {
    if (this.scope.level === 'series') return raw(`${alias}.id = it.id`);
    return this.scope.nested
      ? raw(`${alias}.group_id IN (SELECT d.id FROM gdesc d WHERE d.root = it.id)`)
      : raw(`${alias}.group_id = it.id`);
  }

  /**
   * The candidate has a series satisfying `where`. `in` (the default) evaluates the sub-query once, uncorrelated,
   * which suits conditions an index narrows (tags, types, dates); `exists` probes per candidate and stops at the
   * first hit, which suits per-episode conditions most candidates meet early.
   */
  private anySeries(where: Sql, join = '', mode: 'in' | 'exists' = 'in'): Sql {
    if (mode === 'exists') return sql`EXISTS (SELECT 1 FROM series xs ${raw(join)} WHERE ${this.seriesOf('xs')} AND ${where})`;
    return sql`it.id IN (SELECT ${this.ownerKey()} FROM series xs ${this.ownerJoin()} ${raw(join)} WHERE ${where})`;
  }

  /**
   * A condition on a series row and its anime, `where` given their aliases: at series level on the candidate's own row
   * (`it`) and anime (`ia`), at group level on any of its series (anySeries). Reading the candidate's own row rather
   * than joining series to themselves took PostgreSQL's count of a series page from 33 to 11 ms at 400k files.
   */
  private ownOrAnySeries(where: (series: string, anime: string) => Sql, withAnime = false): Sql {
    if (this.scope.level === 'series') return sql`(${where('it', 'ia')})`;
    return this.anySeries(where('xs', 'a'), withAnime ? this.animeJoin : '');
  }

  /**
   * A condition on the maintained aggregates of the candidate's own series, or at group level of any of its series;
   * `where` is given their alias.
   */
  private anyAggregates(where: (aggregates: string) => Sql): Sql {
    if (this.scope.level === 'group') return this.anySeries(where('sa'), this.aggJoin);
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
  private maintainedCondition(level: FilterScope['level'], reads: string[], condition: Sql): Sql | null {
    if (this.scope.level !== level || !this.scope.maintainedFigures) return null;
    for (const alias of reads) this.joinMaintained(alias);
    // No row, or a NULL figure, fails the condition as an EXISTS would, also under NOT.
    return sql`COALESCE(${condition}, 1 = 0)`;
  }

  /** For uncorrelated sub-queries over `series xs`: the candidate id each series row belongs to. */
  private ownerKey(): Sql {
    return raw(this.scope.level === 'series' ? 'xs.id' : this.scope.nested ? 'od.root' : 'xs.group_id');
  }

  private ownerJoin(): Sql {
    return raw(this.scope.level === 'group' && this.scope.nested ? 'JOIN gdesc od ON od.id = xs.group_id' : '');
  }

  /** Joins of `xs`'s maintained aggregates (migration 0023, kept by db/aggregates.ts) and its viewer's watch counts. */
  private aggJoin = 'JOIN series_aggregates sa ON sa.series_id = xs.id';
  /** Join of `xs`'s AniDB anime as `a`. */
  private animeJoin = 'JOIN anidb_anime a ON a.id = xs.anime_id';
  private userAggJoin(kind: 'JOIN' | 'LEFT JOIN'): string {
    return `${kind} series_user_aggregates ua ON ua.series_id = xs.id AND ua.user_id = ${Math.trunc(this.scope.userId)}`;
  }
  private valuesJoin = 'JOIN series_aggregate_values v ON v.series_id = xs.id';
  /**
   * The filters' own maintained figures (migration 0039, kept by db/filter-figures.ts): the collecting missing count
   * and the files' paths of `xs`.
   */
  private figuresJoin = 'JOIN series_filter_figures ff ON ff.series_id = xs.id';

  /** Some of the candidate's series has a value `value` of `kind` (source, audio, subtitle, resolution). */
  private hasValue(kind: string, value: string): Sql {
    return this.anySeries(sql`v.kind = ${kind} AND v.value = ${value.toLowerCase()}`, this.valuesJoin);
  }

  private filesJoin =
    'JOIN episodes e ON e.series_id = xs.id JOIN file_episode_links l ON l.episode_id = e.anidb_episode_id JOIN files f ON f.ed2k = l.ed2k AND f.size = l.size';

  /** `Parameter` as text, or a 400 naming the node. */
  private param(node: FilterCondition, second = false): string {
    const value = second ? node.SecondParameter : node.Parameter;
    if (value === undefined || value === null || String(value) === '')
      throw new FilterError(`${node.Type} needs a ${second ? 'SecondParameter' : 'Parameter'}.`);
    return String(value);
  }

  private number(node: FilterCondition): number {
    const value = Number(this.param(node));
    if (!Number.isFinite(value)) throw new FilterError(`${node.Type}: '${node.Parameter}' is not a number.`);
    return value;
  }

  private date(node: FilterCondition): string {
    const value = this.param(node);
    if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(Date.parse(value.slice(0, 10))))
      throw new FilterError(`${node.Type}: '${value}' is not a date (yyyy-MM-dd).`);
    return value.slice(0, 10);
  }

  private child(node: FilterCondition, side: 'Left' | 'Right'): FilterCondition {
    const child = node[side];
    if (!child) throw new FilterError(`${node.Type} needs ${side}.`);
    return child;
  }

  private kind(node: FilterCondition): string {
    const id = stripExpressionId(node.Type);
    const spec = EXPRESSION_BY_ID.get(id);
    if (!spec) throw new FilterError(`Unknown expression type '${node.Type}'.`);
    return spec.type;
  }

  /** A boolean expression node. */
  bool(node: FilterCondition): Sql {
    const id = stripExpressionId(node.Type);
    if (!EXPRESSION_BY_ID.has(id)) throw new FilterError(`Unknown expression type '${node.Type}'.`);
    if (this.kind(node) !== 'Expression') throw new FilterError(`'${node.Type}' is a selector, not a condition.`);
    const uid = this.scope.userId;
    switch (id) {
      case 'And':
        return sql`(${this.bool(this.child(node, 'Left'))} AND ${this.bool(this.child(node, 'Right'))})`;
      case 'Or':
        return sql`(${this.bool(this.child(node, 'Left'))} OR ${this.bool(this.child(node, 'Right'))})`;
      case 'Not':
        return sql`(NOT ${this.bool(this.child(node, 'Left'))})`;
      case 'Xor':
      case 'Equals': {
        const left = sql`(CASE WHEN ${this.bool(this.child(node, 'Left'))} THEN 1 ELSE 0 END)`;
        const right = sql`(CASE WHEN ${this.bool(this.child(node, 'Right'))} THEN 1 ELSE 0 END)`;
        return id === 'Xor' ? sql`(${left} <> ${right})` : sql`(${left} = ${right})`;
      }
      case 'Constant':
      case 'IsFavorite':
        // Favourites are groups a user marked (kept from a Shoko import); a series is never one, as in Shoko.
        return this.scope.level === 'group'
          ? sql`it.id IN (SELECT fav.group_id FROM user_group_favourites fav WHERE fav.user_id = ${uid})`
          : sql`(1 = 0)`;
      case 'SetOverlaps':
      case 'StringIn':
      case 'HasTmdbAutoLinkingDisabled':
      case 'HasTraktAutoLinkingDisabled':
      case 'HasTvDBLink':
      // TvDB links are not kept at all, so no item has one and none is expected to have one: the "missing" check never
      // matches either (rather than matching the whole collection, which would be noise). Trakt auto-linking is one
      // server-wide setting, never off for one series.
      // falls through
      case 'MissingTvDBLink':
        return raw('(1 = 0)');
      case 'HasAvailableImage': {
        const type = this.param(node).toLowerCase();
        if (this.scope.level === 'series') return this.showsImage('it', 'ia', type);
        return this.anySeries(this.showsImage('xs', 'a', type), `LEFT ${this.animeJoin}`);
      }
      case 'HasPreferredImage':
      case 'HasReleaseGroupName': {
        const set = this.stringSetById(id === 'HasPreferredImage' ? 'PreferredImageTypes' : 'ReleaseGroupNames');
        return sql`it.id IN (SELECT q.k FROM (${set}) q WHERE lower(q.v) = ${this.param(node).toLowerCase()})`;
      }
      case 'HasResolution':
        return this.hasValue('resolution', this.param(node));
      case 'HasCreatorWithRole': {
        const role = this.param(node, true);
        if (!CREATOR_ROLES.includes(role))
          throw new FilterError(`HasCreatorWithRole: '${role}' is not one of ${CREATOR_ROLES.join(', ')}.`);
        return this.anySeries(
          sql`ast.creator_id = ${this.int(node)} AND ${raw(CREATOR_ROLE_SQL)} = ${role}`,
          'JOIN anidb_anime_staff ast ON ast.anime_id = xs.anime_id',
        );
      }
      case 'HasMissingEpisodesCollecting':
        return this.anySeries(raw('ff.collecting_missing_count > 0'), this.figuresJoin);
      case 'StringRegexMatches':
      case 'AnyRegexMatches':
      case 'AllRegexMatches':
      case 'StringFuzzyMatches':
      case 'AnyFuzzyMatches':
        return this.textMatch(node);
      case 'HasCharacterWithAppearance': {
        const appearance = APPEARANCES[this.param(node, true)];
        if (!appearance)
          throw new FilterError(
            `HasCharacterWithAppearance: '${node.SecondParameter}' is not one of ${Object.keys(APPEARANCES).join(', ')}.`,
          );
        return this.anySeries(
          sql`ac.character_id = ${this.int(node)} AND ac.appearance IN (${sql.join(appearance)})`,
          'JOIN anidb_anime_characters ac ON ac.anime_id = xs.anime_id',
        );
      }
      case 'HasTag':
        return this.anySeries(
          sql`lower(t.name) = ${this.param(node).toLowerCase()}`,
          'JOIN anidb_anime_tags at ON at.anime_id = xs.anime_id JOIN anidb_tags t ON t.id = at.tag_id',
        );
      case 'HasTagByID':
        return this.anySeries(sql`at.tag_id = ${this.int(node)}`, 'JOIN anidb_anime_tags at ON at.anime_id = xs.anime_id');
      case 'HasCustomTag':
        return this.anySeries(
          sql`lower(ct.name) = ${this.param(node).toLowerCase()}`,
          'JOIN series_custom_tags sct ON sct.series_id = xs.id JOIN custom_tags ct ON ct.id = sct.tag_id',
        );
      case 'HasCustomTagByID':
        return this.anySeries(sql`sct.tag_id = ${this.int(node)}`, 'JOIN series_custom_tags sct ON sct.series_id = xs.id');
      case 'HasCharacter':
        return this.anySeries(sql`ac.character_id = ${this.int(node)}`, 'JOIN anidb_anime_characters ac ON ac.anime_id = xs.anime_id');
      case 'HasCreator':
        return this.anySeries(sql`ast.creator_id = ${this.int(node)}`, 'JOIN anidb_anime_staff ast ON ast.anime_id = xs.anime_id');
      case 'HasAnimeType': {
        const types = ANIDB_TYPES[this.param(node).toLowerCase()] ?? ANIDB_TYPES.unknown;
        return this.ownOrAnySeries((_, a) => sql`${raw(a)}.type IN (${sql.join(types)})`, true);
      }
      case 'InYear': {
        const year = Math.trunc(this.number(node));
        return this.airedBetween(`${year}-01-01`, `${year}-12-31`);
      }
      case 'InSeason': {
        const year = Math.trunc(this.number(node));
        const season = this.param(node, true);
        const index = (SEASONS as readonly string[]).indexOf(season);
        if (index < 0) throw new FilterError(`InSeason: '${season}' is not one of ${SEASONS.join(', ')}.`);
        const starts = ['01-01', '04-01', '07-01', '10-01'];
        const ends = ['03-31', '06-30', '09-30', '12-31'];
        return this.airedBetween(`${year}-${starts[index]}`, `${year}-${ends[index]}`);
      }
      case 'IsFinished':
        return this.ownOrAnySeries((_, a) => sql`${raw(a)}.end_date IS NOT NULL AND ${raw(a)}.end_date < ${this.scope.today}`, true);
      case 'HasTmdbLink':
        return this.ownOrAnySeries(tmdbLinked);
      case 'HasTraktLink':
        return this.ownOrAnySeries(traktLinked);
      // Trakt links come from TMDB links: a series with one should have the other.
      case 'MissingTraktLink':
        return this.ownOrAnySeries((xs) => sql`${tmdbLinked(xs)} AND NOT ${traktLinked(xs)}`);
      case 'MissingTmdbLink':
        return this.ownOrAnySeries(
          (xs, a) => sql`${raw(a)}.type NOT IN ('Music Video', 'Other', 'unknown') AND NOT ${tmdbLinked(xs)}`,
          true,
        );
      case 'HasVideoFiles':
        // A group's file count is its series' summed.
        return (
          this.maintainedCondition('group', ['gf'], raw('gf.file_count > 0')) ?? this.anyAggregates((sa) => raw(`${sa}.file_count > 0`))
        );
      case 'HasMissingEpisodes':
        // The first missing episode has aired by today.
        return this.anyAggregates((sa) => sql`${raw(sa)}.missing_first_air <= ${this.scope.today}`);
      // A series' watched episodes with a file are some of its episodes with a file: a group has more of those than
      // watched exactly when one of its series does, and watched episodes exactly when one of them has.
      case 'HasUnwatchedEpisodes': {
        const unwatched = (sa: string, ua: string) => raw(`${sa}.local_episode_count > COALESCE(${ua}.watched_local_count, 0)`);
        return (
          this.maintainedCondition('series', ['so', 'suo'], unwatched('so', 'suo')) ??
          this.maintainedCondition('group', ['gf', 'guf'], unwatched('gf', 'guf')) ??
          this.anySeries(unwatched('sa', 'ua'), `${this.aggJoin} ${this.userAggJoin('LEFT JOIN')}`)
        );
      }
      case 'HasWatchedEpisodes': {
        const watched = (ua: string) => raw(`${ua}.watched_count > 0`);
        return (
          this.maintainedCondition('series', ['suo'], watched('suo')) ??
          this.maintainedCondition('group', ['guf'], watched('guf')) ??
          this.anySeries(watched('ua'), this.userAggJoin('JOIN'))
        );
      }
      case 'HasName':
        return sql`(lower(${this.stringSelector({ Type: 'Name' })}) = ${this.param(node).toLowerCase()})`;
      // The viewer's voted series as one uncorrelated set: with no votes at all (the usual case) PostgreSQL planned the
      // correlated form as a scan of the empty table per series, 40 of the 80 ms of a series page at 400k files.
      case 'HasUserVotes':
        return this.anySeries(sql`xs.id IN (${this.votedSeries(uid)})`);
      case 'HasPermanentUserVotes':
        return this.anySeries(sql`xs.id IN (${this.votedSeries(uid, 'Permanent')})`);
      case 'MissingPermanentUserVotes':
      case 'MissingPermanentVote':
        return this.ownOrAnySeries(
          (xs, a) =>
            sql`${raw(a)}.end_date IS NOT NULL AND ${raw(a)}.end_date < ${this.scope.today} AND ${raw(xs)}.id NOT IN (${this.votedSeries(uid, 'Permanent')})`,
          true,
        );
      case 'MissingVote':
        return this.anySeries(sql`xs.id NOT IN (${this.votedSeries(uid)})`);
      // "Shared": some series has AniDB-known files, and no series has such a file without the value.
      case 'HasAudioLanguage':
      case 'HasSubtitleLanguage':
      case 'HasSharedAudioLanguage':
      case 'HasSharedSubtitleLanguage': {
        const kind = id.includes('Audio') ? 'audio' : 'subtitle';
        const value = this.param(node).toLowerCase();
        if (!id.includes('Shared')) return this.hasValue(kind, value);
        const inEveryFile = sql`EXISTS (SELECT 1 FROM series_aggregate_values v WHERE v.series_id = xs.id AND v.kind = ${kind} AND v.value = ${value} AND v.file_count = sa.anidb_file_count)`;
        return sql`(${this.anyAggregates((sa) => raw(`${sa}.anidb_file_count > 0`))} AND NOT ${this.anySeries(sql`sa.anidb_file_count > 0 AND NOT ${inEveryFile}`, this.aggJoin)})`;
      }
      case 'HasVideoSource':
        return this.hasValue('source', this.param(node));
      case 'HasSharedVideoSource': {
        // Files without a source do not count against it.
        const other = this.anySeries(sql`v.kind = 'source' AND v.value <> ${this.param(node).toLowerCase()}`, this.valuesJoin);
        return sql`(${this.anyAggregates((sa) => raw(`${sa}.anidb_file_count > 0`))} AND NOT ${other})`;
      }
      case 'NumberEquals':
      case 'NumberNotEquals':
      case 'NumberGreaterThan':
      case 'NumberGreaterThanEquals':
      case 'NumberLessThan':
      case 'NumberLessThanEquals': {
        const left = this.numberExpr(this.child(node, 'Left'));
        const right = node.Right ? this.numberExpr(node.Right) : sql`CAST(${this.number(node)} AS DOUBLE PRECISION)`;
        const op = {
          NumberEquals: '=',
          NumberNotEquals: '<>',
          NumberGreaterThan: '>',
          NumberGreaterThanEquals: '>=',
          NumberLessThan: '<',
          NumberLessThanEquals: '<=',
        }[id]!;
        if (op === '=') return sql`(abs(${left} - ${right}) < 0.001)`;
        if (op === '<>') return sql`(abs(${left} - ${right}) >= 0.001)`;
        return sql`(${left} ${raw(op)} ${right})`;
      }
      case 'DateEquals':
      case 'DateNotEquals':
      case 'DateGreaterThan':
      case 'DateGreaterThanEquals':
      case 'DateLessThan':
      case 'DateLessThanEquals': {
        // A shifted date against a constant compares the date itself with the constant shifted back: no date
        // arithmetic per candidate (PostgreSQL formatted one per group: 60 ms of a collection page at 400k files).
        const shifted = node.Right ? null : this.shiftedDate(this.child(node, 'Left'));
        const left = shifted ? this.dateExpr(shifted.date) : this.dateExpr(this.child(node, 'Left'));
        const right = node.Right
          ? this.dateExpr(node.Right)
          : sql`CAST(${shifted ? addDays(this.date(node), -shifted.days) : this.date(node)} AS TEXT)`;
        const op = {
          DateEquals: '=',
          DateNotEquals: '<>',
          DateGreaterThan: '>',
          DateGreaterThanEquals: '>=',
          DateLessThan: '<',
          DateLessThanEquals: '<=',
        }[id]!;
        return sql`(${left} IS NOT NULL AND ${right} IS NOT NULL AND ${left} ${raw(op)} ${right})`;
      }
      case 'AnyContains':
      case 'AnyEquals':
      case 'AllContains': {
        const set = this.stringSet(this.child(node, 'Left'));
        const constant = node.Parameter !== undefined && node.Parameter !== null;
        const needle = constant ? sql`${String(node.Parameter)}` : this.stringExpr(this.child(node, 'Right'));
        const pattern = constant ? sql`${`%${escapeLike(String(node.Parameter))}%`}` : this.likePattern(needle, 'contains');
        const equals = constant ? sql`${String(node.Parameter).toLowerCase()}` : sql`lower(${needle})`;
        const matches = (value: Sql) =>
          id === 'AnyEquals' ? sql`lower(${value}) = ${equals}` : sql`lower(${value}) LIKE ${pattern} ESCAPE '\\'`;
        const match = matches(raw('q.v'));
        if (!constant) {
          if (id === 'AllContains') return sql`(NOT EXISTS (SELECT 1 FROM (${set}) q WHERE q.k = it.id AND NOT (${match})))`;
          const generic = sql`EXISTS (SELECT 1 FROM (${set}) q WHERE q.k = it.id AND ${match})`;
          return this.filePathsMatchBySelector(node, id === 'AnyEquals', needle, generic) ?? generic;
        }
        if (id === 'AllContains')
          return (
            this.namesAllMatch(node, matches) ?? sql`(it.id NOT IN (SELECT q.k FROM (${set}) q WHERE q.k IS NOT NULL AND NOT (${match})))`
          );
        const paths = this.filePathsMatch(node, id === 'AnyEquals');
        if (paths) return paths;
        const names = this.namesMatch(node, matches);
        if (names) return names;
        return sql`it.id IN (SELECT q.k FROM (${set}) q WHERE ${match})`;
      }
      case 'StringContains':
      case 'StringEquals':
      case 'StringNotEquals':
      case 'StringStartsWith':
      case 'StringEndsWith': {
        const left = sql`lower(${this.stringExpr(this.child(node, 'Left'))})`;
        const needle =
          node.Parameter !== undefined && node.Parameter !== null
            ? sql`${String(node.Parameter)}`
            : this.stringExpr(this.child(node, 'Right'));
        if (id === 'StringEquals') return sql`(${left} = lower(${needle}))`;
        if (id === 'StringNotEquals') return sql`(${left} <> lower(${needle}))`;
        const mode = id === 'StringContains' ? 'contains' : id === 'StringStartsWith' ? 'starts' : 'ends';
        return sql`(${left} <> '' AND ${left} LIKE ${this.likePattern(needle, mode)} ESCAPE '\\')`;
      }
    }
    throw new FilterError(`'${node.Type}' cannot be used as a condition.`);
  }

  /**
   * `AnyContains`/`AnyEquals` of FilePaths with a constant: looked up in each series' maintained paths (lower-cased,
   * each closed by the separator; migration 0039) instead of every location of the collection. Null when the
   * generic form must answer (another selector, or a needle holding the separator, which could span two paths).
   */
  private filePathsMatch(node: FilterCondition, equals: boolean): Sql | null {
    if (stripExpressionId(this.child(node, 'Left').Type) !== 'FilePaths') return null;
    const needle = String(node.Parameter);
    if (needle.includes(FILE_PATH_SEPARATOR)) return null;
    const escaped = escapeLike(needle);
    const pattern = equals ? `%${FILE_PATH_SEPARATOR}${escaped}${FILE_PATH_SEPARATOR}%` : `%${escaped}%`;
    return this.anySeries(sql`ff.file_paths LIKE ${pattern} ESCAPE '\\'`, this.figuresJoin);
  }

  /**
   * `AnyContains`/`AnyEquals` of Names with a constant (the console's collection search): each kind of name compared
   * where it is stored, through its trigram index (migration 0044, db/name-search.ts), with the comparison `matches` of
   * the generic form, so the matches are the same. On SQLite the trigram table names the rows that may hold the text
   * (a text under three characters has no trigram: every name is compared); PostgreSQL's planner reads the GIN index of
   * lower(name) for the comparison itself. A series is found by its own anime, override and group (ownNames): joining
   * the matching names to their series took PostgreSQL 70 ms of the search at 400k files, this 45.
   */
  private namesMatch(node: FilterCondition, matches: (value: Sql) => Sql): Sql | null {
    if (stripExpressionId(this.child(node, 'Left').Type) !== 'Names') return null;
    const text = String(node.Parameter).toLowerCase();
    const where = (kind: NameKind, alias: string) => {
      const compare = matches(raw(`${alias}.${NAME_SEARCH[kind].column}`));
      const candidates = this.scope.dialect === 'sqlite' ? nameCandidates(kind, text) : null;
      return candidates ? sql`${raw(alias)}.id IN (${candidates}) AND ${compare}` : compare;
    };
    if (this.scope.level === 'series') return this.ownNames('any', where);
    return sql`it.id IN (SELECT q.k FROM (${this.names(where)}) q)`;
  }

  /**
   * `AllContains` of Names with a constant, and the names AllRegexMatches settles: no name of the candidate fails
   * `matches`, each kind of name looked up where it is stored (at series level by ownNames). The generic form gathers
   * every failing name of the collection into one set of candidate ids first: PostgreSQL took 73-97 ms for it at 400k
   * files (60,000 titles), 32-38 ms for this.
   */
  private namesAllMatch(node: FilterCondition, matches: (value: Sql) => Sql): Sql | null {
    if (stripExpressionId(this.child(node, 'Left').Type) !== 'Names') return null;
    const fails = (kind: NameKind, alias: string) => sql`NOT (${matches(raw(`${alias}.${NAME_SEARCH[kind].column}`))})`;
    if (this.scope.level === 'series') return this.ownNames('none', fails);
    const of = this.seriesOf('xs');
    return sql`(NOT EXISTS (SELECT 1 FROM series xs JOIN anidb_anime_titles t ON t.anime_id = xs.anime_id WHERE ${of} AND ${fails('titles', 't')})
      AND NOT EXISTS (SELECT 1 FROM series xs WHERE ${of} AND xs.title_override IS NOT NULL AND ${fails('overrides', 'xs')})
      AND NOT EXISTS (SELECT 1 FROM series xs ${raw(this.groupNamesJoin())} WHERE ${of} AND ${fails('groups', 'g')}))`;
  }

  /**
   * At series level: whether `any` of the candidate's names, or `none` of them, meets `where` (given each kind's alias:
   * `t`, `it`, `g`), each kind looked up by the candidate's own anime, override and group(s).
   */
  private ownNames(mode: 'any' | 'none', where: (kind: NameKind, alias: string) => Sql): Sql {
    const groups = this.scope.nested ? 'gup u JOIN groups g ON g.id IN (u.id, u.top)' : 'groups g';
    const group = this.scope.nested ? 'u.id' : 'g.id';
    const override = sql`(it.title_override IS NOT NULL AND ${where('overrides', 'it')})`;
    if (mode === 'any')
      return sql`(it.anime_id IN (SELECT t.anime_id FROM anidb_anime_titles t WHERE ${where('titles', 't')}) OR ${override}
        OR it.group_id IN (SELECT ${raw(group)} FROM ${raw(groups)} WHERE ${where('groups', 'g')}))`;
    return sql`(NOT EXISTS (SELECT 1 FROM anidb_anime_titles t WHERE t.anime_id = it.anime_id AND ${where('titles', 't')})
      AND NOT ${override}
      AND NOT EXISTS (SELECT 1 FROM ${raw(groups)} WHERE ${raw(group)} = it.group_id AND ${where('groups', 'g')}))`;
  }

  /** The series `uid` has voted on (of `type`, when given); never NULL (the table's key). */
  private votedSeries(uid: number, type?: 'Permanent'): Sql {
    return sql`SELECT v.series_id FROM user_series_votes v WHERE v.user_id = ${uid}${type ? sql` AND v.vote_type = ${type}` : sql``}`;
  }

  /** The groups whose names are a series' names (`g`, of the series `xs`): its group, with nested groups also its top one. */
  private groupNamesJoin(): string {
    return this.scope.nested
      ? 'JOIN gup u ON u.id = xs.group_id JOIN groups g ON g.id IN (u.id, u.top)'
      : 'JOIN groups g ON g.id = xs.group_id';
  }

  /**
   * The same with a `Right` selector (the candidate's name) as the needle, per candidate: the generic form `generic`
   * answers only for a needle holding the separator.
   */
  private filePathsMatchBySelector(node: FilterCondition, equals: boolean, needle: Sql, generic: Sql): Sql | null {
    if (stripExpressionId(this.child(node, 'Left').Type) !== 'FilePaths') return null;
    const separator = raw(this.scope.dialect === 'postgres' ? 'chr(31)' : 'char(31)');
    const escaped = this.likeEscaped(needle);
    const pattern = equals ? sql`('%' || ${separator} || ${escaped} || ${separator} || '%')` : sql`('%' || ${escaped} || '%')`;
    const holdsSeparator =
      this.scope.dialect === 'postgres' ? sql`strpos(${needle}, ${separator}) > 0` : sql`instr(${needle}, ${separator}) > 0`;
    return sql`(CASE WHEN ${holdsSeparator} THEN ${generic} ELSE ${this.anySeries(sql`ff.file_paths LIKE ${pattern} ESCAPE '\\'`, this.figuresJoin, 'exists')} END)`;
  }

  /**
   * A regex/fuzzy node: the ids the worker resolved beforehand, with the candidates the database settles itself (see
   * TextMatchPlan); a placeholder when only validating.
   */
  private textMatch(node: FilterCondition): Sql {
    const { settled } = this.textMatchPlan(node);
    const result = this.scope.textMatches?.get(node);
    if (!result) {
      if (this.scope.textMatches) throw new Error(`${node.Type} was not resolved before compiling.`);
      return raw('(1 = 0)');
    }
    // The ids are integers from the database, so they are inlined rather than bound (no parameter limits).
    const list = raw(result.ids.map((id) => String(Math.trunc(id))).join(', '));
    const resolved = result.ids.length
      ? sql`it.id ${raw(result.negate ? 'NOT IN' : 'IN')} (${list})`
      : raw(result.negate ? '1 = 1' : '1 = 0');
    if (!settled) return sql`(${resolved})`;
    // AllRegexMatches over Names: the names lacking the pattern's text fail, looked up per kind of name.
    const literal = result.negate ? requiredLiteral(this.param(node)) : null;
    const allHold = literal && this.namesAllMatch(node, (value) => this.holdsLiteral(value, literal, false));
    if (allHold) return sql`(${resolved} AND ${allHold})`;
    const inSettled = sql`it.id IN (SELECT s.k FROM (${settled}) s)`;
    return result.negate ? sql`(${resolved} AND NOT ${inSettled})` : sql`(${resolved} OR ${inSettled})`;
  }

  /**
   * `text` may match a pattern whose every match holds `literal` (filter-text.ts requiredLiteral): it holds the literal,
   * with ASCII letters compared in either case unless `caseSensitive`. For a prefix this is exact (a case-insensitive
   * pattern folds ASCII case only), and compares the first characters only: PostgreSQL's lower() of a whole name costs
   * about a microsecond. Anywhere in the text it admits more (case aside; PostgreSQL's lower() folds some other
   * letters to ASCII).
   */
  private holdsLiteral(text: Sql, literal: { text: string; written: string; prefix: boolean }, caseSensitive: boolean): Sql {
    const length = literal.text.length;
    if (caseSensitive && literal.prefix)
      return this.scope.dialect === 'sqlite'
        ? sql`substr(${text}, 1, ${raw(String(length))}) = ${literal.written}`
        : sql`left(${text}, ${raw(String(length))}) = ${literal.written}`;
    // SQLite's LIKE compares ASCII letters in either case and every other character as it is.
    if (this.scope.dialect === 'sqlite')
      return literal.prefix
        ? sql`substr(${text}, 1, ${raw(String(length))}) LIKE ${escapeLike(literal.text)} ESCAPE '\\'`
        : sql`${text} LIKE ${`%${escapeLike(literal.text)}%`} ESCAPE '\\'`;
    if (!literal.prefix) return sql`lower(${text}) LIKE ${`%${escapeLike(literal.text)}%`} ESCAPE '\\'`;
    // All ASCII (one byte each), so lower() folds nothing but ASCII letters there.
    const head = sql`left(${text}, ${raw(String(length))})`;
    return sql`(octet_length(${head}) = ${raw(String(length))} AND lower(${head}) = ${literal.text})`;
  }

  /** `text` holds `piece` (compared as stored: both folded already). */
  private holds(text: Sql, piece: string): Sql {
    return this.scope.dialect === 'postgres' ? sql`strpos(${text}, ${piece}) > 0` : sql`instr(${text}, ${piece}) > 0`;
  }

  /** The candidates' names as (k, v) rows; with `folds`, each with its fold as `f` (db/name-folds.ts). */
  private candidateNames(folds = false): Sql {
    const series = this.scope.level === 'series';
    const from = series ? 'series it LEFT JOIN anidb_anime ia ON ia.id = it.anime_id' : 'groups it';
    const fold = !folds
      ? ''
      : series
        ? ', CASE WHEN it.title_override IS NOT NULL THEN it.title_override_folded ELSE ia.main_title_folded END AS f'
        : ', it.name_folded AS f';
    return sql`SELECT it.id AS k, ${this.stringSelector({ Type: 'Name' })} AS v${raw(fold)} FROM ${raw(from)}`;
  }

  /** What the service must evaluate outside SQL for a regex/fuzzy node; raises FilterError for a malformed node. */
  textMatchPlan(node: FilterCondition): TextMatchPlan {
    const id = stripExpressionId(node.Type);
    if (!TEXT_MATCHERS.has(id)) throw new FilterError(`'${node.Type}' is not a text-matching expression.`);
    const left = this.child(node, 'Left');
    const onSet = id.startsWith('Any') || id.startsWith('All');
    const values = onSet ? this.stringSet(left) : (this.stringExpr(left), this.candidateNames());
    if (id.includes('Regex')) {
      const pattern = this.param(node);
      try {
        compilePattern(pattern, onSet);
      } catch (error) {
        if (error instanceof PatternError) throw new FilterError(`${node.Type}: ${error.message}`);
        throw error;
      }
      const all = id === 'AllRegexMatches';
      const plan = { kind: 'regex', pattern, ignoreCase: onSet, all, folded: false, needles: null } as const;
      // Only the values holding the text every match holds go to the worker (filter-text.ts requiredLiteral): at 400k
      // files a twentieth of the 80,000 names start with `ka`. Under AllRegexMatches a value without it fails its
      // candidate, which the database settles.
      const literal = requiredLiteral(pattern);
      if (!literal) return { ...plan, values, settled: null };
      const like = this.holdsLiteral(sql`q.v`, literal, !onSet);
      // A pattern that is `^` and its text and nothing else is decided here (holdsLiteral is exact for a prefix).
      const exact = literal.whole && literal.prefix;
      const holding = sql`SELECT q.k AS k, q.v AS v FROM (${values}) q WHERE ${like}`;
      const failing = sql`SELECT q.k AS k FROM (${values}) q WHERE q.v IS NOT NULL AND NOT ${like}`;
      if (exact) return { ...plan, values: null, settled: all ? failing : holding };
      return { ...plan, values: holding, settled: all ? failing : null };
    }
    const constant = node.Parameter !== undefined && node.Parameter !== null;
    if (constant && String(node.Parameter).length > MAX_PATTERN_LENGTH)
      throw new FilterError(`${node.Type}: the Parameter is longer than ${MAX_PATTERN_LENGTH} characters.`);
    if (!constant) this.stringExpr(this.child(node, 'Right'));
    const plan = { kind: 'fuzzy', pattern: constant ? String(node.Parameter) : '', ignoreCase: true, all: false } as const;
    if (!constant) return { ...plan, values, folded: false, settled: null, needles: this.candidateNames() };
    if (onSet && stripExpressionId(left.Type) !== 'Names') return { ...plan, values, folded: false, settled: null, needles: null };
    // Names are compared by their folds kept in the database (db/name-folds.ts): a name can match only if its fold
    // holds a piece of the needle (fuzzyPieces). A needle allowing no edit is one piece, and holding it is the match,
    // so the database settles those candidates; a name not folded yet goes to the worker.
    const pieces = fuzzyPieces(plan.pattern);
    const names = sql`SELECT q.k AS k, q.v AS v, q.f AS f FROM (${onSet ? this.names(undefined, true) : this.candidateNames(true)}) q`;
    if (pieces.length === 1)
      return {
        ...plan,
        values: sql`${names} WHERE q.f IS NULL`,
        folded: true,
        settled: sql`${names} WHERE ${this.holds(sql`q.f`, pieces[0]!)}`,
        needles: null,
      };
    const holding = pieces.length
      ? sql.join(
          pieces.map((piece) => this.holds(sql`q.f`, piece)),
          raw(' OR '),
        )
      : raw('1 = 0');
    return { ...plan, values: sql`${names} WHERE q.f IS NULL OR ${holding}`, folded: true, settled: null, needles: null };
  }

  private int(node: FilterCondition): number {
    const value = Number(this.param(node));
    if (!Number.isInteger(value)) throw new FilterError(`${node.Type}: '${node.Parameter}' is not an ID.`);
    return value;
  }

  /** `needle` lower-cased, with LIKE's wildcards and its escape character (a backslash) escaped. */
  private likeEscaped(needle: Sql): Sql {
    return sql`replace(replace(replace(lower(${needle}), '\\', '\\\\'), '%', '\\%'), '_', '\\_')`;
  }

  private likePattern(needle: Sql, mode: 'contains' | 'starts' | 'ends'): Sql {
    const escaped = this.likeEscaped(needle);
    if (mode === 'starts') return sql`(${escaped} || '%')`;
    if (mode === 'ends') return sql`('%' || ${escaped})`;
    return sql`('%' || ${escaped} || '%')`;
  }

  private airedBetween(start: string, end: string): Sql {
    return this.ownOrAnySeries(
      (_, a) =>
        sql`${raw(a)}.air_date IS NOT NULL AND ${raw(a)}.air_date <= ${end} AND COALESCE(${raw(a)}.end_date, ${raw(a)}.air_date) >= ${start}`,
      true,
    );
  }

  private numberExpr(node: FilterCondition): Sql {
    const id = stripExpressionId(node.Type);
    if (this.kind(node) !== 'NumberSelector') throw new FilterError(`'${node.Type}' is not a number selector.`);
    return this.numberSelector(id);
  }

  /** A number selector as a scalar (never NULL): a column, or a figure over the candidate's series. */
  numberSelector(id: string): Sql {
    // A series candidate already has its anime joined (`ia`): anime-level numbers need no sub-query.
    if (this.scope.level === 'series') {
      const direct: Record<string, string> = {
        SeriesCount: 'it.id * 0 + 1', // a bare constant in ORDER BY would mean a column number
        EpisodeCount: 'COALESCE(ia.episode_count, 0)',
        TotalEpisodeCount: 'COALESCE(ia.episode_count + ia.special_count, 0)',
        AverageAniDBRating: 'COALESCE(ia.rating, 0) / 100.0',
        HighestAniDBRating: 'COALESCE(ia.rating, 0) / 100.0',
        LowestAniDBRating: 'COALESCE(ia.rating, 0) / 100.0',
      };
      if (direct[id]) return raw(`(${direct[id]})`);
    }
    const maintained = this.maintainedFigure(id);
    if (maintained) return maintained;
    const uid = Math.trunc(this.scope.userId);
    const anime = (aggregate: string) => this.figure(id, aggregate, { joins: this.animeJoin, zero: true });
    const votes = (aggregate: string, type = '') =>
      this.figure(id, aggregate, {
        joins: `JOIN user_series_votes v ON v.series_id = xs.id AND v.user_id = ${uid}${type ? ` AND v.vote_type = '${type}'` : ''}`,
        zero: true,
      });
    const values = (aggregate: string, where: Sql) =>
      // Series first, then their few value rows by key: with a plain join SQLite preferred the (kind, value) index and
      // read every series' values of that kind for each candidate (5.3 s for a collection page sorted by audio
      // language count at 100k files); CROSS JOIN makes it keep this order, PostgreSQL plans it as the join it is.
      this.figure(id, aggregate, {
        joins: 'CROSS JOIN series_aggregate_values v',
        where: sql`v.series_id = xs.id AND ${where}`,
        zero: true,
      });
    switch (id) {
      case 'SeriesCount':
        return this.figure(id, 'COUNT(*)', { zero: true });
      case 'EpisodeCount':
        return anime('SUM(a.episode_count)');
      case 'TotalEpisodeCount':
        return anime('SUM(a.episode_count + a.special_count)');
      case 'AverageAniDBRating':
        return anime('AVG(a.rating) / 100.0');
      case 'HighestAniDBRating':
        return anime('MAX(a.rating) / 100.0');
      case 'LowestAniDBRating':
        return anime('MIN(a.rating) / 100.0');
      case 'HighestUserRating':
        return votes('MAX(v.value)');
      case 'LowestUserRating':
        return votes('MIN(v.value)');
      case 'SeriesVoteCount':
        return votes('COUNT(*)');
      case 'SeriesPermanentVoteCount':
        return votes('COUNT(*)', 'Permanent');
      case 'SeriesTemporaryVoteCount':
        return votes('COUNT(*)', 'Temporary');
      case 'WatchedEpisodeCount':
        return this.figure(id, 'SUM(ua.watched_count)', { joins: this.userAggJoin('JOIN'), zero: true });
      case 'UnwatchedEpisodeCount':
        return this.figure(id, 'SUM(sa.local_episode_count - COALESCE(ua.watched_local_count, 0))', {
          joins: `${this.aggJoin} ${this.userAggJoin('LEFT JOIN')}`,
          zero: true,
        });
      case 'MissingEpisodeCollectingCount': {
        const sum = this.figure(id, 'SUM(ff.collecting_missing_count)', { joins: this.figuresJoin, zero: true });
        if (this.scope.joinFigures) return sum;
        // Summed only for the candidates with a gap, found once (few have one), not probed per candidate.
        return sql`(CASE WHEN ${this.bool({ Type: 'HasMissingEpisodesCollecting' })} THEN ${sum} ELSE 0 END)`;
      }
      case 'MissingEpisodeCount':
        return values('SUM(v.file_count)', sql`v.kind = 'missing_air' AND v.value <= ${this.scope.today}`);
      case 'VideoFiles':
        // Per group, the sum over its series: a file linked to episodes of two of them counts twice.
        return this.figure(id, 'SUM(sa.file_count)', { joins: this.aggJoin, zero: true });
      case 'AutomaticTmdbEpisodeLinks':
      case 'UserVerifiedTmdbEpisodeLinks': {
        const verified = id === 'UserVerifiedTmdbEpisodeLinks' ? '=' : '<>';
        return this.figure(id, 'COUNT(*)', {
          joins: 'JOIN xref_anidb_tmdb_episode x ON x.anime_id = xs.anime_id',
          where: raw(`x.tmdb_episode_id <> 0 AND x.rating ${verified} 'UserVerified'`),
          zero: true,
        });
      }
      case 'MissingTmdbEpisodeLinks':
        return this.figure(id, 'COUNT(*)', {
          joins: 'JOIN episodes e ON e.series_id = xs.id',
          where: raw(`e.is_hidden = 0
          AND EXISTS (SELECT 1 FROM xref_anidb_tmdb_show ts WHERE ts.anime_id = xs.anime_id)
          AND NOT EXISTS (SELECT 1 FROM xref_anidb_tmdb_episode x WHERE x.anidb_episode_id = e.anidb_episode_id AND x.tmdb_episode_id <> 0)`),
          zero: true,
        });
      case 'AudioLanguageCount':
      case 'SubtitleLanguageCount':
        return values('COUNT(DISTINCT v.value)', sql`v.kind = ${id === 'AudioLanguageCount' ? 'audio' : 'subtitle'}`);
    }
    throw new FilterError(`'${id}' is not a number selector.`);
  }

  /**
   * A DateAdd/DateDiff (of DateAdds/DateDiffs) of a date selector other than Today, as that date and the days it is
   * moved by; null for anything else (Today's shift is a constant already).
   */
  private shiftedDate(node: FilterCondition): { date: FilterCondition; days: number } | null {
    const id = stripExpressionId(node.Type);
    if (id !== 'DateAdd' && id !== 'DateDiff') return null;
    const days = parseTimeSpanDays(this.param(node)) * (id === 'DateAdd' ? 1 : -1);
    const left = this.child(node, 'Left');
    if (stripExpressionId(left.Type) === 'Today') return null;
    const inner = this.shiftedDate(left);
    return inner ? { date: inner.date, days: inner.days + days } : { date: left, days };
  }

  private dateExpr(node: FilterCondition): Sql {
    const id = stripExpressionId(node.Type);
    if (this.kind(node) !== 'DateSelector') throw new FilterError(`'${node.Type}' is not a date selector.`);
    if (id === 'Today') return sql`CAST(${this.scope.today} AS TEXT)`;
    if (id === 'DateAdd' || id === 'DateDiff') {
      const days = parseTimeSpanDays(this.param(node)) * (id === 'DateAdd' ? 1 : -1);
      const left = this.child(node, 'Left');
      if (stripExpressionId(left.Type) === 'Today') return sql`CAST(${addDays(this.scope.today, days)} AS TEXT)`;
      const inner = this.dateExpr(left);
      return this.scope.dialect === 'postgres'
        ? sql`to_char(CAST(${inner} AS date) + CAST(${days} AS INTEGER), 'YYYY-MM-DD')`
        : sql`date(${inner}, ${`${days >= 0 ? '+' : ''}${days} days`})`;
    }
    return this.dateSelector(id);
  }

  /** A date selector as `yyyy-MM-dd` text (NULL when unknown): a column, or a figure over the candidate's series. */
  dateSelector(id: string): Sql {
    if (this.scope.level === 'series') {
      const direct: Record<string, string> = {
        AirDate: 'ia.air_date',
        LastAirDate: 'COALESCE(ia.end_date, ia.air_date)',
        AddedDate: 'substr(it.created_at, 1, 10)',
      };
      if (direct[id]) return raw(`(${direct[id]})`);
    }
    const maintained = this.maintainedFigure(id);
    if (maintained) return maintained;
    const anime = (aggregate: string) => this.figure(id, aggregate, { joins: this.animeJoin });
    switch (id) {
      case 'AirDate':
        return anime('MIN(a.air_date)');
      case 'LastAirDate':
        return anime('MAX(COALESCE(a.end_date, a.air_date))');
      case 'AddedDate':
        return this.figure(id, 'MIN(substr(xs.created_at, 1, 10))', {});
      case 'LastAddedDate':
        return this.figure(id, 'MAX(sa.last_added)', { joins: this.aggJoin });
      case 'WatchedDate':
        return this.figure(id, 'MIN(ua.first_watched)', { joins: this.userAggJoin('JOIN') });
      case 'LastWatchedDate':
        return this.figure(id, 'MAX(ua.last_watched)', { joins: this.userAggJoin('JOIN') });
    }
    throw new FilterError(`'${id}' is not a date selector.`);
  }

  private stringExpr(node: FilterCondition): Sql {
    if (this.kind(node) !== 'StringSelector') throw new FilterError(`'${node.Type}' is not a string selector.`);
    return this.stringSelector(node);
  }

  /** The item's name: the series' preferred title, or the group name. */
  stringSelector(_node: FilterCondition): Sql {
    return this.scope.level === 'series' ? raw(`COALESCE(it.title_override, ia.main_title, '')`) : raw('it.name');
  }

  /** A string-set selector as an uncorrelated sub-query of (k = candidate id, v = value) rows. */
  private stringSet(node: FilterCondition): Sql {
    if (this.kind(node) !== 'StringSetSelector') throw new FilterError(`'${node.Type}' is not a string-set selector.`);
    return this.stringSetById(stripExpressionId(node.Type));
  }

  /**
   * The series row `series` (its anime `anime`) shows an image of `type` (lower case): the AniDB poster is a 'poster',
   * the TMDB images have theirs. Each source is looked up once by anime, not gathered with its type per series first:
   * PostgreSQL expected 200 series from that set and probed each of the 20,000 by index (75 ms at 400k files).
   */
  private showsImage(series: string, anime: string, type: string): Sql {
    const tmdb = sql.join(
      TMDB_IMAGES.map(({ link, image }) => sql`SELECT x.anime_id FROM ${raw(link)} ${raw(image)} WHERE lower(ti.image_type) = ${type}`),
      raw(' UNION ALL '),
    );
    const linked = sql`${raw(series)}.anime_id IN (${tmdb})`;
    return type === 'poster' ? sql`(${raw(ANIDB_POSTER(anime))} OR ${linked})` : linked;
  }

  private stringSetById(id: string): Sql {
    const k = this.ownerKey();
    const from = (join: string) => sql`FROM series xs ${this.ownerJoin()} ${raw(join)}`;
    const files = `${this.filesJoin} JOIN file_locations fl ON fl.file_id = f.id`;
    const folders = 'JOIN series_file_folders sf ON sf.series_id = xs.id';
    switch (id) {
      case 'Names':
        return this.names();
      case 'AniDBIDs':
        return sql`SELECT ${k} AS k, CAST(xs.anime_id AS TEXT) AS v ${from('')}`;
      case 'AnidbTags':
        return sql`SELECT ${k} AS k, t.name AS v ${from('JOIN anidb_anime_tags at ON at.anime_id = xs.anime_id JOIN anidb_tags t ON t.id = at.tag_id')}`;
      case 'AnidbTagIDs':
        return sql`SELECT ${k} AS k, CAST(at.tag_id AS TEXT) AS v ${from('JOIN anidb_anime_tags at ON at.anime_id = xs.anime_id')}`;
      case 'CustomTags':
        return sql`SELECT ${k} AS k, ct.name AS v ${from('JOIN series_custom_tags sct ON sct.series_id = xs.id JOIN custom_tags ct ON ct.id = sct.tag_id')}`;
      case 'CustomTagIDs':
        return sql`SELECT ${k} AS k, CAST(sct.tag_id AS TEXT) AS v ${from('JOIN series_custom_tags sct ON sct.series_id = xs.id')}`;
      case 'CharacterIDs':
        return sql`SELECT ${k} AS k, CAST(ac.character_id AS TEXT) AS v ${from('JOIN anidb_anime_characters ac ON ac.anime_id = xs.anime_id')}`;
      case 'CreatorIDs':
        return sql`SELECT ${k} AS k, CAST(ast.creator_id AS TEXT) AS v ${from('JOIN anidb_anime_staff ast ON ast.anime_id = xs.anime_id')}`;
      case 'FilePaths':
        return sql`SELECT ${k} AS k, fl.relative_path AS v ${from(files)}`;
      // From the maintained folders of each series' locations (migration 0039): one row per series and folder.
      case 'ImportFolderIDs':
        return sql`SELECT ${k} AS k, CAST(sf.import_folder_id AS TEXT) AS v ${from(folders)}`;
      case 'ImportFolderNames':
        return sql`SELECT ${k} AS k, inf.name AS v ${from(`${folders} JOIN import_folders inf ON inf.id = sf.import_folder_id`)}`;
      // From the maintained release groups of each series' files (migration 0049): one row per series and group.
      case 'ReleaseGroupNames':
        return sql`SELECT ${k} AS k, rg.name AS v ${from(`${this.valuesJoin} JOIN anidb_release_groups rg ON CAST(rg.id AS TEXT) = v.value`)} WHERE v.kind = 'release_group'`;
      case 'PreferredImageTypes':
        return sql`SELECT ${k} AS k, p.image_type AS v ${from('JOIN series_preferred_images p ON p.series_id = xs.id')}`;
      case 'AvailableImageTypes': {
        const tmdb = TMDB_IMAGES.map(
          ({ link, image }) =>
            sql`UNION ALL SELECT ${k} AS k, ti.image_type AS v ${from(`JOIN ${link} ON x.anime_id = xs.anime_id ${image}`)}`,
        );
        return sql`SELECT ${k} AS k, 'Poster' AS v ${from(this.animeJoin)} WHERE ${raw(ANIDB_POSTER('a'))} ${sql.join(tmdb, raw(' '))}`;
      }
    }
    throw new FilterError(`'${id}' is not a string-set selector.`);
  }

  /**
   * The Names selector's (k, v) rows: the AniDB titles of the series' anime, its title override, and the name of its
   * group (with nested groups, also of the group's top-level group). `where` adds a condition on each kind's rows, given
   * their alias (`t`, `xs`, `g`); with `folds`, each row also carries the name's fold as `f` (db/name-folds.ts).
   */
  private names(where?: (kind: NameKind, alias: string) => Sql, folds = false): Sql {
    const k = this.ownerKey();
    const from = (join: string) => sql`FROM series xs ${this.ownerJoin()} ${raw(join)}`;
    const groups = this.groupNamesJoin();
    const conditions = (kind: NameKind, alias: string, always: Sql[] = []) => {
      const all = where ? [...always, where(kind, alias)] : always;
      return all.length ? sql`WHERE ${sql.join(all, raw(' AND '))}` : raw('');
    };
    const fold = (column: string) => raw(folds ? `, ${column} AS f` : '');
    return sql`SELECT ${k} AS k, t.value AS v${fold('t.folded')} ${from('JOIN anidb_anime_titles t ON t.anime_id = xs.anime_id')} ${conditions('titles', 't')}
          UNION ALL SELECT ${k} AS k, xs.title_override AS v${fold('xs.title_override_folded')} ${from('')} ${conditions('overrides', 'xs', [raw('xs.title_override IS NOT NULL')])}
          UNION ALL SELECT ${k} AS k, g.name AS v${fold('g.name_folded')} ${from(groups)} ${conditions('groups', 'g')}`;
  }

  /** ORDER BY terms for a sorting chain; unknown criteria raise. NULLs sort last either way. */
  orderBy(sorting: SortingCriteria | null | undefined): Sql {
    const terms: Sql[] = [];
    for (let c: SortingCriteria | null | undefined = sorting ?? { Type: 'Name', IsInverted: false }; c; c = c.Next) {
      const key = this.sortKey(c.Type);
      // Names are never NULL; other keys sort NULLs last in either direction. NULLS LAST (not a CASE term before the
      // key) so a key that is a sub-query runs once per candidate: PostgreSQL ran it twice.
      const direction = c.IsInverted ? 'DESC' : 'ASC';
      terms.push(sql`${key} ${raw(c.Type === 'Name' || c.Type === 'SortingName' ? direction : `${direction} NULLS LAST`)}`);
    }
    terms.push(raw('it.id ASC'));
    return sql.join(terms);
  }

  private sortKey(type: string): Sql {
    if (!SORTING_CRITERIA.some((c) => c.type === type)) throw new FilterError(`Unknown sorting type '${type}'.`);
    // A series sorts by name as GET Series does, by its name-order key (db/name-order.ts: its JS-lower-cased name, code
    // unit by code unit, the same on both databases; an index of 0042). Sorting names, it reads the lower-cased name
    // kept on its row (series.name_key, migration 0040) and needs no AniDB anime row.
    if (type === 'Name' && this.scope.level === 'series') return raw('it.order_key');
    const name = this.scope.level === 'series' ? raw('it.name_key') : sql`lower(${this.stringSelector({ Type: 'Name' })})`;
    if (type === 'Name') return name;
    if (type === 'SortingName') {
      return sql`CASE WHEN ${name} LIKE 'the %' THEN substr(${name}, 5) WHEN ${name} LIKE 'an %' THEN substr(${name}, 4) WHEN ${name} LIKE 'a %' THEN substr(${name}, 3) ELSE ${name} END`;
    }
    const spec = EXPRESSION_BY_ID.get(type)!;
    return spec.type === 'DateSelector' ? this.dateSelector(type) : this.numberSelector(type);
  }
}

/** Checks the shape of a condition tree (every node an object with a string Type) and normalises ids. */
export function normaliseCondition(node: unknown, errors: FieldErrorCollector, path = 'Expression'): FilterCondition | null {
  if (node === null || node === undefined) return null;
  if (typeof node !== 'object' || Array.isArray(node)) {
    errors.add(path, 'A filter condition must be an object.');
    return null;
  }
  const input = Object.fromEntries(Object.entries(node as Record<string, unknown>).map(([k, v]) => [k.toLowerCase(), v]));
  if (typeof input.type !== 'string' || !input.type) {
    errors.add(`${path}.Type`, 'The Type field is required.');
    return null;
  }
  const id = stripExpressionId(input.type);
  if (!EXPRESSION_BY_ID.has(id)) {
    errors.add(path, `Unknown expression type '${input.type}'.`);
    return null;
  }
  const result: FilterCondition = { Type: id };
  const left = normaliseCondition(input.left, errors, `${path}.Left`);
  const right = normaliseCondition(input.right, errors, `${path}.Right`);
  if (left) result.Left = left;
  if (right) result.Right = right;
  for (const [key, field] of [
    ['parameter', 'Parameter'],
    ['secondparameter', 'SecondParameter'],
  ] as const) {
    const value = input[key];
    if (value !== undefined && value !== null) result[field] = String(value);
  }
  // Patterns are checked here, where the error can name the node's field.
  if (TEXT_MATCHERS.has(id) && result.Parameter !== undefined) {
    try {
      if (id.includes('Regex')) compilePattern(result.Parameter, !id.startsWith('String'));
      else if (result.Parameter.length > MAX_PATTERN_LENGTH)
        throw new PatternError(`The Parameter is longer than ${MAX_PATTERN_LENGTH} characters.`);
    } catch (error) {
      if (!(error instanceof PatternError)) throw error;
      errors.add(`${path}.Parameter`, error.message);
    }
  }
  return result;
}

export function normaliseSorting(node: unknown, errors: FieldErrorCollector, path = 'Sorting'): SortingCriteria | null {
  if (node === null || node === undefined) return null;
  if (typeof node !== 'object' || Array.isArray(node)) {
    errors.add(path, 'Sorting must be an object.');
    return null;
  }
  const input = Object.fromEntries(Object.entries(node as Record<string, unknown>).map(([k, v]) => [k.toLowerCase(), v]));
  if (typeof input.type !== 'string' || !SORTING_CRITERIA.some((c) => c.type === input.type)) {
    errors.add(path, `Unknown sorting type '${String(input.type)}'.`);
    return null;
  }
  const result: SortingCriteria = { Type: input.type, IsInverted: input.isinverted === true || input.isinverted === 'true' };
  const next = normaliseSorting(input.next, errors, `${path}.Next`);
  if (next) result.Next = next;
  return result;
}
