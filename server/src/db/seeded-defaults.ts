import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * Rows a new collection was given (migration 0055) are recorded in `seeded_defaults` with their content as written.
 * A seed whose row still holds that content is untouched: a Shoko import replaces those with the user's own and does
 * not count them as data already there; an edited or deleted seed is the user's and is never written again.
 */
export const SEEDED_COLUMNS = {
  filters: [
    'parent_id',
    'name',
    'is_locked',
    'is_directory',
    'is_hidden',
    'apply_at_series_level',
    'expression',
    'sorting',
    'directory_of',
  ],
  custom_tags: ['name', 'description'],
} as const;
export type SeededTable = keyof typeof SEEDED_COLUMNS;

/** The recorded content of a row: its seeded columns in a fixed order. Flags read back as numbers on both databases. */
export const seededContent = (table: SeededTable, row: Record<string, unknown>): string =>
  JSON.stringify(SEEDED_COLUMNS[table].map((column) => row[column] ?? null));

/** Ids of the seeded rows of each table that still hold their seeded content. */
export async function untouchedSeeds(db: Kysely<Database>): Promise<Record<SeededTable, number[]>> {
  const result: Record<SeededTable, number[]> = { filters: [], custom_tags: [] };
  const seeds = await db.selectFrom('seeded_defaults').selectAll().execute();
  for (const table of Object.keys(SEEDED_COLUMNS) as SeededTable[]) {
    const recorded = new Map(seeds.filter((s) => s.table_name === table).map((s) => [s.row_id, s.content]));
    if (!recorded.size) continue;
    const rows = await db
      .selectFrom(table)
      .select(['id', ...SEEDED_COLUMNS[table]] as never[])
      .where('id', 'in', [...recorded.keys()])
      .execute();
    for (const row of rows as Array<Record<string, unknown> & { id: number }>)
      if (recorded.get(row.id) === seededContent(table, row)) result[table].push(row.id);
  }
  return result;
}
