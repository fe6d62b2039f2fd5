import { sql, type Kysely } from 'kysely';
import { fillCollectionStats } from '../collection-stats.js';
import type { MigrationContext } from './helpers.js';

/**
 * Dashboard/Stats' row (0031) kept up to date by what changed instead of recomputed from every file after any change
 * (issue 22; db/collection-stats.ts). Triggers on files, links, series and locations write what each row change
 * touches into `collection_stats_changes`, in the transaction of the change: the file and its content, the link's
 * content and episode, the series' anime, the location's file, with the row-local differences in file count, size and
 * location count. Three small tables hold the state the figures are counted from, the exceptions rather than the
 * rule: files outside the collection (no link to a series' anime; the unrecognized among them flagged), episodes held
 * by several non-variation files, files in several places. The next reader recomputes those rows for the touched
 * keys only and moves the row by the difference. The old whole-collection marks of 0031 go.
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  for (const table of ['files', 'file_episode_links', 'series', 'file_locations']) {
    if (ctx.dialect === 'sqlite') {
      for (const event of ['insert', 'delete', 'update']) await sql.raw(`DROP TRIGGER ${table}_collection_stats_${event}`).execute(db);
    } else {
      await sql.raw(`DROP TRIGGER ${table}_collection_stats ON ${table}`).execute(db);
      await sql.raw(`DROP FUNCTION ${table}_collection_stats()`).execute(db);
    }
  }
  await db.schema.dropTable('collection_stats_dirty').execute();

  const bigint = ctx.dialect === 'postgres' ? 'bigint' : 'integer';
  // No key and no index: concurrent writers only append, and the reader takes every row.
  await db.schema
    .createTable('collection_stats_changes')
    .addColumn('file_id', 'integer')
    .addColumn('ed2k', 'text')
    .addColumn('size', bigint)
    .addColumn('episode_id', 'integer')
    .addColumn('anime_id', 'integer')
    .addColumn('file_delta', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('size_delta', bigint, (c) => c.notNull().defaultTo(0))
    .addColumn('location_delta', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('collection_stats_outside_files')
    .addColumn('file_id', 'integer', (c) => c.primaryKey())
    .addColumn('size', bigint, (c) => c.notNull())
    .addColumn('unrecognized', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('collection_stats_multiple_episodes')
    .addColumn('episode_id', 'integer', (c) => c.primaryKey())
    .execute();
  await db.schema
    .createTable('collection_stats_located_files')
    .addColumn('file_id', 'integer', (c) => c.primaryKey())
    .execute();
  for (const statement of fillCollectionStats()) await statement.execute(db);

  // Per table, the change row written for the old (-1) or new (1) version of a row.
  const changes: Array<[table: string, update: string, columns: string, values: (row: 'OLD' | 'NEW', sign: number) => string]> = [
    [
      'files',
      'ed2k, size, is_ignored, is_variation',
      'file_id, ed2k, size, file_delta, size_delta',
      (r, sign) => `${r}.id, ${r}.ed2k, ${r}.size, ${sign}, ${sign} * ${r}.size`,
    ],
    ['file_episode_links', 'ed2k, size, anime_id, episode_id', 'ed2k, size, episode_id', (r) => `${r}.ed2k, ${r}.size, ${r}.episode_id`],
    ['series', 'anime_id', 'anime_id', (r) => `${r}.anime_id`],
    ['file_locations', 'file_id', 'file_id, location_delta', (r, sign) => `${r}.file_id, ${sign}`],
  ];
  for (const [table, update, columns, values] of changes) {
    const insert = (rows: string[]) => `INSERT INTO collection_stats_changes (${columns}) VALUES ${rows.join(', ')};`;
    const oldRow = `(${values('OLD', -1)})`;
    const newRow = `(${values('NEW', 1)})`;
    if (ctx.dialect === 'sqlite') {
      const events: Array<[string, string[]]> = [
        ['INSERT', [newRow]],
        ['DELETE', [oldRow]],
        [`UPDATE OF ${update}`, [oldRow, newRow]],
      ];
      for (const [event, rows] of events) {
        const name = `${table}_collection_stats_${event.split(' ')[0]!.toLowerCase()}`;
        await sql.raw(`CREATE TRIGGER ${name} AFTER ${event} ON ${table} BEGIN ${insert(rows)} END`).execute(db);
      }
      continue;
    }
    const name = `${table}_collection_stats`;
    await sql
      .raw(
        `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
          IF TG_OP <> 'INSERT' THEN ${insert([oldRow])} END IF;
          IF TG_OP <> 'DELETE' THEN ${insert([newRow])} END IF;
          RETURN NULL; END $$`,
      )
      .execute(db);
    await sql
      .raw(`CREATE TRIGGER ${name} AFTER INSERT OR DELETE OR UPDATE OF ${update} ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}()`)
      .execute(db);
  }
}
