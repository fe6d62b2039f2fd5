import { sql, type Kysely } from 'kysely';
import { recomputeCollectionStats } from '../collection-stats.js';
import type { MigrationContext } from './helpers.js';

/**
 * Dashboard/Stats' whole-collection file figures kept as one row (issue 22): file count and size, episodes with
 * several files, unrecognized files, files in several places and locations, as a viewer without tag restrictions sees
 * them (db/collection-stats.ts). Triggers on every table they derive from leave a mark in `collection_stats_dirty` in
 * the same transaction as the change; the next reader recomputes the row once and clears the marks. Computed here, so
 * the first visit after the upgrade reads it.
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('collection_stats')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('file_count', 'bigint', (c) => c.notNull())
    .addColumn('file_size', 'bigint', (c) => c.notNull())
    .addColumn('multiple_file_episodes', 'bigint', (c) => c.notNull())
    .addColumn('unrecognized_files', 'bigint', (c) => c.notNull())
    .addColumn('duplicate_location_files', 'bigint', (c) => c.notNull())
    .addColumn('location_count', 'bigint', (c) => c.notNull())
    .execute();
  // No key: concurrent writers each add a row instead of waiting on one another's uncommitted mark.
  await db.schema
    .createTable('collection_stats_dirty')
    .addColumn('marked', 'integer', (c) => c.notNull())
    .execute();
  for (const statement of recomputeCollectionStats()) await statement.execute(db);

  const mark = 'INSERT INTO collection_stats_dirty (marked) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM collection_stats_dirty);';
  // What a figure reads: files by content, ignored and variation flags; links by content, series and episode; series
  // by anime; locations by file.
  const events: Array<[table: string, update: string]> = [
    ['files', 'ed2k, size, is_ignored, is_variation'],
    ['file_episode_links', 'ed2k, size, anime_id, episode_id'],
    ['series', 'anime_id'],
    ['file_locations', 'file_id'],
  ];
  for (const [table, columns] of events) {
    if (ctx.dialect === 'sqlite') {
      for (const event of ['INSERT', 'DELETE', `UPDATE OF ${columns}`]) {
        const name = `${table}_collection_stats_${event.split(' ')[0].toLowerCase()}`;
        await sql.raw(`CREATE TRIGGER ${name} AFTER ${event} ON ${table} BEGIN ${mark} END`).execute(db);
      }
      continue;
    }
    const name = `${table}_collection_stats`;
    await sql.raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${mark} RETURN NULL; END $$`).execute(db);
    await sql
      .raw(`CREATE TRIGGER ${name} AFTER INSERT OR DELETE OR UPDATE OF ${columns} ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}()`)
      .execute(db);
  }
}
