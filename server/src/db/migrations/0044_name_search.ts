import { sql, type Kysely } from 'kysely';
import { NAME_SEARCH } from '../name-search.js';
import type { MigrationContext } from './helpers.js';

/**
 * Trigram indexes of the names the filters' Names selector reads (issue 22; db/name-search.ts). SQLite: one FTS5
 * trigram table per kind of name, filled here and kept by triggers on the base table in the same transaction as each
 * change (a NULL title override has no row). PostgreSQL: a pg_trgm GIN index of lower(name) per kind; without the
 * extension (not installed, or not allowed) the search stays a scan and answers the same, as 0036_file_search does.
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  if (ctx.dialect === 'postgres') {
    await run('SAVEPOINT name_search_trgm');
    try {
      await run('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    } catch {
      await run('ROLLBACK TO SAVEPOINT name_search_trgm');
      return;
    }
    for (const { table, column } of Object.values(NAME_SEARCH))
      await run(`CREATE INDEX ${table}_${column}_trgm ON ${table} USING gin ((lower(${column})) gin_trgm_ops)`);
    return;
  }
  for (const { table, column, search } of Object.values(NAME_SEARCH)) {
    await run(`CREATE VIRTUAL TABLE ${search} USING fts5(name, tokenize = 'trigram')`);
    await run(`INSERT INTO ${search} (rowid, name) SELECT id, ${column} FROM ${table} WHERE ${column} IS NOT NULL`);
    const add = `INSERT INTO ${search} (rowid, name) SELECT NEW.id, NEW.${column} WHERE NEW.${column} IS NOT NULL;`;
    const remove = `DELETE FROM ${search} WHERE rowid = OLD.id;`;
    const trigger = (event: string, body: string) =>
      run(`CREATE TRIGGER ${search}_${event.split(' ')[0].toLowerCase()} AFTER ${event} ON ${table} BEGIN ${body} END`);
    await trigger('INSERT', add);
    await trigger('DELETE', remove);
    await trigger(`UPDATE OF id, ${column}`, `${remove} ${add}`);
  }
}
