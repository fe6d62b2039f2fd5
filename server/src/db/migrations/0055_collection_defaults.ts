import { sql, type Kysely } from 'kysely';
import { PRESET_SEEDS, STARTER_CUSTOM_TAGS } from '../collection-defaults.js';
import { seededContent, type SeededTable } from '../seeded-defaults.js';
import type { MigrationContext } from './helpers.js';

/**
 * What a new collection starts with: Shoko's preset filters, the Years / Seasons / Tags directories (`directory_of`
 * names what their sub-filters are computed from) and the starter custom tags. A migration runs once per database, so
 * they are written once, and only into an empty one (no accounts, series, filters or custom tags): an existing
 * collection keeps what it has, and what a user later edits or deletes is never written again. Each seeded row is
 * recorded with its content (db/seeded-defaults.ts). The default renamer config comes from 0006.
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema.alterTable('filters').addColumn('directory_of', 'text').execute();
  await db.schema
    .createTable('seeded_defaults')
    .addColumn('table_name', 'text', (c) => c.notNull())
    .addColumn('row_id', 'integer', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('seeded_defaults_pk', ['table_name', 'row_id'])
    .execute();

  for (const table of ['users', 'series', 'filters', 'custom_tags']) {
    const { rows } = await sql`SELECT 1 AS one FROM ${sql.table(table)} LIMIT 1`.execute(db);
    if (rows.length) return;
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema of this migration's time, not schema.ts
  const trx = db as Kysely<any>;
  const stamp = new Date().toISOString();
  const seed = async (table: SeededTable, values: Record<string, unknown>) => {
    const { id } = await trx.insertInto(table).values(values).returning('id').executeTakeFirstOrThrow();
    await trx
      .insertInto('seeded_defaults')
      .values({ table_name: table, row_id: id, content: seededContent(table, values) })
      .execute();
  };
  for (const preset of PRESET_SEEDS)
    await seed('filters', {
      parent_id: null,
      name: preset.name,
      is_locked: preset.isLocked ? 1 : 0,
      is_directory: preset.isDirectory ? 1 : 0,
      is_hidden: 0,
      apply_at_series_level: preset.applyAtSeriesLevel ? 1 : 0,
      expression: preset.expression ? JSON.stringify(preset.expression) : null,
      sorting: preset.sorting ? JSON.stringify(preset.sorting) : null,
      directory_of: preset.dynamic ?? null,
      created_at: stamp,
      updated_at: stamp,
    });
  for (const tag of STARTER_CUSTOM_TAGS) await seed('custom_tags', { name: tag.name, description: tag.description });
}
