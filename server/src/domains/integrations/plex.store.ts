import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

const escapeLike = (text: string) => text.replace(/[!%_]/g, (c) => `!${c}`);

/** SQL of the Plex integration: each user's Plex token lives on the user record (contract server.md §8.1). */
export class PlexStore {
  constructor(private readonly db: Kysely<Database>) {}

  async token(userId: number): Promise<string | null> {
    const row = await this.db.selectFrom('users').select('plex_token').where('id', '=', userId).executeTakeFirst();
    return row?.plex_token || null;
  }

  async setToken(userId: number, token: string | null): Promise<void> {
    await this.db.updateTable('users').set({ plex_token: token }).where('id', '=', userId).execute();
  }

  /** Users with a (non-empty) Plex token. */
  async userIdsWithToken(): Promise<number[]> {
    const users = await this.db
      .selectFrom('users')
      .select('id')
      .where('plex_token', 'is not', null)
      .where('plex_token', '!=', '')
      .execute();
    return users.map((u) => u.id);
  }

  /** Stored locations whose relative path ends with this file name (any folder). */
  async locationsEndingWith(fileName: string): Promise<Array<{ file_id: number; relative_path: string }>> {
    return this.db
      .selectFrom('file_locations')
      .select(['file_id', 'relative_path'])
      .where(sql<boolean>`relative_path LIKE ${`%${escapeLike(fileName)}`} ESCAPE '!'`)
      .execute();
  }

  async isWatched(userId: number, fileId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('user_file_states')
      .select('watched_at')
      .where('user_id', '=', userId)
      .where('file_id', '=', fileId)
      .executeTakeFirst();
    return !!row?.watched_at;
  }
}
