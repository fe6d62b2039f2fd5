import type { FilterCondition } from '@shoko-ts/contract';
import type { Candidates } from './candidates.js';
import { dateExpr, shiftedDate } from './date-selectors.js';
import { escapeLike, likePattern, raw, sql, type Sql } from './fragments.js';
import { filePathsMatch, filePathsMatchBySelector, lowerFilePaths, namesAllMatch, namesMatch } from './name-matches.js';
import { numberExpr } from './number-selectors.js';
import { addDays, child, dateParam, numberParam } from './parameters.js';
import { stringExpr, stringSet } from './string-selectors.js';

const OPERATORS: Record<string, string> = {
  Equals: '=',
  NotEquals: '<>',
  GreaterThan: '>',
  GreaterThanEquals: '>=',
  LessThan: '<',
  LessThanEquals: '<=',
};

/**
 * A comparison node (`id` without its namespace) of the Left selector with the Right one or Parameter: numbers,
 * dates, strings and string sets. Null for any other node.
 */
export function comparison(c: Candidates, id: string, node: FilterCondition): Sql | null {
  if (id.startsWith('Number') && OPERATORS[id.slice('Number'.length)])
    return numberComparison(c, OPERATORS[id.slice('Number'.length)]!, node);
  if (id.startsWith('Date') && OPERATORS[id.slice('Date'.length)]) return dateComparison(c, OPERATORS[id.slice('Date'.length)]!, node);
  switch (id) {
    case 'AnyContains':
    case 'AnyEquals':
    case 'AllContains':
      return setComparison(c, id, node);
    case 'StringContains':
    case 'StringEquals':
    case 'StringNotEquals':
    case 'StringStartsWith':
    case 'StringEndsWith':
      return stringComparison(c, id, node);
  }
  return null;
}

function numberComparison(c: Candidates, op: string, node: FilterCondition): Sql {
  const left = numberExpr(c, child(node, 'Left'));
  const right = node.Right ? numberExpr(c, node.Right) : sql`CAST(${numberParam(node)} AS DOUBLE PRECISION)`;
  if (op === '=') return sql`(abs(${left} - ${right}) < 0.001)`;
  if (op === '<>') return sql`(abs(${left} - ${right}) >= 0.001)`;
  return sql`(${left} ${raw(op)} ${right})`;
}

function dateComparison(c: Candidates, op: string, node: FilterCondition): Sql {
  // A shifted date against a constant compares the date itself with the constant shifted back: no date
  // arithmetic per candidate (PostgreSQL formatted one per group: 60 ms of a collection page at 400k files).
  const shifted = node.Right ? null : shiftedDate(child(node, 'Left'));
  const left = shifted ? dateExpr(c, shifted.date) : dateExpr(c, child(node, 'Left'));
  const right = node.Right
    ? dateExpr(c, node.Right)
    : sql`CAST(${shifted ? addDays(dateParam(node), -shifted.days) : dateParam(node)} AS TEXT)`;
  return sql`(${left} IS NOT NULL AND ${right} IS NOT NULL AND ${left} ${raw(op)} ${right})`;
}

function setComparison(c: Candidates, id: 'AnyContains' | 'AnyEquals' | 'AllContains', node: FilterCondition): Sql {
  const paths = id === 'AllContains' ? lowerFilePaths(c, node) : null;
  const set = paths ?? stringSet(c, child(node, 'Left'));
  const constant = node.Parameter !== undefined && node.Parameter !== null;
  const needle = constant ? sql`${String(node.Parameter)}` : stringExpr(c, child(node, 'Right'));
  const pattern = constant ? sql`${`%${escapeLike(String(node.Parameter))}%`}` : likePattern(needle, 'contains');
  const equals = constant ? sql`${String(node.Parameter).toLowerCase()}` : sql`lower(${needle})`;
  const matches = (value: Sql) =>
    id === 'AnyEquals' ? sql`lower(${value}) = ${equals}` : sql`lower(${value}) LIKE ${pattern} ESCAPE '\\'`;
  const match = matches(raw('q.v'));
  // PostgreSQL makes this one anti-join of the candidates and the set (as NOT IN it scanned the set per candidate).
  const noneFails = sql`(NOT EXISTS (SELECT 1 FROM (${set}) q WHERE q.k = it.id AND NOT (${match})))`;
  if (!constant) {
    if (id === 'AllContains') return noneFails;
    const generic = sql`EXISTS (SELECT 1 FROM (${set}) q WHERE q.k = it.id AND ${match})`;
    return filePathsMatchBySelector(c, node, id === 'AnyEquals', needle, generic) ?? generic;
  }
  if (id === 'AllContains') {
    if (paths) return noneFails;
    return namesAllMatch(c, node, matches) ?? sql`(it.id NOT IN (SELECT q.k FROM (${set}) q WHERE q.k IS NOT NULL AND NOT (${match})))`;
  }
  const found = filePathsMatch(c, node, id === 'AnyEquals');
  if (found) return found;
  const names = namesMatch(c, node, matches);
  if (names) return names;
  return sql`it.id IN (SELECT q.k FROM (${set}) q WHERE ${match})`;
}

function stringComparison(c: Candidates, id: string, node: FilterCondition): Sql {
  const left = sql`lower(${stringExpr(c, child(node, 'Left'))})`;
  const needle =
    node.Parameter !== undefined && node.Parameter !== null ? sql`${String(node.Parameter)}` : stringExpr(c, child(node, 'Right'));
  if (id === 'StringEquals') return sql`(${left} = lower(${needle}))`;
  if (id === 'StringNotEquals') return sql`(${left} <> lower(${needle}))`;
  const mode = id === 'StringContains' ? 'contains' : id === 'StringStartsWith' ? 'starts' : 'ends';
  return sql`(${left} <> '' AND ${left} LIKE ${likePattern(needle, mode)} ESCAPE '\\')`;
}
