import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './helpers.js';

/**
 * An index for File/Search (issue 22): the search matches a text anywhere in a location's relative path, normalised
 * (`_` and `-` as spaces, runs of spaces as one, lower case; file-list.store.ts), which no ordinary index serves.
 * SQLite keeps each location's normalised path in an FTS5 table with the trigram tokenizer (rowid = the location's
 * id), kept by triggers on file_locations in the same transaction as the change; a LIKE on it reads the locations
 * that hold every three-letter run of the text. PostgreSQL indexes the same expression with pg_trgm's GIN operator
 * class; without the extension (not installed, or not allowed) the search stays a scan and answers the same.
 */
export const SEARCH_PATH_SQL = (column: string) =>
  `lower(replace(replace(replace(replace(replace(${column}, '_', ' '), '-', ' '), '  ', ' '), '  ', ' '), '  ', ' '))`;

export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  if (ctx.dialect === 'postgres') {
    await sql.raw('SAVEPOINT file_search_trgm').execute(db);
    try {
      await sql.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm').execute(db);
    } catch {
      await sql.raw('ROLLBACK TO SAVEPOINT file_search_trgm').execute(db);
      return;
    }
    await sql
      .raw(`CREATE INDEX file_locations_search ON file_locations USING gin ((${SEARCH_PATH_SQL('relative_path')}) gin_trgm_ops)`)
      .execute(db);
    return;
  }
  await sql.raw(`CREATE VIRTUAL TABLE file_location_search USING fts5(search_path, tokenize = 'trigram')`).execute(db);
  await sql
    .raw(`INSERT INTO file_location_search (rowid, search_path) SELECT id, ${SEARCH_PATH_SQL('relative_path')} FROM file_locations`)
    .execute(db);
  const add = `INSERT INTO file_location_search (rowid, search_path) VALUES (NEW.id, ${SEARCH_PATH_SQL('NEW.relative_path')});`;
  const remove = 'DELETE FROM file_location_search WHERE rowid = OLD.id;';
  const trigger = (name: string, event: string, body: string) =>
    sql.raw(`CREATE TRIGGER ${name} AFTER ${event} ON file_locations BEGIN ${body} END`).execute(db);
  await trigger('file_locations_search_insert', 'INSERT', add);
  await trigger('file_locations_search_delete', 'DELETE', remove);
  await trigger('file_locations_search_update', 'UPDATE OF id, relative_path', `${remove} ${add}`);
}
