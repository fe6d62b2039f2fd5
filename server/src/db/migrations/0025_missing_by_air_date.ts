import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './helpers.js';

/** The series aggregates gain missing episodes by air date (kind 'missing_air'): every series is recomputed. */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await sql`INSERT INTO aggregate_dirty_series (series_id) SELECT id FROM series WHERE id NOT IN (SELECT series_id FROM aggregate_dirty_series)`.execute(
    db,
  );
}
