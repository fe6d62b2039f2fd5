import { sql, type Kysely } from 'kysely';
import { SEARCH_PATH_SQL } from './0036_file_search.js';
import type { MigrationContext } from './helpers.js';

/**
 * File/Search on PostgreSQL (issue 45): the trigram index of 0036 indexes the normalised path as an expression, so each
 * candidate it names had the expression computed again, twice (the LIKE's recheck, then the position of the text):
 * about 7,200 candidates for a word at 100,000 files, 25–50 ms of the search. The normalised path is now a stored
 * generated column, `search_path`, written with the row, and the trigram index is over it. SQLite keeps its FTS5 table
 * of 0036 and is unchanged. Without pg_trgm the column is still added (the search reads it) and stays unindexed.
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  if (ctx.dialect !== 'postgres') return;
  await sql
    .raw(`ALTER TABLE file_locations ADD COLUMN search_path text GENERATED ALWAYS AS (${SEARCH_PATH_SQL('relative_path')}) STORED`)
    .execute(db);
  const trigrams = await sql`SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'`.execute(db);
  if (trigrams.rows.length) {
    await sql.raw('DROP INDEX IF EXISTS file_locations_search').execute(db);
    await sql.raw('CREATE INDEX file_locations_search ON file_locations USING gin (search_path gin_trgm_ops)').execute(db);
  }
}
