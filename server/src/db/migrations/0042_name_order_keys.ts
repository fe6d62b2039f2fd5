import { sql, type Kysely } from 'kysely';
import { refreshOrderKeys } from '../name-order.js';
import type { MigrationContext } from './helpers.js';

/**
 * Name-order keys of series and groups (issue 22; what they hold: db/name-order.ts): GET Series, the group lists and
 * their letters read a page as a range of an index on (order_key, id) instead of sorting every visible row in code.
 *
 * Triggers clear a key in the transaction of the change that makes it stale: a series whose name key (0040, itself
 * kept by triggers on series and anidb_anime) is rewritten, a group whose name is updated. New rows start without a
 * key; code fills missing keys before reading them. This migration fills every key once.
 */
const TRIGGERS = [
  {
    name: 'series_order_key_clear',
    table: 'series',
    event: 'UPDATE OF name_key',
    update: 'UPDATE series SET order_key = NULL WHERE id = NEW.id',
  },
  {
    name: 'groups_order_key_clear',
    table: 'groups',
    event: 'UPDATE OF name',
    update: 'UPDATE groups SET order_key = NULL WHERE id = NEW.id',
  },
];

export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  const type = ctx.dialect === 'postgres' ? 'text COLLATE "C"' : 'text';
  for (const table of ['series', 'groups']) {
    await sql.raw(`ALTER TABLE ${table} ADD COLUMN order_key ${type}`).execute(db);
    await sql.raw(`CREATE INDEX ${table}_order_key ON ${table} (order_key, id)`).execute(db);
  }
  for (const t of TRIGGERS) {
    if (ctx.dialect === 'sqlite') {
      await sql.raw(`CREATE TRIGGER ${t.name} AFTER ${t.event} ON ${t.table} BEGIN ${t.update}; END`).execute(db);
      continue;
    }
    await sql
      .raw(
        `CREATE FUNCTION ${t.name}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  ${t.update};
  RETURN NULL;
END $$`,
      )
      .execute(db);
    await sql.raw(`CREATE TRIGGER ${t.name} AFTER ${t.event} ON ${t.table} FOR EACH ROW EXECUTE FUNCTION ${t.name}()`).execute(db);
  }
  await refreshOrderKeys(db);
}
