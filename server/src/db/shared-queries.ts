import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { DialectName } from './database.js';
import type { Database } from './schema.js';

/** Query pieces that the stores of several domains use alike. */

/** The AniDB episode columns (table alias `ae`) that an AniDB episode model is built from, besides the id. */
export const ANIDB_EPISODE_MODEL_COLUMNS = [
  'ae.anime_id',
  'ae.type',
  'ae.number',
  'ae.air_date',
  'ae.titles',
  'ae.description',
  'ae.rating',
  'ae.votes',
] as const;

/** Inserts a group (no custom description, no preferred series) created and updated at `stamp`; answers its id. */
export async function insertGroup(
  db: Kysely<Database>,
  group: { parent_id: number | null; name: string; description: string; has_custom_name?: number },
  stamp: string,
): Promise<number> {
  const { id } = await db
    .insertInto('groups')
    .values({
      parent_id: group.parent_id,
      name: group.name,
      description: group.description,
      has_custom_name: group.has_custom_name ?? 0,
      has_custom_description: 0,
      preferred_series_id: null,
      created_at: stamp,
      updated_at: stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/**
 * Runs `query` over `ids` in slices and joins the rows: SQLite refuses statements with more than 32,766 bound values,
 * and a whole-collection list (pageSize 0) can ask about every file at once.
 */
export async function inSlices<T>(ids: number[], query: (slice: number[]) => Promise<T[]>, size = 5000): Promise<T[]> {
  const rows: T[] = [];
  for (let i = 0; i < ids.length; i += size) rows.push(...(await query(ids.slice(i, i + size))));
  return rows;
}

/** From this many ids on, `byIds` reads the whole table once instead of slices of `IN` lists. */
export const WHOLE_TABLE_IDS = 20_000;

/**
 * The rows of `ids`: by slices of `IN` lists (`slice`), or, for a whole-collection list, by one read of every row
 * (`whole`) keeping those asked for. At 100,000 files twenty 5,000-value lists cost ten times one scan.
 */
export async function byIds<T>(
  ids: number[],
  idOf: (row: T) => number,
  slice: (ids: number[]) => Promise<T[]>,
  whole: () => Promise<T[]>,
): Promise<T[]> {
  if (ids.length < WHOLE_TABLE_IDS) return inSlices(ids, slice);
  const wanted = new Set(ids);
  return (await whole()).filter((row) => wanted.has(idOf(row)));
}

/**
 * `expression IN (values)` for a list of texts of any length: up to a few thousand as bound values, beyond that as one
 * bound JSON array (SQLite `json_each`) or text array (PostgreSQL `ANY`), since a statement may bind at most 32,766
 * (SQLite) or 65,535 (PostgreSQL) values and a whole-collection list can ask about more.
 */
export function inTexts(dialect: DialectName, expression: RawBuilder<unknown>, values: string[]): RawBuilder<SqlBool> {
  if (values.length <= 5000) return sql<SqlBool>`${expression} IN (${sql.join(values)})`;
  return dialect === 'postgres'
    ? sql<SqlBool>`${expression} = ANY(CAST(${values} AS text[]))`
    : sql<SqlBool>`${expression} IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;
}
