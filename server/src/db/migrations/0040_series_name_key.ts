import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './helpers.js';

/**
 * Each series' name as the lists sort it, kept on the series row (issue 22): `series.name_key` is the lower-cased title
 * override, else the AniDB main title, else '' — the database's own lower(), so an order by the column is the order by
 * the expression the release-management lists used. With the index on (name_key, anime_id), a page of those lists is
 * a range of the index probed against the maintained release figures (0034) instead of a sort of every qualifying
 * series.
 *
 * Triggers keep it, in the transaction of the change, on both databases: a series inserted or given another override
 * or anime, an AniDB anime inserted, renamed or deleted. They run the same UPDATE, which reads the anime as it is after
 * the change (gone after a delete).
 */
export const NAME_KEY_OF_SERIES = `lower(COALESCE(series.title_override, (SELECT a.main_title FROM anidb_anime a WHERE a.id = series.anime_id), ''))`;

const TRIGGERS = [
  { name: 'series_name_key_insert', table: 'series', event: 'INSERT', where: 'series.id = NEW.id' },
  { name: 'series_name_key_update', table: 'series', event: 'UPDATE OF title_override, anime_id', where: 'series.id = NEW.id' },
  { name: 'anidb_anime_name_key_insert', table: 'anidb_anime', event: 'INSERT', where: 'series.anime_id = NEW.id' },
  {
    name: 'anidb_anime_name_key_update',
    table: 'anidb_anime',
    event: 'UPDATE OF main_title',
    where: 'series.anime_id IN (OLD.id, NEW.id)',
  },
  { name: 'anidb_anime_name_key_delete', table: 'anidb_anime', event: 'DELETE', where: 'series.anime_id = OLD.id' },
];

export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('series')
    .addColumn('name_key', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  for (const t of TRIGGERS) {
    const update = `UPDATE series SET name_key = ${NAME_KEY_OF_SERIES} WHERE ${t.where};`;
    if (ctx.dialect === 'sqlite') {
      await sql.raw(`CREATE TRIGGER ${t.name} AFTER ${t.event} ON ${t.table} BEGIN ${update} END`).execute(db);
      continue;
    }
    await sql
      .raw(
        `CREATE FUNCTION ${t.name}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  ${update}
  RETURN NULL;
END $$`,
      )
      .execute(db);
    await sql.raw(`CREATE TRIGGER ${t.name} AFTER ${t.event} ON ${t.table} FOR EACH ROW EXECUTE FUNCTION ${t.name}()`).execute(db);
  }
  await sql.raw(`UPDATE series SET name_key = ${NAME_KEY_OF_SERIES}`).execute(db);
  await db.schema.createIndex('series_name_key').on('series').columns(['name_key', 'anime_id']).execute();
}
