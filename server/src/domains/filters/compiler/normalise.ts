import type { FilterCondition, SortingCriteria } from '@shoko-ts/contract';
import type { FieldErrorCollector } from '../../../http/problem.js';
import { EXPRESSION_BY_ID, SORTING_CRITERIA, stripExpressionId } from '../filter-catalogue.js';
import { compilePattern, MAX_PATTERN_LENGTH, PatternError, TEXT_MATCHERS } from '../../../shared/text-match.js';

/** A request body's object with its keys lower-cased (the API reads them case-insensitively). */
const lowerKeys = (node: object) =>
  Object.fromEntries(Object.entries(node as Record<string, unknown>).map(([k, v]) => [k.toLowerCase(), v]));

/** Checks the shape of a condition tree (every node an object with a string Type) and normalises ids. */
export function normaliseCondition(node: unknown, errors: FieldErrorCollector, path = 'Expression'): FilterCondition | null {
  if (node === null || node === undefined) return null;
  if (typeof node !== 'object' || Array.isArray(node)) {
    errors.add(path, 'A filter condition must be an object.');
    return null;
  }
  const input = lowerKeys(node);
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

/** Checks the shape of a sorting chain (every criterion a known Type) and reads IsInverted as a boolean. */
export function normaliseSorting(node: unknown, errors: FieldErrorCollector, path = 'Sorting'): SortingCriteria | null {
  if (node === null || node === undefined) return null;
  if (typeof node !== 'object' || Array.isArray(node)) {
    errors.add(path, 'Sorting must be an object.');
    return null;
  }
  const input = lowerKeys(node);
  if (typeof input.type !== 'string' || !SORTING_CRITERIA.some((c) => c.type === input.type)) {
    errors.add(path, `Unknown sorting type '${String(input.type)}'.`);
    return null;
  }
  const result: SortingCriteria = { Type: input.type, IsInverted: input.isinverted === true || input.isinverted === 'true' };
  const next = normaliseSorting(input.next, errors, `${path}.Next`);
  if (next) result.Next = next;
  return result;
}
