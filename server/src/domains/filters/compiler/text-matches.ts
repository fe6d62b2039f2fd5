import type { FilterCondition } from '@shoko-ts/contract';
import { stripExpressionId } from '../filter-catalogue.js';
import {
  compilePattern,
  fuzzyPieces,
  MAX_PATTERN_LENGTH,
  PatternError,
  requiredLiteral,
  TEXT_MATCHERS,
} from '../../../shared/text-match.js';
import type { Candidates } from './candidates.js';
import { holds, holdsLiteral } from './dialect.js';
import { FilterError, raw, sql, type Sql } from './fragments.js';
import { namesAllMatch } from './name-matches.js';
import { child, param } from './parameters.js';
import type { TextMatchPlan } from './scope.js';
import { candidateNames, names, stringExpr, stringSet } from './string-selectors.js';

/**
 * A regex/fuzzy node: the ids the worker resolved beforehand, with the candidates the database settles itself (see
 * TextMatchPlan); a placeholder when only validating.
 */
export function textMatch(c: Candidates, node: FilterCondition): Sql {
  const { settled } = textMatchPlan(c, node);
  const result = c.scope.textMatches?.get(node);
  if (!result) {
    if (c.scope.textMatches) throw new Error(`${node.Type} was not resolved before compiling.`);
    return raw('(1 = 0)');
  }
  // The ids are integers from the database, so they are inlined rather than bound (no parameter limits).
  const list = raw(result.ids.map((id) => String(Math.trunc(id))).join(', '));
  const resolved = result.ids.length
    ? sql`it.id ${raw(result.negate ? 'NOT IN' : 'IN')} (${list})`
    : raw(result.negate ? '1 = 1' : '1 = 0');
  if (!settled) return sql`(${resolved})`;
  // AllRegexMatches over Names: the names lacking the pattern's text fail, looked up per kind of name.
  const literal = result.negate ? requiredLiteral(param(node)) : null;
  const allHold = literal && namesAllMatch(c, node, (value) => holdsLiteral(c.scope.dialect, value, literal, false));
  if (allHold) return sql`(${resolved} AND ${allHold})`;
  const inSettled = sql`it.id IN (SELECT s.k FROM (${settled}) s)`;
  return result.negate ? sql`(${resolved} AND NOT ${inSettled})` : sql`(${resolved} OR ${inSettled})`;
}

/** What the service must evaluate outside SQL for a regex/fuzzy node; raises FilterError for a malformed node. */
export function textMatchPlan(c: Candidates, node: FilterCondition): TextMatchPlan {
  const id = stripExpressionId(node.Type);
  if (!TEXT_MATCHERS.has(id)) throw new FilterError(`'${node.Type}' is not a text-matching expression.`);
  const left = child(node, 'Left');
  const onSet = id.startsWith('Any') || id.startsWith('All');
  const values = onSet ? stringSet(c, left) : (stringExpr(c, left), candidateNames(c));
  if (id.includes('Regex')) {
    const pattern = param(node);
    try {
      compilePattern(pattern, onSet);
    } catch (error) {
      if (error instanceof PatternError) throw new FilterError(`${node.Type}: ${error.message}`);
      throw error;
    }
    const all = id === 'AllRegexMatches';
    const plan = { kind: 'regex', pattern, ignoreCase: onSet, all, folded: false, needles: null } as const;
    // Only the values holding the text every match holds go to the worker (shared/text-match.ts requiredLiteral): at 400k
    // files a twentieth of the 80,000 names start with `ka`. Under AllRegexMatches a value without it fails its
    // candidate, which the database settles.
    const literal = requiredLiteral(pattern);
    if (!literal) return { ...plan, values, settled: null };
    const like = holdsLiteral(c.scope.dialect, sql`q.v`, literal, !onSet);
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
  if (!constant) stringExpr(c, child(node, 'Right'));
  const plan = { kind: 'fuzzy', pattern: constant ? String(node.Parameter) : '', ignoreCase: true, all: false } as const;
  if (!constant) return { ...plan, values, folded: false, settled: null, needles: candidateNames(c) };
  if (onSet && stripExpressionId(left.Type) !== 'Names') return { ...plan, values, folded: false, settled: null, needles: null };
  // Names are compared by their folds kept in the database (db/name-folds.ts): a name can match only if its fold
  // holds a piece of the needle (fuzzyPieces). A needle allowing no edit is one piece, and holding it is the match,
  // so the database settles those candidates; a name not folded yet goes to the worker.
  const pieces = fuzzyPieces(plan.pattern);
  const folded = sql`SELECT q.k AS k, q.v AS v, q.f AS f FROM (${onSet ? names(c, undefined, true) : candidateNames(c, true)}) q`;
  if (pieces.length === 1)
    return {
      ...plan,
      values: sql`${folded} WHERE q.f IS NULL`,
      folded: true,
      settled: sql`${folded} WHERE ${holds(c.scope.dialect, sql`q.f`, pieces[0]!)}`,
      needles: null,
    };
  const holding = pieces.length
    ? sql.join(
        pieces.map((piece) => holds(c.scope.dialect, sql`q.f`, piece)),
        raw(' OR '),
      )
    : raw('1 = 0');
  return { ...plan, values: sql`${folded} WHERE q.f IS NULL OR ${holding}`, folded: true, settled: null, needles: null };
}
