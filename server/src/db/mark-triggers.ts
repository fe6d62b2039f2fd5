import { sql, type Kysely } from 'kysely';
import { rebuildCollectionStats } from './collection-stats.js';
import type { DialectName } from './database.js';
import type { Database } from './schema.js';

/**
 * Tables whose rows only say "recompute this later": series, groups, the collection statistics' changes, and Continue
 * Watching's (user, series) pairs (their series' refresh recomputes them too).
 */
const MARK_TABLES = new Set([
  'aggregate_dirty_series',
  'aggregate_dirty_groups',
  'collection_stats_changes',
  'collection_stats_dirty',
  'continue_watching_dirty',
]);

/** The tables a trigger body writes to. */
function writtenTables(body: string): Set<string> {
  return new Set([...body.matchAll(/\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"?(\w+)"?/gi)].map((m) => m[1].toLowerCase()));
}

const onlyMarks = (body: string) => {
  const tables = writtenTables(body);
  return tables.size > 0 && [...tables].every((t) => MARK_TABLES.has(t));
};

/**
 * For a bulk load inside one transaction: switches off the triggers whose only effect is a mark (about half of them:
 * a row per changed row, with lookups to find its series), and answers the function that, before the commit, marks
 * every series for the aggregates' refresh (it recomputes their groups and the groups' ancestors with them),
 * recomputes the collection statistics from scratch and switches the triggers on again. Triggers that keep data
 * themselves (sort keys, name keys, search tables, counts) stay on; the tables they write are answered too.
 */
export async function suspendMarkTriggers(
  trx: Kysely<Database>,
  dialect: DialectName,
): Promise<{ markEverythingAndResume: () => Promise<void>; maintainedTables: string[] }> {
  let resume: () => Promise<void>;
  let bodies: string[];
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ name: string; sql: string }>`SELECT name, sql FROM sqlite_master WHERE type = 'trigger'`.execute(trx);
    bodies = rows.map((r) => r.sql.slice(r.sql.search(/\bBEGIN\b/i)));
    const suspended = rows.filter((r) => onlyMarks(r.sql.slice(r.sql.search(/\bBEGIN\b/i))));
    for (const trigger of suspended) await sql`DROP TRIGGER ${sql.id(trigger.name)}`.execute(trx);
    resume = async () => {
      for (const trigger of suspended) await sql.raw(trigger.sql).execute(trx);
    };
  } else {
    const { rows } = await sql<{ trigger: string; table: string; body: string }>`
      SELECT t.tgname AS trigger, c.relname AS table, p.prosrc AS body
      FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
        JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE NOT t.tgisinternal AND n.nspname = current_schema()`.execute(trx);
    bodies = rows.map((r) => r.body);
    const suspended = rows.filter((r) => onlyMarks(r.body));
    const toggle = async (action: 'DISABLE' | 'ENABLE') => {
      for (const t of suspended) await sql`ALTER TABLE ${sql.id(t.table)} ${sql.raw(action)} TRIGGER ${sql.id(t.trigger)}`.execute(trx);
    };
    await toggle('DISABLE');
    resume = () => toggle('ENABLE');
  }
  // The tables the triggers that stay on write to (the load's statistics must cover them too).
  const maintainedTables = [...new Set(bodies.filter((b) => !onlyMarks(b)).flatMap((b) => [...writtenTables(b)]))].filter(
    (t) => !MARK_TABLES.has(t),
  );
  const markEverythingAndResume = async () => {
    await sql`INSERT INTO aggregate_dirty_series (series_id)
      SELECT id FROM series WHERE id NOT IN (SELECT series_id FROM aggregate_dirty_series)`.execute(trx);
    for (const statement of rebuildCollectionStats()) await statement.execute(trx);
    await resume();
  };
  return { markEverythingAndResume, maintainedTables };
}

/**
 * Tables whose secondary indexes only serve lists, never a trigger's lookup (those go by primary key): for a bulk load
 * they are dropped and built again at the end, once, instead of being updated for every row the triggers write (each
 * file's sort keys are written three times while its file, links and locations arrive).
 */
const LIST_ONLY_INDEXED = ['file_sort_keys'];

/** Drops the secondary (non-unique) indexes of LIST_ONLY_INDEXED and answers the function that creates them again. */
export async function deferListIndexes(trx: Kysely<Database>, dialect: DialectName): Promise<() => Promise<void>> {
  const definitions =
    dialect === 'sqlite'
      ? (
          await sql<{ name: string; definition: string }>`SELECT name, sql AS definition FROM sqlite_master
            WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${sql.join(LIST_ONLY_INDEXED)})`.execute(trx)
        ).rows.filter((r) => !/^\s*CREATE\s+UNIQUE\b/i.test(r.definition))
      : (
          await sql<{ name: string; definition: string }>`SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i
            JOIN pg_class c ON c.relname = i.indexname JOIN pg_index x ON x.indexrelid = c.oid
            WHERE i.schemaname = current_schema() AND i.tablename IN (${sql.join(LIST_ONLY_INDEXED)}) AND NOT x.indisunique`.execute(trx)
        ).rows;
  for (const index of definitions) await sql`DROP INDEX ${sql.id(index.name)}`.execute(trx);
  return async () => {
    for (const index of definitions) await sql.raw(index.definition).execute(trx);
  };
}
