import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** SQL for each account's own console settings (`user_webui_settings`, 0057). */
export class UserWebUISettingsStore {
  constructor(private readonly db: Kysely<Database>) {}

  async find(userId: number): Promise<string | undefined> {
    const row = await this.db.selectFrom('user_webui_settings').select('settings').where('user_id', '=', userId).executeTakeFirst();
    return row?.settings;
  }

  async save(userId: number, settings: string): Promise<void> {
    const updated_at = new Date().toISOString();
    await this.db
      .insertInto('user_webui_settings')
      .values({ user_id: userId, settings, updated_at })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ settings, updated_at }))
      .execute();
  }
}
