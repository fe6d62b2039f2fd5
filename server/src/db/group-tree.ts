import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

// The group tree's two reads that both the series' models (their top-level group) and the groups' own models need.

/** True when some group has a parent; flat collections skip the recursive group queries. */
export async function nestedGroups(db: Kysely<Database>): Promise<boolean> {
  return !!(await db.selectFrom('groups').select('id').where('parent_id', 'is not', null).limit(1).executeTakeFirst());
}

/** Top-level group of each given group. */
export async function topGroupsOf(db: Kysely<Database>, groupIds: number[], nested?: boolean): Promise<Map<number, number>> {
  const result = new Map<number, number>();
  const unique = [...new Set(groupIds)];
  if (!unique.length) return result;
  if (!(nested ?? (await nestedGroups(db)))) {
    for (const id of unique) result.set(id, id);
    return result;
  }
  const { rows } = await sql<{ start: number; id: number; parent_id: number | null }>`WITH RECURSIVE up(start, id, parent_id) AS (
      SELECT id, id, parent_id FROM groups WHERE id IN (${sql.join(unique)})
      UNION ALL SELECT u.start, g.id, g.parent_id FROM groups g JOIN up u ON g.id = u.parent_id)
    SELECT start, id, parent_id FROM up WHERE parent_id IS NULL`.execute(db);
  for (const row of rows) result.set(row.start, row.id);
  return result;
}
