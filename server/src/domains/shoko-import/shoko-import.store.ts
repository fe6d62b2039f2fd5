import { sql, type Kysely } from 'kysely';
import { refreshSeriesAggregates } from '../../db/aggregates.js';
import { collectionStats } from '../../db/collection-stats.js';
import type { DialectName } from '../../db/database.js';
import { foldFileKeyCounts } from '../../db/file-key-counts.js';
import { refreshNameFolds } from '../../db/name-folds.js';
import { refreshOrderKeys } from '../../db/name-order.js';
import type { Database } from '../../db/schema.js';
import { foldUserEpisodeCounts } from '../../db/user-episode-counts.js';
import type { ImportPlan, TableName } from './import-plan.js';

/** Tables whose rows mean the database already holds a collection or accounts (seeded rows elsewhere do not count). */
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

export class ShokoImportStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  /** The tables that already hold user data (the import goes only into an empty database). */
  async nonEmptyTables(): Promise<string[]> {
    const found: string[] = [];
    for (const table of USER_DATA_TABLES) {
      const row = await sql`SELECT 1 AS one FROM ${sql.table(table)} LIMIT 1`.execute(this.db);
      if (row.rows.length) found.push(table);
    }
    return found;
  }

  /**
   * Writes the whole plan in one transaction: any failure rolls every row back. Checks emptiness again inside it, so
   * two imports (or an import and a first-run account) cannot both pass. The seeded default renamer config makes way
   * for Shoko's configs.
   */
  async write(plan: ImportPlan, progress: (table: string, written: number, total: number) => void): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const store = new ShokoImportStore(trx, this.dialect);
      const occupied = await store.nonEmptyTables();
      if (occupied.length) throw new Error(`the database is no longer empty (${occupied.join(', ')})`);
      if (plan.rows('renamer_configs').length) await trx.deleteFrom('renamer_configs').execute();
      const total = plan.rowCount;
      let written = 0;
      for (const [table, rows] of plan.entries()) {
        if (!rows.length) continue;
        const columns = Object.keys(rows[0] as object).length || 1;
        const perStatement = Math.max(1, Math.min(MAX_ROWS_PER_STATEMENT, Math.floor(VALUES_PER_STATEMENT / columns)));
        for (let i = 0; i < rows.length; i += perStatement) {
          const chunk = rows.slice(i, i + perStatement);
          // The plan's rows are typed per table where they are built; here every table is written alike.
          await trx
            .insertInto(table)
            .values(chunk as never)
            .execute();
          written += chunk.length;
          progress(table, written, total);
        }
      }
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
    step('Computing series and group figures');
    await refreshSeriesAggregates(this.db, this.dialect);
    step('Computing collection statistics');
    await collectionStats(this.db, this.dialect);
    step('Preparing name order and search');
    await refreshOrderKeys(this.db);
    await refreshNameFolds(this.db);
    await foldUserEpisodeCounts(this.db, this.dialect);
    await foldFileKeyCounts(this.db, this.dialect);
    step('Updating database statistics');
    await sql`ANALYZE`.execute(this.db);
  }
}
