import type { Kysely } from 'kysely';

/**
 * Each account's own console settings (issue 44): the server's WebUI_Settings are global and only admins may change
 * them, so an account keeps its display choices here. A table of its own keeps the up to 64 kB text out of the account
 * rows that every request's key check reads; it goes with the account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_webui_settings')
    .addColumn('user_id', 'integer', (c) => c.notNull().primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}
