import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeShokoDataFolder } from '@shoko-ts/fakes/shoko-data';
import { refreshSeriesAggregates } from '../../db/aggregates.js';
import { rebuildCollectionStats } from '../../db/collection-stats.js';
import { createTestServer, type TestServer } from '../../test/harness.js';
import { summarize, tableRows, type TableSummary } from '../../test/table-checksums.js';

/** Every table a refresh of the aggregates or of the collection statistics computes. */
const FIGURE_TABLES = [
  'series_aggregates',
  'series_aggregate_values',
  'series_user_aggregates',
  'series_type_counts',
  'series_missing_air',
  'series_user_type_counts',
  'group_figures',
  'group_user_figures',
  'series_release_figures',
  'series_release_totals',
  'series_missing_days',
  'series_filter_figures',
  'series_file_folders',
  'series_recent_imports',
  'series_next_up',
  'collection_stats',
  'collection_stats_outside_files',
  'collection_stats_multiple_episodes',
  'collection_stats_located_files',
];

/**
 * The import writes with the triggers that only mark switched off and the list indexes of the sort keys dropped
 * (db/mark-triggers.ts), then marks everything: afterwards the schema is as a migration left it, and every maintained
 * figure equals a recomputation of the whole collection.
 */
describe('ShokoImport: the bulk write leaves the database as the triggers would have', () => {
  let server: TestServer;
  let root: string;
  let schemaBefore: string[];

  const schema = async () => {
    const rows =
      server.services.db.dialect === 'sqlite'
        ? (
            await sql<{ entry: string }>`SELECT type || ' ' || name || ' ' || COALESCE(sql, '') AS entry FROM sqlite_master
              WHERE type IN ('trigger', 'index')`.execute(server.services.db.kysely)
          ).rows
        : (
            await sql<{
              entry: string;
            }>`SELECT 'trigger ' || tgname || ' ' || tgenabled::text AS entry FROM pg_trigger WHERE NOT tgisinternal
              UNION ALL SELECT 'index ' || indexname || ' ' || indexdef FROM pg_indexes WHERE schemaname = current_schema()`.execute(
              server.services.db.kysely,
            )
          ).rows;
    return rows.map((r) => r.entry).sort();
  };
  const figures = async () => {
    const result: Record<string, TableSummary> = {};
    for (const table of FIGURE_TABLES) result[table] = summarize(await tableRows(server.services.db, table));
    return result;
  };

  beforeAll(async () => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-figures-')));
    const folder = await writeShokoDataFolder(path.join(root, 'shoko'), { size: 'small', mediaRoot: path.join(root, 'media') });
    server = await createTestServer();
    schemaBefore = await schema();
    await server.services.shokoImport.run({ Folder: folder.dir }, { dryRun: false });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('has every trigger and index back as before (PostgreSQL: every trigger enabled)', async () => {
    expect(await schema()).toEqual(schemaBefore);
  });

  it('has every maintained figure as a full recomputation gives it', async () => {
    const imported = await figures();
    expect(imported.series_aggregates.rows).toBeGreaterThan(0);
    expect(imported.group_figures.rows).toBeGreaterThan(0);
    const db = server.services.db;
    await sql`INSERT INTO aggregate_dirty_series (series_id) SELECT id FROM series`.execute(db.kysely);
    await sql`INSERT INTO aggregate_dirty_groups (group_id) SELECT id FROM groups`.execute(db.kysely);
    await refreshSeriesAggregates(db.kysely, db.dialect);
    await db.kysely.transaction().execute(async (trx) => {
      for (const statement of rebuildCollectionStats()) await statement.execute(trx);
    });
    expect(await figures()).toEqual(imported);
  });

  it('answers the collection statistics of the files it wrote', async () => {
    const stats = await sql<{
      file_count: number;
      location_count: number;
    }>`SELECT file_count, location_count FROM collection_stats`.execute(server.services.db.kysely);
    const files = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM file_locations`.execute(server.services.db.kysely);
    expect(Number(stats.rows[0].location_count)).toBe(Number(files.rows[0].n));
  });
});
