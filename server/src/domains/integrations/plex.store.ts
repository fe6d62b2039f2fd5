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

  /** Users and their Plex account names (`PlexUsernames`, comma-separated), for the webhook. */
  async plexUsernames(): Promise<Array<{ id: number; plex_usernames: string }>> {
    return this.db.selectFrom('users').select(['id', 'plex_usernames']).where('plex_usernames', '!=', '').orderBy('id').execute();
  }

  /**
   * The series' regular episodes with this AniDB number, each with the TMDB season numbers it is linked to (a Plex
   * season tells apart two episodes that share a number).
   */
  async regularEpisodes(seriesId: number, number: number): Promise<Array<{ id: number; tmdbSeasons: number[] }>> {
    const rows = await this.db
      .selectFrom('episodes as e')
      .innerJoin('anidb_episodes as ae', 'ae.id', 'e.anidb_episode_id')
      .leftJoin('xref_anidb_tmdb_episode as x', 'x.anidb_episode_id', 'ae.id')
      .leftJoin('tmdb_episodes as te', 'te.id', 'x.tmdb_episode_id')
      .select(['e.id', 'te.season_number'])
      .where('e.series_id', '=', seriesId)
      .where('ae.type', '=', 'Episode')
      .where('ae.number', '=', number)
      .orderBy('e.id')
      .execute();
    const episodes = new Map<number, number[]>();
    for (const row of rows) {
      const seasons = episodes.get(row.id) ?? [];
      if (row.season_number !== null) seasons.push(row.season_number);
      episodes.set(row.id, seasons);
    }
    return [...episodes].map(([id, tmdbSeasons]) => ({ id, tmdbSeasons }));
  }
}
