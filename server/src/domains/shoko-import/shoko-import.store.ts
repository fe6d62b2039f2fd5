import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../db/database.js';
import { refreshMaintainedFigures } from '../../db/maintained-figures.js';
import type { Database } from '../../db/schema.js';
import { untouchedSeeds, type SeededTable } from '../../db/seeded-defaults.js';
import { deferListIndexes, suspendMarkTriggers } from '../../db/mark-triggers.js';
import type { ImportPlan, TableName } from './import-plan.js';

/**
 * Tables whose rows mean the database already holds a collection or accounts. What a new collection was given and
 * nobody changed (db/seeded-defaults.ts) does not count, nor do seeded rows of other tables.
 */
const USER_DATA_TABLES = ['users', 'import_folders', 'files', 'series', 'groups', 'filters', 'custom_tags'] as const;

/** Tables given explicit ids by the import: PostgreSQL's sequences must continue after the highest one. */
const SERIAL_TABLES: TableName[] = [
  'users',
  'import_folders',
  'files',
  'file_locations',
  'groups',
  'series',
  'episodes',
  'filters',
  'custom_tags',
];

/** SQLite allows 32,766 bound values per statement, PostgreSQL 65,535: rows per insert stay well under both. */
const VALUES_PER_STATEMENT = 30_000;
const MAX_ROWS_PER_STATEMENT = 500;
/** PostgreSQL: rows per INSERT … SELECT FROM json_populate_recordset (one parameter). */
const JSON_ROWS_PER_STATEMENT = 2_000;

/**
 * A table of this many rows or more is analysed once early while it is written: statistics of a table thought empty
 * are what make a trigger's lookup a scan; any size after that keeps the lookups on their indexes.
 */
const ANALYZE_ROWS = 2_000;
const ANALYZE_POINTS = [0.02];

export class ShokoImportStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  /** The tables that already hold user data (the import goes only into an empty database). */
  async nonEmptyTables(): Promise<string[]> {
    const seeds = await untouchedSeeds(this.db);
    const found: string[] = [];
    for (const table of USER_DATA_TABLES) {
      const seeded = seeds[table as SeededTable] ?? [];
      const others = seeded.length ? sql`WHERE id NOT IN (${sql.join(seeded)})` : sql.raw('');
      const row = await sql`SELECT 1 AS one FROM ${sql.table(table)} ${others} LIMIT 1`.execute(this.db);
      if (row.rows.length) found.push(table);
    }
    return found;
  }

  /** Removes what a new collection was given and nobody changed: the import brings the user's own from Shoko. */
  private async removeUntouchedSeeds(): Promise<void> {
    const seeds = await untouchedSeeds(this.db);
    for (const table of Object.keys(seeds) as SeededTable[]) {
      if (!seeds[table].length) continue;
      await this.db.deleteFrom(table).where('id', 'in', seeds[table]).execute();
      await this.db.deleteFrom('seeded_defaults').where('table_name', '=', table).where('row_id', 'in', seeds[table]).execute();
    }
  }

  /**
   * Writes the whole plan in one transaction: any failure rolls every row back. Checks emptiness again inside it, so
   * two imports (or an import and a first-run account) cannot both pass. What a new collection was given (presets,
   * custom tags, the default renamer config) makes way for Shoko's.
   */
  async write(plan: ImportPlan, progress: (table: string, written: number, total: number) => void): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const store = new ShokoImportStore(trx, this.dialect);
      const occupied = await store.nonEmptyTables();
      if (occupied.length) throw new Error(`the database is no longer empty (${occupied.join(', ')})`);
      await store.removeUntouchedSeeds();
      if (plan.rows('renamer_configs').length) await trx.deleteFrom('renamer_configs').execute();
      // Everything is marked for the aggregates' refresh anyway: the triggers that only mark are off meanwhile.
      const { markEverythingAndResume, maintainedTables } = await suspendMarkTriggers(trx, this.dialect);
      const buildListIndexes = await deferListIndexes(trx, this.dialect);
      const total = plan.rowCount;
      let written = 0;
      for (const [table, rows] of plan.entries()) {
        if (!rows.length) continue;
        if (table === 'files') {
          const media = new Map((await plan.fileMediaInfo).map((m) => [m.id, m.json]));
          for (const row of rows as Array<{ id: number; media_info: string | null }>) row.media_info = media.get(row.id) ?? null;
        }
        const analyzeAt = new Set(rows.length >= ANALYZE_ROWS ? ANALYZE_POINTS.map((p) => Math.round(p * rows.length)) : []);
        let tableWritten = 0;
        const columns = [...new Set(rows.flatMap((row) => Object.keys(row as object)))];
        const perStatement =
          this.dialect === 'postgres'
            ? JSON_ROWS_PER_STATEMENT
            : Math.max(1, Math.min(MAX_ROWS_PER_STATEMENT, Math.floor(VALUES_PER_STATEMENT / (columns.length || 1))));
        for (let i = 0; i < rows.length; i += perStatement) {
          const chunk = rows.slice(i, i + perStatement);
          if (this.dialect === 'postgres') {
            // One JSON parameter per statement instead of one per value: binding and parsing tens of thousands of
            // parameters was most of the time of writing a table without triggers.
            const list = sql.join(columns.map((c) => sql.id(c)));
            await sql`INSERT INTO ${sql.table(table)} (${list})
              SELECT ${list} FROM json_populate_recordset(NULL::${sql.table(table)}, ${JSON.stringify(chunk)}::json)`.execute(trx);
          } else {
            // The plan's rows are typed per table where they are built; here every table is written alike.
            await trx
              .insertInto(table)
              .values(chunk as never)
              .execute();
          }
          written += chunk.length;
          tableWritten += chunk.length;
          progress(table, written, total);
          // The maintaining triggers' queries are planned by the tables' statistics, which know nothing of the rows this
          // transaction wrote: without fresh ones each insert into files scanned all files written before it (and the
          // sort keys its trigger wrote). The table and what its triggers write are analysed as it grows.
          if ([...analyzeAt].some((at) => tableWritten >= at && tableWritten - chunk.length < at)) {
            const analyzed = [table, ...maintainedTables];
            // SQLite analyses one table per statement, PostgreSQL takes the list.
            if (this.dialect === 'postgres') await sql`ANALYZE ${sql.join(analyzed.map((t) => sql.table(t)))}`.execute(trx);
            else for (const t of analyzed) await sql`ANALYZE ${sql.table(t)}`.execute(trx);
          }
        }
      }
      await buildListIndexes();
      await markEverythingAndResume();
      if (this.dialect === 'postgres') {
        for (const table of SERIAL_TABLES) {
          await sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), GREATEST((SELECT MAX(id) FROM ${sql.table(table)}), 1), (SELECT MAX(id) FROM ${sql.table(table)}) IS NOT NULL)`.execute(
            trx,
          );
        }
      }
    });
  }

  /**
   * Brings every maintained figure up to date now, as a long-running server would have it, rather than leaving the work
   * to the first visits: series and group aggregates, collection statistics, the sort and search keys of names, the
   * folded count rows, and the planner's statistics.
   */
  async refreshMaintained(step: (message: string) => void): Promise<void> {
    // Statistics first: the planner of the figures' statements needs the new tables' sizes (SQLite: 48 s without, 5 s
    // with them at 100,000 files). PostgreSQL also vacuums: the first reader of a freshly written row settles its
    // commit status and writes the page back, which made the first refresh after 100,000 files 29 s instead of 7 s.
    step('Updating database statistics');
    await (this.dialect === 'postgres' ? sql`VACUUM (ANALYZE)` : sql`ANALYZE`).execute(this.db);
    await refreshMaintainedFigures(this.db, this.dialect, step);
    await sql`ANALYZE`.execute(this.db);
  }
}
