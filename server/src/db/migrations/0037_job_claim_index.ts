import type { Kysely } from 'kysely';
import type { MigrationContext } from './helpers.js';

/**
 * Waiting jobs by kind, in queue order (issue 22, import-stall): while one kind is at its concurrency cap (hashing at
 * 2 during an import of thousands of files), the next job of another kind is found with a seek per kind waiting
 * instead of reading past every queued job of the capped kind on each claim.
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema.createIndex('jobs_kind_order').on('jobs').columns(['is_running', 'kind', 'priority', 'id']).execute();
}
