import type { TSchema } from '@sinclair/typebox';

/** The largest id, page or count a request may carry: PostgreSQL's `integer`. */
export const MAX_REQUEST_INTEGER = 2_147_483_647;

/**
 * Gives every integer in a request schema that has no bounds of its own the range of a database integer. Without it
 * ajv accepts `1e309` (Infinity) and 20-digit numbers as integers, and PostgreSQL fails on them with a 500.
 */
export function boundIntegers(schema: unknown, seen = new WeakSet<object>()): void {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
  seen.add(schema);
  const node = schema as TSchema & Record<string, unknown>;
  const types = [node.type].flat();
  if (types.includes('integer')) {
    node.maximum ??= MAX_REQUEST_INTEGER;
    node.minimum ??= -MAX_REQUEST_INTEGER;
  }
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) value.forEach((item) => boundIntegers(item, seen));
    else if (value && typeof value === 'object') boundIntegers(value, seen);
  }
}

/** The first non-finite number in a parsed request part (`1e309` parses to Infinity and slips through ajv's checks). */
export function findNonFinite(value: unknown, pathSoFar = ''): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : pathSoFar || 'value';
  if (!value || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const found = findNonFinite(item, pathSoFar ? `${pathSoFar}.${key}` : key);
    if (found) return found;
  }
  return null;
}
