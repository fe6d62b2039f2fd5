import { sql, type Kysely } from 'kysely';

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

/** A series' name as GET Series orders it: its title override, else its AniDB main title, else ''. */
export const seriesOrderKey = (titleOverride: string | null, mainTitle: string | null): string =>
  orderKey((titleOverride ?? mainTitle ?? '').toLowerCase());

export const groupOrderKey = (name: string): string => orderKey(sortName(name));

const CHUNK = 500;
/** From this many keys written in one refresh on, the table's statistics are gathered again. */
const ANALYZE_AFTER = 1000;

/**
 * Writes the keys of rows that have none. Each write is guarded by what the key was computed from (the series' name key,
 * the group's name), so a key computed from a name that changed meanwhile is not stored; that row is filled next time.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function refreshOrderKeys(db: Kysely<any>): Promise<number> {
  const { rows: series } = await sql<{ id: number; title_override: string | null; main_title: string | null; name_key: string }>`
    SELECT s.id, s.title_override, a.main_title, s.name_key FROM series s LEFT JOIN anidb_anime a ON a.id = s.anime_id
    WHERE s.order_key IS NULL`.execute(db);
  const { rows: groups } = await sql<{ id: number; name: string }>`SELECT id, name FROM groups WHERE order_key IS NULL`.execute(db);
  const write = async (table: 'series' | 'groups', guard: string, values: Array<[number, string, string]>) => {
    for (let i = 0; i < values.length; i += CHUNK) {
      const chunk = values.slice(i, i + CHUNK).map(([id, key, source]) => sql`(${id}, ${key}, ${source})`);
      await sql`UPDATE ${sql.raw(table)} SET order_key = v.column2 FROM (VALUES ${sql.join(chunk)}) AS v
        WHERE ${sql.raw(table)}.id = CAST(v.column1 AS integer) AND ${sql.raw(table)}.order_key IS NULL
        AND ${sql.raw(`${table}.${guard}`)} = v.column3`.execute(db);
    }
  };
  if (series.length)
    await write(
      'series',
      'name_key',
      series.map((s) => [s.id, seriesOrderKey(s.title_override, s.main_title), s.name_key]),
    );
  if (groups.length)
    await write(
      'groups',
      'name',
      groups.map((g) => [g.id, groupOrderKey(g.name), g.name]),
    );
  // Statistics gathered while the keys were empty tell the planner every row shares one key: SQLite then walked the
  // whole order-key index once per matching group (a 50-group page took 0.8-1 s at 20,000 series). Many keys written
  // at once (a first start after the upgrade, an import) are worth fresh statistics.
  for (const [table, written] of [
    ['series', series.length],
    ['groups', groups.length],
  ] as const)
    if (written >= ANALYZE_AFTER) await sql`ANALYZE ${sql.raw(table)}`.execute(db);
  return series.length + groups.length;
}
