// The compiler builds SQL fragments with kysely's `sql` (re-exported here for its files); it runs nothing, FiltersStore does.
// eslint-disable-next-line @typescript-eslint/no-restricted-imports
import { sql, type RawBuilder } from 'kysely';

export { sql };

/** A compiled SQL fragment (a condition, an order, a sub-query); FiltersStore runs it. */
export type CompiledSql = RawBuilder<unknown>;
export type Sql = CompiledSql;

/** A filter node that cannot be evaluated; the message names the node. */
export class FilterError extends Error {}

export const raw = (text: string) => sql.raw(text);

/** `value` lower-cased with LIKE's wildcards and its escape character (a backslash) escaped, for a bound pattern. */
export const escapeLike = (value: string) => value.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);

/** The SQL value `needle` lower-cased, with LIKE's wildcards and its escape character (a backslash) escaped. */
export function likeEscaped(needle: Sql): Sql {
  return sql`replace(replace(replace(lower(${needle}), '\\', '\\\\'), '%', '\\%'), '_', '\\_')`;
}

/** A LIKE pattern (escape character a backslash) of the SQL value `needle`: holding it, starting or ending with it. */
export function likePattern(needle: Sql, mode: 'contains' | 'starts' | 'ends'): Sql {
  const escaped = likeEscaped(needle);
  if (mode === 'starts') return sql`(${escaped} || '%')`;
  if (mode === 'ends') return sql`('%' || ${escaped})`;
  return sql`('%' || ${escaped} || '%')`;
}
