import type { FilterCondition } from '@shoko-ts/contract';
import { FILE_PATH_SEPARATOR } from '../../../db/filter-figures.js';
import { NAME_SEARCH, nameCandidates, type NameKind } from '../../../db/name-search.js';
import { stripExpressionId } from '../filter-catalogue.js';
import { SERIES_JOINS, type Candidates } from './candidates.js';
import { holds, pathSeparator } from './dialect.js';
import { escapeLike, likeEscaped, raw, sql, type Sql } from './fragments.js';
import { child } from './parameters.js';
import { candidateNames, names, stringSetById } from './string-selectors.js';

// The fast forms of AnyContains/AnyEquals/AllContains (and the names AllRegexMatches settles) over Names and FilePaths:
// each looked up where the values are stored and indexed, giving the same matches as the generic form over the set.

/**
 * `AnyContains`/`AnyEquals` of FilePaths with a constant: looked up in each series' maintained paths (lower-cased,
 * each closed by the separator; migration 0039) instead of every location of the collection. Null when the
 * generic form must answer (another selector, or a needle holding the separator, which could span two paths).
 */
export function filePathsMatch(c: Candidates, node: FilterCondition, equals: boolean): Sql | null {
  if (stripExpressionId(child(node, 'Left').Type) !== 'FilePaths') return null;
  const needle = String(node.Parameter);
  if (needle.includes(FILE_PATH_SEPARATOR)) return null;
  const escaped = escapeLike(needle);
  const pattern = equals ? `%${FILE_PATH_SEPARATOR}${escaped}${FILE_PATH_SEPARATOR}%` : `%${escaped}%`;
  return c.anySeries(sql`ff.file_paths LIKE ${pattern} ESCAPE '\\'`, SERIES_JOINS.figures);
}

/**
 * The same with a `Right` selector (the candidate's name) as the needle, per candidate: the generic form `generic`
 * answers only for a needle holding the separator.
 */
export function filePathsMatchBySelector(c: Candidates, node: FilterCondition, equals: boolean, needle: Sql, generic: Sql): Sql | null {
  if (stripExpressionId(child(node, 'Left').Type) !== 'FilePaths') return null;
  const separator = pathSeparator(c.scope.dialect);
  const escaped = likeEscaped(needle);
  const pattern = equals ? sql`('%' || ${separator} || ${escaped} || ${separator} || '%')` : sql`('%' || ${escaped} || '%')`;
  const holdsSeparator = holds(c.scope.dialect, needle, separator);
  if (c.scope.level === 'series')
    return sql`(CASE WHEN ${holdsSeparator} THEN ${generic} ELSE ${c.anySeries(sql`ff.file_paths LIKE ${pattern} ESCAPE '\\'`, SERIES_JOINS.figures, 'exists')} END)`;
  // A group's needle is its own name, while its paths are its series': each series' paths are compared with the name
  // of the group it belongs to in one pass. Probed per group, PostgreSQL compared every group's name with the paths of
  // the whole collection (28 s for the 4,500 groups of a 100,000-file Shoko import; AnyEquals over 120 s).
  const owner = c.ownerKey();
  const byName = equals
    ? sql`('%' || ${separator} || ${likeEscaped(raw('n.v'))} || ${separator} || '%')`
    : sql`('%' || ${likeEscaped(raw('n.v'))} || '%')`;
  const matching = sql`SELECT ${owner} FROM series xs ${c.ownerJoin()} ${raw(SERIES_JOINS.figures)} JOIN (${candidateNames(c)}) n ON n.k = ${owner}
    WHERE ff.file_paths LIKE ${byName} ESCAPE '\\'`;
  return sql`(CASE WHEN ${holdsSeparator} THEN ${generic} ELSE it.id IN (${matching}) END)`;
}

/**
 * PostgreSQL: FilePaths for `AllContains` as (k, v) rows of lower-cased paths, read from each series' maintained paths
 * (split at the separator) rather than joined from every location through the links: PostgreSQL expected one row of
 * that join (the files and links joined on ed2k and size) and scanned the series and the group tree for each of the
 * 100,000 (over 120 s at group level on a 100,000-file Shoko import). The joined form answers while some path holds the
 * separator (it would split there). Null on SQLite or for another selector.
 */
export function lowerFilePaths(c: Candidates, node: FilterCondition): Sql | null {
  if (c.scope.dialect !== 'postgres' || stripExpressionId(child(node, 'Left').Type) !== 'FilePaths') return null;
  const separator = pathSeparator(c.scope.dialect);
  const held = sql`EXISTS (SELECT 1 FROM file_locations hl WHERE strpos(hl.relative_path, ${separator}) > 0)`;
  return sql`SELECT ${c.ownerKey()} AS k, p.v AS v FROM series xs ${c.ownerJoin()} ${raw(SERIES_JOINS.figures)}
      CROSS JOIN LATERAL unnest(string_to_array(ff.file_paths, ${separator})) p(v) WHERE p.v <> '' AND NOT ${held}
    UNION ALL SELECT q.k, q.v FROM (${stringSetById(c, 'FilePaths')}) q WHERE ${held}`;
}

/**
 * `AnyContains`/`AnyEquals` of Names with a constant (the console's collection search): each kind of name compared
 * where it is stored, through its trigram index (migration 0044, db/name-search.ts), with the comparison `matches` of
 * the generic form, so the matches are the same. On SQLite the trigram table names the rows that may hold the text
 * (a text under three characters has no trigram: every name is compared); PostgreSQL's planner reads the GIN index of
 * lower(name) for the comparison itself. A series is found by its own anime, override and group (ownNames): joining
 * the matching names to their series took PostgreSQL 70 ms of the search at 400k files, this 45.
 */
export function namesMatch(c: Candidates, node: FilterCondition, matches: (value: Sql) => Sql): Sql | null {
  if (stripExpressionId(child(node, 'Left').Type) !== 'Names') return null;
  const text = String(node.Parameter).toLowerCase();
  const where = (kind: NameKind, alias: string) => {
    const compare = matches(raw(`${alias}.${NAME_SEARCH[kind].column}`));
    const candidates = c.scope.dialect === 'sqlite' ? nameCandidates(kind, text) : null;
    return candidates ? sql`${raw(alias)}.id IN (${candidates}) AND ${compare}` : compare;
  };
  if (c.scope.level === 'series') return ownNames(c, 'any', where);
  return sql`it.id IN (SELECT q.k FROM (${names(c, where)}) q)`;
}

/**
 * `AllContains` of Names with a constant, and the names AllRegexMatches settles: no name of the candidate fails
 * `matches`, each kind of name looked up where it is stored (at series level by ownNames). The generic form gathers
 * every failing name of the collection into one set of candidate ids first: PostgreSQL took 73-97 ms for it at 400k
 * files (60,000 titles), 32-38 ms for this.
 */
export function namesAllMatch(c: Candidates, node: FilterCondition, matches: (value: Sql) => Sql): Sql | null {
  if (stripExpressionId(child(node, 'Left').Type) !== 'Names') return null;
  const fails = (kind: NameKind, alias: string) => sql`NOT (${matches(raw(`${alias}.${NAME_SEARCH[kind].column}`))})`;
  if (c.scope.level === 'series') return ownNames(c, 'none', fails);
  // In a nested collection the groups with a failing name below them are gathered once over the tree (their ids are
  // never NULL): correlated on each group, the sub-queries joining the tree to its tops took seconds.
  const none = (joins: string, where: Sql) =>
    c.scope.nested ? sql`NOT ${c.anySeries(where, joins)}` : sql`NOT EXISTS (SELECT 1 ${c.seriesOfCandidate(joins, where)})`;
  return sql`(${none('JOIN anidb_anime_titles t ON t.anime_id = xs.anime_id', fails('titles', 't'))}
      AND ${none('', sql`xs.title_override IS NOT NULL AND ${fails('overrides', 'xs')}`)}
      AND ${none(c.groupNamesJoin(), fails('groups', 'g'))})`;
}

/**
 * At series level: whether `any` of the candidate's names, or `none` of them, meets `where` (given each kind's alias:
 * `t`, `it`, `g`), each kind looked up by the candidate's own anime, override and group(s).
 */
function ownNames(c: Candidates, mode: 'any' | 'none', where: (kind: NameKind, alias: string) => Sql): Sql {
  const groups = c.scope.nested ? 'gup u JOIN groups g ON g.id IN (u.id, u.top)' : 'groups g';
  const group = c.scope.nested ? 'u.id' : 'g.id';
  const override = sql`(it.title_override IS NOT NULL AND ${where('overrides', 'it')})`;
  if (mode === 'any') {
    // In a nested collection a series' group matches by its own name or its top group's: the matching groups are
    // found once and the tree's rows checked against them. Joined on `g.id IN (u.id, u.top)`, PostgreSQL compared every
    // row of the tree with every matching group (130 of 147 ms of the console search on a 100,000-file Shoko import).
    const matchingGroups = () => sql`SELECT g.id FROM groups g WHERE ${where('groups', 'g')}`;
    const groupMatches = c.scope.nested
      ? sql`it.group_id IN (SELECT u.id FROM gup u WHERE u.id IN (${matchingGroups()}) OR u.top IN (${matchingGroups()}))`
      : sql`it.group_id IN (${matchingGroups()})`;
    return sql`(it.anime_id IN (SELECT t.anime_id FROM anidb_anime_titles t WHERE ${where('titles', 't')}) OR ${override}
        OR ${groupMatches})`;
  }
  return sql`(NOT EXISTS (SELECT 1 FROM anidb_anime_titles t WHERE t.anime_id = it.anime_id AND ${where('titles', 't')})
      AND NOT ${override}
      AND NOT EXISTS (SELECT 1 FROM ${raw(groups)} WHERE ${raw(group)} = it.group_id AND ${where('groups', 'g')}))`;
}
