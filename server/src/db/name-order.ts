import { sql, type Kysely } from 'kysely';
import { writeComputed } from './computed-columns.js';
import { upkeepUnlessDbFault } from './db-faults.js';

/**
 * Name-order keys (issue 22, migration 0042): `series.order_key` and `groups.order_key` hold each name as the lists sort
 * it in code — a series by its JS-lower-cased name, a group by its sort name (JS-upper-cased, `#` before a name that
 * does not start with A–Z) — written as four lower-case hex digits per UTF-16 code unit. Comparing two keys byte by
 * byte (SQLite's BINARY, PostgreSQL's "C" collation, which 0042 gives the columns) is then comparing the names code
 * unit by code unit, exactly as JS's `<` does, for every character, which no database collation or lower() promises.
 * A key is a prefix of another exactly when the name is, so `startsWith` is a range of the index.
 *
 * Code computes the keys (a database cannot run JS's case mapping). Triggers of 0042 clear a key, in the transaction of
 * the change, whenever what it is made of changes (a series' name key of 0040, a group's name); a new row starts
 * without one. `refreshOrderKeys` fills the missing keys before the lists read them.
 */
export const orderKey = (text: string): string => {
  let key = '';
  for (let i = 0; i < text.length; i++) key += text.charCodeAt(i).toString(16).padStart(4, '0');
  return key;
};

/** The end of the key range of every name starting with `prefix` (exclusive): 'g' sorts after every hex digit. */
export const orderKeyRangeEnd = (prefixKey: string): string => `${prefixKey}g`;

/** A group's sort name (contract §3.1): upper-cased, `#` in front when it does not start with A–Z. */
export const sortName = (name: string): string => {
  const upper = name.toUpperCase();
  return /^[A-Z]/.test(upper) ? upper : `#${upper}`;
};

/** `{ "#": 3, "A": 12 }`: how many sort names start with each character, keys sorted. */
export function letters(sortNames: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const name of sortNames.sort()) counts[name.charAt(0)] = (counts[name.charAt(0)] ?? 0) + 1;
  return counts;
}

/** A series' name as GET Series orders it: its title override, else its AniDB main title, else ''. */
export const seriesOrderKey = (titleOverride: string | null, mainTitle: string | null): string =>
  orderKey((titleOverride ?? mainTitle ?? '').toLowerCase());

export const groupOrderKey = (name: string): string => orderKey(sortName(name));

/**
 * Writes the keys of rows that have none (db/computed-columns.ts), each guarded by what it was computed from (the
 * series' name key, the group's name). Statistics gathered while the keys were empty tell the planner every row shares
 * one key: SQLite then walked the whole order-key index once per matching group (a 50-group page took 0.8-1 s at
 * 20,000 series), hence the fresh statistics after many keys.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function refreshOrderKeys(db: Kysely<any>): Promise<number> {
  // Those still missing are written by a later caller when the database cannot take the writes now (a full disk).
  return upkeepUnlessDbFault(db, () => writeMissingOrderKeys(db), 0);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function writeMissingOrderKeys(db: Kysely<any>): Promise<number> {
  const { rows: series } = await sql<{ id: number; title_override: string | null; main_title: string | null; name_key: string }>`
    SELECT s.id, s.title_override, a.main_title, s.name_key FROM series s LEFT JOIN anidb_anime a ON a.id = s.anime_id
    WHERE s.order_key IS NULL`.execute(db);
  const { rows: groups } = await sql<{ id: number; name: string }>`SELECT id, name FROM groups WHERE order_key IS NULL`.execute(db);
  await writeComputed(
    db,
    'series',
    'order_key',
    'name_key',
    series.map((s) => [s.id, seriesOrderKey(s.title_override, s.main_title), s.name_key]),
  );
  await writeComputed(
    db,
    'groups',
    'order_key',
    'name',
    groups.map((g) => [g.id, groupOrderKey(g.name), g.name]),
  );
  return series.length + groups.length;
}
