import { sql, type Kysely, type SqlBool } from 'kysely';
import { createSortKeyTriggers } from './0032_file_sort_keys.js';
import { dropSortKeyTriggers } from './0033_file_sort_key_triggers.js';
import type { MigrationContext } from './helpers.js';

/**
 * The File list's maintained keys, second version (issue 22): besides 0032's sort keys, each file's row now holds
 * its first location's id (what every other sort and the page's location join read, instead of grouping every
 * location per request) and whether its content has any episode link (`is_linked`, the Unrecognized filter) and a
 * manual one (`has_manual_link`, the ManualLinks filter). Partial indexes give the unrecognized and manually linked
 * lists in the console's, the default and the id order as one range read; they hold only those files, so they stay
 * small. Triggers on files, file_locations, file_episode_links and import_folders keep each row current in the same
 * transaction as the change. The table is rebuilt (0032's triggers dropped first) rather than altered, so an
 * existing collection gets every column filled in one pass before the indexes are built.
 */
const COLUMNS =
  'file_id, is_ignored, no_location, is_linked, has_manual_link, location_id, import_folder_id, folder_name, file_name, relative_path';

/** What the list's conditions read: a link of the file's content, any or one the user made. */
const linkedSql = (ed2k: string, size: string, manual: boolean) =>
  `CASE WHEN EXISTS (SELECT 1 FROM file_episode_links l WHERE l.ed2k = ${ed2k} AND l.size = ${size}${manual ? ` AND l.source = 'User'` : ''}) THEN 1 ELSE 0 END`;

function keySql(ctx: MigrationContext) {
  // The same basename expressions as the list's FileName sort (file-list.store.ts).
  const fileName =
    ctx.dialect === 'postgres'
      ? `lower(regexp_replace(fl.relative_path, '^.*[\\\\/]', ''))`
      : `lower(replace(fl.relative_path, rtrim(fl.relative_path, replace(replace(fl.relative_path, '/', ''), '\\', '')), ''))`;
  const values = `f.id, f.is_ignored, CASE WHEN fl.id IS NULL THEN 1 ELSE 0 END, ${linkedSql('f.ed2k', 'f.size', false)},
    ${linkedSql('f.ed2k', 'f.size', true)}, fl.id, fl.import_folder_id, lower(fo.name), ${fileName}, lower(fl.relative_path)`;
  /** One file's row; its first location found by the file's id (an index lookup, see 0033). */
  const refresh = (fileId: string) =>
    `DELETE FROM file_sort_keys WHERE file_id = ${fileId};
     INSERT INTO file_sort_keys (${COLUMNS})
     SELECT ${values}
     FROM files f
     CROSS JOIN (SELECT min(m.id) AS id FROM file_locations m WHERE m.file_id = ${fileId}) first
     LEFT JOIN file_locations fl ON fl.id = first.id
     LEFT JOIN import_folders fo ON fo.id = fl.import_folder_id
     WHERE f.id = ${fileId};`;
  /** The link flags of every file of one content (a link added, removed or changed). */
  const relink = (link: 'OLD' | 'NEW') =>
    `UPDATE file_sort_keys SET is_linked = ${linkedSql(`${link}.ed2k`, `${link}.size`, false)},
       has_manual_link = ${linkedSql(`${link}.ed2k`, `${link}.size`, true)}
     WHERE file_id IN (SELECT f.id FROM files f WHERE f.ed2k = ${link}.ed2k AND f.size = ${link}.size);`;
  const rename = `UPDATE file_sort_keys SET folder_name = lower(NEW.name) WHERE import_folder_id = NEW.id;`;
  const fill = `INSERT INTO file_sort_keys (${COLUMNS})
     SELECT ${values}
     FROM files f
     LEFT JOIN (SELECT file_id, min(id) AS id FROM file_locations GROUP BY file_id) first ON first.file_id = f.id
     LEFT JOIN file_locations fl ON fl.id = first.id
     LEFT JOIN import_folders fo ON fo.id = fl.import_folder_id`;
  return { refresh, relink, rename, fill };
}

async function createTable(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('file_sort_keys')
    .addColumn('file_id', 'integer', (c) => c.primaryKey())
    .addColumn('is_ignored', 'integer', (c) => c.notNull())
    .addColumn('no_location', 'integer', (c) => c.notNull())
    .addColumn('is_linked', 'integer', (c) => c.notNull())
    .addColumn('has_manual_link', 'integer', (c) => c.notNull())
    .addColumn('location_id', 'integer')
    .addColumn('import_folder_id', 'integer')
    .addColumn('folder_name', 'text')
    .addColumn('file_name', 'text')
    .addColumn('relative_path', 'text')
    .execute();
}

async function createIndexes(db: Kysely<unknown>): Promise<void> {
  const consoleOrder = ['is_ignored', 'no_location', 'folder_name', 'file_name', 'relative_path', 'file_id'];
  const defaultOrder = ['is_ignored', 'no_location', 'folder_name', 'relative_path', 'file_id'];
  const index = (name: string, columns: string[], where?: string) => {
    const builder = db.schema.createIndex(name).on('file_sort_keys').columns(columns);
    return (where ? builder.where(sql.raw<SqlBool>(where)) : builder).execute();
  };
  await index('file_sort_keys_console', consoleOrder);
  await index('file_sort_keys_default', defaultOrder);
  await index('file_sort_keys_folder', ['import_folder_id']);
  // The conditions are written as literals in the list's queries, so both databases can prove them.
  await index('file_sort_keys_unrecognized_console', consoleOrder, 'is_linked = 0');
  await index('file_sort_keys_unrecognized_default', defaultOrder, 'is_linked = 0');
  await index('file_sort_keys_unrecognized_id', ['is_ignored', 'file_id'], 'is_linked = 0');
  await index('file_sort_keys_manual_default', defaultOrder, 'has_manual_link = 1');
}

export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await dropSortKeyTriggers(db, ctx);
  await db.schema.dropTable('file_sort_keys').execute();
  await createTable(db);
  await sql.raw(keySql(ctx).fill).execute(db);
  await createIndexes(db);
  await createSortKeyTriggers(db, ctx, { ...keySql(ctx), fileColumns: 'is_ignored, ed2k, size' });
}
