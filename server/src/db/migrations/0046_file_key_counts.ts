import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './helpers.js';

/**
 * How many files each combination of the File list's key flags holds (issue 22): the keyed lists (0036) read a page as
 * an index range but counted their Total over every file_sort_keys row, 100–280 ms at 100k files on a first visit.
 * Triggers on file_sort_keys append a +1 / −1 row per flag combination in the transaction of the change; the table
 * has no key, so concurrent imports only append and never wait on one another. The reader sums the rows of the
 * combinations its conditions match and folds them into one row per combination when they pile up (db/file-key-counts.ts).
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('file_key_counts')
    .addColumn('is_ignored', 'integer', (c) => c.notNull())
    .addColumn('is_linked', 'integer', (c) => c.notNull())
    .addColumn('has_manual_link', 'integer', (c) => c.notNull())
    .addColumn('files', 'integer', (c) => c.notNull())
    .execute();
  await sql`INSERT INTO file_key_counts (is_ignored, is_linked, has_manual_link, files)
    SELECT is_ignored, is_linked, has_manual_link, COUNT(*) FROM file_sort_keys GROUP BY is_ignored, is_linked, has_manual_link`.execute(
    db,
  );

  const add = (row: 'NEW' | 'OLD', delta: 1 | -1) =>
    `INSERT INTO file_key_counts (is_ignored, is_linked, has_manual_link, files) VALUES (${row}.is_ignored, ${row}.is_linked, ${row}.has_manual_link, ${delta});`;
  const flagsChanged = 'OLD.is_ignored <> NEW.is_ignored OR OLD.is_linked <> NEW.is_linked OR OLD.has_manual_link <> NEW.has_manual_link';
  if (ctx.dialect === 'sqlite') {
    const trigger = (name: string, event: string, body: string) =>
      sql.raw(`CREATE TRIGGER ${name} AFTER ${event} BEGIN ${body} END`).execute(db);
    await trigger('file_sort_keys_counts_insert', 'INSERT ON file_sort_keys', add('NEW', 1));
    await trigger('file_sort_keys_counts_delete', 'DELETE ON file_sort_keys', add('OLD', -1));
    await trigger(
      'file_sort_keys_counts_update',
      `UPDATE OF is_ignored, is_linked, has_manual_link ON file_sort_keys WHEN ${flagsChanged}`,
      `${add('OLD', -1)} ${add('NEW', 1)}`,
    );
    return;
  }
  await sql
    .raw(
      `CREATE FUNCTION file_sort_keys_counts() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
        IF TG_OP = 'INSERT' THEN ${add('NEW', 1)}
        ELSIF TG_OP = 'DELETE' THEN ${add('OLD', -1)}
        ELSIF ${flagsChanged} THEN ${add('OLD', -1)} ${add('NEW', 1)}
        END IF;
        RETURN NULL; END $$`,
    )
    .execute(db);
  await sql
    .raw(
      'CREATE TRIGGER file_sort_keys_counts AFTER INSERT OR DELETE OR UPDATE OF is_ignored, is_linked, has_manual_link ON file_sort_keys FOR EACH ROW EXECUTE FUNCTION file_sort_keys_counts()',
    )
    .execute(db);
}
