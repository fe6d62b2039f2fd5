import type { Kysely } from 'kysely';
import { AccountCache } from '../../db/account-cache.js';
import type { Database } from '../../db/schema.js';

/** SQL of the playback domain: what a file is linked to and the user's record of it. */
export class PlaybackStore {
  constructor(
    private readonly db: Kysely<Database>,
    /** The server's cache of account reads, forgotten at every write to `users` or `api_keys`. */
    readonly accounts = new AccountCache(),
  ) {}

  /** Does the account still exist (a playback token outlives nothing else of a deleted user)? */
  userExists(userId: number): Promise<boolean> {
    return this.accounts.read(
      `user-exists:${userId}`,
      async () => !!(await this.db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()),
    );
  }

  async fileExists(fileId: number): Promise<boolean> {
    return !!(await this.db.selectFrom('files').select('id').where('id', '=', fileId).executeTakeFirst());
  }

  /** The episodes the file's content is linked to, with their series and AniDB anime, in link order. */
  async links(fileId: number): Promise<Array<{ episodeId: number; seriesId: number; animeId: number }>> {
    const rows = await this.db
      .selectFrom('files as f')
      .innerJoin('file_episode_links as l', (join) => join.onRef('l.ed2k', '=', 'f.ed2k').onRef('l.size', '=', 'f.size'))
      .innerJoin('episodes as e', 'e.anidb_episode_id', 'l.episode_id')
      .innerJoin('series as s', 's.id', 'e.series_id')
      .select(['e.id as episodeId', 's.id as seriesId', 's.anime_id as animeId', 'l.ordering'])
      .where('f.id', '=', fileId)
      .orderBy('l.ordering')
      .orderBy('e.id')
      .execute();
    const seen = new Set<number>();
    return rows
      .map((row) => ({ episodeId: Number(row.episodeId), seriesId: Number(row.seriesId), animeId: Number(row.animeId) }))
      .filter((row) => !seen.has(row.episodeId) && !!seen.add(row.episodeId));
  }

  async userState(userId: number, fileId: number): Promise<{ resumeMs: number; watched: boolean } | null> {
    const row = await this.db
      .selectFrom('user_file_states')
      .select(['resume_position_ms', 'watched_at'])
      .where('user_id', '=', userId)
      .where('file_id', '=', fileId)
      .executeTakeFirst();
    return row ? { resumeMs: Number(row.resume_position_ms), watched: row.watched_at !== null } : null;
  }
}
