import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** Each user's Plex token lives on the user record (contract server.md §8.1). */
export class PlexTokenStore {
  constructor(private readonly db: Kysely<Database>) {}

  async token(userId: number): Promise<string | null> {
    const row = await this.db.selectFrom('users').select('plex_token').where('id', '=', userId).executeTakeFirst();
    return row?.plex_token || null;
  }

  async setToken(userId: number, token: string | null): Promise<void> {
    await this.db.updateTable('users').set({ plex_token: token }).where('id', '=', userId).execute();
  }
}
