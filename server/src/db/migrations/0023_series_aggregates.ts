import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './helpers.js';

/**
 * Maintained per-series aggregates (issue 22): what collection filters and sorts need from files, links, episodes and
 * watch state, kept in tables so a page never computes them from the base tables at read time.
 *
 * Triggers on every base table they derive from record the affected series in `aggregate_dirty_series`, in the same
 * transaction as the change; db/aggregates.ts recomputes those series before aggregates are read. So no code path
 * can forget them, and a crash leaves either the old data with the old marks or the new data with new marks.
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('series_aggregates')
    .addColumn('series_id', 'integer', (c) => c.primaryKey())
    // Local files linked to the series' episodes, and those of them AniDB knows (an anidb_files row).
    .addColumn('file_count', 'integer', (c) => c.notNull())
    .addColumn('anidb_file_count', 'integer', (c) => c.notNull())
    // Visible episodes with a local file.
    .addColumn('local_episode_count', 'integer', (c) => c.notNull())
    // yyyy-MM-dd of the newest local file.
    .addColumn('last_added', 'text')
    // Visible normal/special episodes with an air date and no local file: how many, first and last air date (the
    // dates let a reader count those aired by today without scanning episodes when all of them have aired).
    .addColumn('missing_count', 'integer', (c) => c.notNull())
    .addColumn('missing_first_air', 'text')
    .addColumn('missing_last_air', 'text')
    .execute();

  // Distinct lower-cased values of the series' local files: kind 'source', 'audio', 'subtitle', 'resolution', with the
  // number of files carrying each (a value every AniDB-known file carries is "shared").
  await db.schema
    .createTable('series_aggregate_values')
    .addColumn('series_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('file_count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('series_aggregate_values_pk', ['series_id', 'kind', 'value'])
    .execute();
  await db.schema.createIndex('series_aggregate_values_value').on('series_aggregate_values').columns(['kind', 'value']).execute();

  // Per user and series (only pairs with watch-state rows): visible watched episodes, those of them with a local file,
  // and the first and last watched day over all the series' episodes.
  await db.schema
    .createTable('series_user_aggregates')
    .addColumn('series_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('watched_count', 'integer', (c) => c.notNull())
    .addColumn('watched_local_count', 'integer', (c) => c.notNull())
    .addColumn('first_watched', 'text')
    .addColumn('last_watched', 'text')
    .addPrimaryKeyConstraint('series_user_aggregates_pk', ['series_id', 'user_id'])
    .execute();
  await db.schema.createIndex('series_user_aggregates_user').on('series_user_aggregates').columns(['user_id', 'series_id']).execute();

  await db.schema
    .createTable('aggregate_dirty_series')
    .addColumn('series_id', 'integer', (c) => c.primaryKey())
    .execute();

  for (const spec of TRIGGERS) await createTrigger(db, ctx, spec);
  // Existing collections: everything is computed on the first refresh (at start-up).
  await sql`INSERT INTO aggregate_dirty_series (series_id) SELECT id FROM series`.execute(db);
}

export interface TriggerSpec {
  table: string;
  /** The trigger's name (default `<table>_aggregates`); later migrations adding marks to a table name theirs. */
  name?: string;
  /** Only updates of `columns` mark (inserts and deletes are already marked by another trigger on the table). */
  updatesOnly?: boolean;
  /** The columns whose update can change an aggregate. */
  columns: string[];
  /** The affected series ids (a column named series_id), given the changed row's name (NEW or OLD). */
  series: (row: string) => string;
  /**
   * Where the marks go (default aggregate_dirty_series, column series_id); `series` then names its column `column`.
   * Migration 0051 marks groups this way.
   */
  marks?: { table: string; column: string };
}

const viaContent = (row: string) =>
  `SELECT e.series_id AS series_id FROM file_episode_links l JOIN episodes e ON e.anidb_episode_id = l.episode_id WHERE l.ed2k = ${row}.ed2k AND l.size = ${row}.size`;

const TRIGGERS: TriggerSpec[] = [
  { table: 'files', columns: ['ed2k', 'size', 'created_at', 'media_info'], series: viaContent },
  { table: 'anidb_files', columns: ['ed2k', 'size', 'source', 'audio_languages', 'subtitle_languages'], series: viaContent },
  {
    table: 'file_episode_links',
    columns: ['ed2k', 'size', 'episode_id'],
    series: (row) => `SELECT e.series_id AS series_id FROM episodes e WHERE e.anidb_episode_id = ${row}.episode_id`,
  },
  { table: 'episodes', columns: ['series_id', 'anidb_episode_id', 'is_hidden'], series: (row) => `SELECT ${row}.series_id AS series_id` },
  {
    table: 'anidb_episodes',
    columns: ['id', 'type', 'air_date'],
    series: (row) => `SELECT e.series_id AS series_id FROM episodes e WHERE e.anidb_episode_id = ${row}.id`,
  },
  {
    table: 'user_episode_states',
    columns: ['user_id', 'episode_id', 'watched_at'],
    series: (row) => `SELECT e.series_id AS series_id FROM episodes e WHERE e.id = ${row}.episode_id`,
  },
  { table: 'series', columns: ['id'], series: (row) => `SELECT ${row}.id AS series_id` },
];

/** A trigger that marks the series a change of `spec.table` affects in aggregate_dirty_series. */
export async function createTrigger(db: Kysely<unknown>, ctx: MigrationContext, spec: TriggerSpec): Promise<void> {
  const name = spec.name ?? `${spec.table}_aggregates`;
  const columns = spec.columns.join(', ');
  const { table: marks, column } = spec.marks ?? { table: 'aggregate_dirty_series', column: 'series_id' };
  if (ctx.dialect === 'sqlite') {
    // Not INSERT OR IGNORE: inside a trigger SQLite applies the firing statement's conflict handling instead, so an
    // upsert (INSERT … ON CONFLICT DO UPDATE) on the base table would make a second mark of a series fail the write.
    const mark = (row: string) =>
      `INSERT INTO ${marks} (${column}) SELECT DISTINCT x.${column} FROM (${spec.series(row)}) AS x
       WHERE x.${column} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${marks} d WHERE d.${column} = x.${column});`;
    if (!spec.updatesOnly) {
      await sql.raw(`CREATE TRIGGER ${name}_insert AFTER INSERT ON ${spec.table} BEGIN ${mark('NEW')} END`).execute(db);
      await sql.raw(`CREATE TRIGGER ${name}_delete AFTER DELETE ON ${spec.table} BEGIN ${mark('OLD')} END`).execute(db);
    }
    await sql
      .raw(`CREATE TRIGGER ${name}_update AFTER UPDATE OF ${columns} ON ${spec.table} BEGIN ${mark('OLD')} ${mark('NEW')} END`)
      .execute(db);
    return;
  }
  // A refresh locks the table against these inserts (db/aggregates.ts), so it never clears a mark of a change that
  // has not committed yet.
  const mark = (row: string) =>
    `INSERT INTO ${marks} (${column}) SELECT x.${column} FROM (${spec.series(row)}) x(${column}) WHERE x.${column} IS NOT NULL
     ON CONFLICT (${column}) DO NOTHING;`;
  await sql
    .raw(
      `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN ${mark('OLD')} END IF;
  IF TG_OP <> 'DELETE' THEN ${mark('NEW')} END IF;
  RETURN NULL;
END $$`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER ${name} AFTER ${spec.updatesOnly ? '' : 'INSERT OR DELETE OR '}UPDATE OF ${columns} ON ${spec.table} FOR EACH ROW EXECUTE FUNCTION ${name}()`,
    )
    .execute(db);
}
