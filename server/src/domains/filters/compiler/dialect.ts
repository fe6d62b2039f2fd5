import type { DialectName } from '../../../db/database.js';
import { escapeLike, raw, sql, type Sql } from './fragments.js';

/** What SQLite and PostgreSQL spell differently, each fragment written for the scope's database. */

/** `text` holds `piece` (an SQL value, or a value to bind), compared as stored. */
export function holds(dialect: DialectName, text: Sql, piece: Sql | string): Sql {
  return dialect === 'postgres' ? sql`strpos(${text}, ${piece}) > 0` : sql`instr(${text}, ${piece}) > 0`;
}

/** The separator closing each of a series' maintained file paths (FILE_PATH_SEPARATOR, code 31) as SQL. */
export function pathSeparator(dialect: DialectName): Sql {
  return raw(dialect === 'postgres' ? 'chr(31)' : 'char(31)');
}

/** The `yyyy-MM-dd` text `date` moved by `days`. */
export function shiftDate(dialect: DialectName, date: Sql, days: number): Sql {
  return dialect === 'postgres'
    ? sql`to_char(CAST(${date} AS date) + CAST(${days} AS INTEGER), 'YYYY-MM-DD')`
    : sql`date(${date}, ${`${days >= 0 ? '+' : ''}${days} days`})`;
}

/** A text every match of a pattern holds (shared/text-match.ts requiredLiteral). */
export interface RequiredLiteral {
  text: string;
  written: string;
  prefix: boolean;
}

/**
 * `text` may match a pattern whose every match holds `literal` (shared/text-match.ts requiredLiteral): it holds the literal,
 * with ASCII letters compared in either case unless `caseSensitive`. For a prefix this is exact (a case-insensitive
 * pattern folds ASCII case only), and compares the first characters only: PostgreSQL's lower() of a whole name costs
 * about a microsecond. Anywhere in the text it admits more (case aside; PostgreSQL's lower() folds some other
 * letters to ASCII).
 */
export function holdsLiteral(dialect: DialectName, text: Sql, literal: RequiredLiteral, caseSensitive: boolean): Sql {
  const length = literal.text.length;
  if (caseSensitive && literal.prefix)
    return dialect === 'sqlite'
      ? sql`substr(${text}, 1, ${raw(String(length))}) = ${literal.written}`
      : sql`left(${text}, ${raw(String(length))}) = ${literal.written}`;
  // SQLite's LIKE compares ASCII letters in either case and every other character as it is.
  if (dialect === 'sqlite')
    return literal.prefix
      ? sql`substr(${text}, 1, ${raw(String(length))}) LIKE ${escapeLike(literal.text)} ESCAPE '\\'`
      : sql`${text} LIKE ${`%${escapeLike(literal.text)}%`} ESCAPE '\\'`;
  if (!literal.prefix) return sql`lower(${text}) LIKE ${`%${escapeLike(literal.text)}%`} ESCAPE '\\'`;
  // All ASCII (one byte each), so lower() folds nothing but ASCII letters there.
  const head = sql`left(${text}, ${raw(String(length))})`;
  return sql`(octet_length(${head}) = ${raw(String(length))} AND lower(${head}) = ${literal.text})`;
}
