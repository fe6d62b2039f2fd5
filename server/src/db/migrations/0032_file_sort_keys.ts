import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './helpers.js';

/**
 * The File list's usual orders kept as a maintained table (issue 22): per file, its ignored flag and the lower-cased
 * folder name, file name and relative path of its first location (lowest id), so the console's order and the default
 * order read a page as an index range instead of sorting every file. Triggers on files, file_locations and
 * import_folders keep each row current in the same transaction as the change. A file without a location has
 * `no_location` = 1 and null keys: it sorts after the others, as the list's "no value sorts last" rule asks.
 */
async function createTable(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('file_sort_keys')
    .addColumn('file_id', 'integer', (c) => c.primaryKey())
    .addColumn('is_ignored', 'integer', (c) => c.notNull())
    .addColumn('no_location', 'integer', (c) => c.notNull())
    .addColumn('import_folder_id', 'integer')
    .addColumn('folder_name', 'text')
    .addColumn('file_name', 'text')
    .addColumn('relative_path', 'text')
    .execute();
  // The console's order (folder name, file name, relative path) and the default one (folder name, relative path).
  await db.schema
    .createIndex('file_sort_keys_console')
    .on('file_sort_keys')
    .columns(['is_ignored', 'no_location', 'folder_name', 'file_name', 'relative_path', 'file_id'])
    .execute();
  await db.schema
    .createIndex('file_sort_keys_default')
    .on('file_sort_keys')
    .columns(['is_ignored', 'no_location', 'folder_name', 'relative_path', 'file_id'])
    .execute();
  await db.schema.createIndex('file_sort_keys_folder').on('file_sort_keys').columns(['import_folder_id']).execute();
}

function sortKeySql(ctx: MigrationContext) {
  // The same basename expressions as the list's FileName sort (file-list.store.ts).
  const fileName =
    ctx.dialect === 'postgres'
      ? `lower(regexp_replace(fl.relative_path, '^.*[\\\\/]', ''))`
      : `lower(replace(fl.relative_path, rtrim(fl.relative_path, replace(replace(fl.relative_path, '/', ''), '\\', '')), ''))`;
  /**
   * The key row of one file. Its first location is found by the file's own id (an index lookup): a correlated MIN in
   * the join condition let PostgreSQL's cached trigger plan scan every location per row.
   */
  const keysOf = (fileId: string) =>
    `INSERT INTO file_sort_keys (file_id, is_ignored, no_location, import_folder_id, folder_name, file_name, relative_path)
     SELECT f.id, f.is_ignored, CASE WHEN fl.id IS NULL THEN 1 ELSE 0 END, fl.import_folder_id, lower(fo.name), ${fileName},
       lower(fl.relative_path)
     FROM files f
     CROSS JOIN (SELECT min(m.id) AS id FROM file_locations m WHERE m.file_id = ${fileId}) first
     LEFT JOIN file_locations fl ON fl.id = first.id
     LEFT JOIN import_folders fo ON fo.id = fl.import_folder_id
     WHERE f.id = ${fileId};`;
  const refresh = (fileId: string) => `DELETE FROM file_sort_keys WHERE file_id = ${fileId}; ${keysOf(fileId)}`;
  const rename = `UPDATE file_sort_keys SET folder_name = lower(NEW.name) WHERE import_folder_id = NEW.id;`;
  return { fileName, refresh, rename };
}

export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await createTable(db);
  const { fileName } = sortKeySql(ctx);
  // Every existing file, with its first location found through one grouped pass.
  await sql
    .raw(
      `INSERT INTO file_sort_keys (file_id, is_ignored, no_location, import_folder_id, folder_name, file_name, relative_path)
       SELECT f.id, f.is_ignored, CASE WHEN fl.id IS NULL THEN 1 ELSE 0 END, fl.import_folder_id, lower(fo.name), ${fileName},
         lower(fl.relative_path)
       FROM files f
       LEFT JOIN (SELECT file_id, min(id) AS id FROM file_locations GROUP BY file_id) first ON first.file_id = f.id
       LEFT JOIN file_locations fl ON fl.id = first.id
       LEFT JOIN import_folders fo ON fo.id = fl.import_folder_id`,
    )
    .execute(db);
  await createSortKeyTriggers(db, ctx);
}

/** The statements the key triggers run; 0036 passes its own (more columns, links watched too). */
export interface SortKeyTriggerSql {
  /** Recomputes one file's row. */
  refresh(fileId: string): string;
  /** Follows an import folder's new name. */
  rename: string;
  /** The files columns whose change refreshes the row. */
  fileColumns: string;
  /** Recomputes the rows of a link's content (`OLD` or `NEW`); links are not watched without it. */
  relink?(link: 'OLD' | 'NEW'): string;
}

/** The triggers that keep file_sort_keys current (also run again by 0033, which replaced their first version). */
export async function createSortKeyTriggers(
  db: Kysely<unknown>,
  ctx: MigrationContext,
  { refresh, rename, fileColumns, relink }: SortKeyTriggerSql = { ...sortKeySql(ctx), fileColumns: 'is_ignored' },
): Promise<void> {
  if (ctx.dialect === 'sqlite') {
    const trigger = async (name: string, event: string, body: string) =>
      sql.raw(`CREATE TRIGGER ${name} AFTER ${event} BEGIN ${body} END`).execute(db);
    await trigger('files_sort_keys_insert', 'INSERT ON files', refresh('NEW.id'));
    await trigger('files_sort_keys_update', `UPDATE OF ${fileColumns} ON files`, refresh('NEW.id'));
    await trigger('files_sort_keys_delete', 'DELETE ON files', 'DELETE FROM file_sort_keys WHERE file_id = OLD.id;');
    await trigger('file_locations_sort_keys_insert', 'INSERT ON file_locations', refresh('NEW.file_id'));
    await trigger('file_locations_sort_keys_delete', 'DELETE ON file_locations', refresh('OLD.file_id'));
    await trigger(
      'file_locations_sort_keys_update',
      'UPDATE OF file_id, import_folder_id, relative_path ON file_locations',
      `${refresh('OLD.file_id')} ${refresh('NEW.file_id')}`,
    );
    if (relink) {
      await trigger('file_episode_links_sort_keys_insert', 'INSERT ON file_episode_links', relink('NEW'));
      await trigger('file_episode_links_sort_keys_delete', 'DELETE ON file_episode_links', relink('OLD'));
      await trigger(
        'file_episode_links_sort_keys_update',
        'UPDATE OF ed2k, size, source ON file_episode_links',
        `${relink('OLD')} ${relink('NEW')}`,
      );
    }
    await trigger('import_folders_sort_keys_update', 'UPDATE OF name ON import_folders', rename);
    return;
  }
  const trigger = async (name: string, event: string, body: string) => {
    await sql.raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${body} RETURN NULL; END $$`).execute(db);
    await sql.raw(`CREATE TRIGGER ${name} AFTER ${event} FOR EACH ROW EXECUTE FUNCTION ${name}()`).execute(db);
  };
  await trigger(
    'files_sort_keys',
    `INSERT OR DELETE OR UPDATE OF ${fileColumns} ON files`,
    `IF TG_OP = 'DELETE' THEN DELETE FROM file_sort_keys WHERE file_id = OLD.id; ELSE ${refresh('NEW.id')} END IF;`,
  );
  await trigger(
    'file_locations_sort_keys',
    'INSERT OR DELETE OR UPDATE OF file_id, import_folder_id, relative_path ON file_locations',
    `IF TG_OP <> 'INSERT' THEN ${refresh('OLD.file_id')} END IF; IF TG_OP <> 'DELETE' THEN ${refresh('NEW.file_id')} END IF;`,
  );
  if (relink) {
    await trigger(
      'file_episode_links_sort_keys',
      'INSERT OR DELETE OR UPDATE OF ed2k, size, source ON file_episode_links',
      `IF TG_OP <> 'INSERT' THEN ${relink('OLD')} END IF; IF TG_OP <> 'DELETE' THEN ${relink('NEW')} END IF;`,
    );
  }
  await trigger('import_folders_sort_keys', 'UPDATE OF name ON import_folders', rename);
}
