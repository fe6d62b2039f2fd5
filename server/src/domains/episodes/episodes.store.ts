import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { EpisodeRow } from './episode-models.js';

/** Shoko episodes: their rows with the AniDB episode data, file counts and one user's watch state and rating. */
export class EpisodesStore {
  constructor(private readonly db: Kysely<Database>) {}

  async episodeRef(id: number) {
    return (
      (await this.db
        .selectFrom('episodes as e')
        .leftJoin('series as s', 's.id', 'e.series_id')
        .select(['e.id', 'e.series_id', 'e.anidb_episode_id', 's.anime_id'])
        .where('e.id', '=', id)
        .executeTakeFirst()) ?? null
    );
  }

  /** Episode rows (with AniDB data only) of one series or a set of episode ids, for one user. */
  async rows(where: { seriesId?: number; episodeIds?: number[] }, userId: number): Promise<EpisodeRow[]> {
    if (where.episodeIds && !where.episodeIds.length) return [];
    const condition = where.seriesId !== undefined ? sql`e.series_id = ${where.seriesId}` : sql`e.id IN (${sql.join(where.episodeIds!)})`;
    const { rows } = await sql<EpisodeRow>`
      SELECT e.id, e.series_id, e.anidb_episode_id, e.is_hidden, e.title_override, e.created_at, e.updated_at,
        ae.anime_id, ae.type, ae.number, ae.length_seconds, ae.air_date, ae.rating, ae.votes, ae.description, ae.titles,
        w.watched_at, w.watch_count, w.rating AS user_rating,
        (SELECT COUNT(*) FROM file_episode_links l JOIN files f ON f.ed2k = l.ed2k AND f.size = l.size WHERE l.episode_id = e.anidb_episode_id) AS files
      FROM episodes e
        JOIN anidb_episodes ae ON ae.id = e.anidb_episode_id
        LEFT JOIN user_episode_states w ON w.episode_id = e.id AND w.user_id = ${userId}
      WHERE ${condition}`.execute(this.db);
    return rows.map((r) => ({ ...r, files: Number(r.files), is_hidden: Number(r.is_hidden) }));
  }

  /** Episodes of a series with at least one file linked by hand (a link not from AniDB). */
  async manuallyLinkedEpisodeIds(seriesId: number): Promise<Set<number>> {
    const rows = await this.db
      .selectFrom('episodes as e')
      .innerJoin('file_episode_links as l', 'l.episode_id', 'e.anidb_episode_id')
      .select('e.id')
      .distinct()
      .where('e.series_id', '=', seriesId)
      .where('l.source', '<>', 'AniDB')
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  /** Sets or clears the watched state of episodes for one user. */
  async setWatched(userId: number, episodeIds: number[], watched: boolean) {
    if (!episodeIds.length) return;
    const now = new Date().toISOString();
    await this.db.transaction().execute(async (trx) => {
      const existing = new Map(
        (
          await trx
            .selectFrom('user_episode_states')
            .select(['episode_id', 'watch_count', 'watched_at'])
            .where('user_id', '=', userId)
            .where('episode_id', 'in', episodeIds)
            .execute()
        ).map((r) => [r.episode_id, r]),
      );
      const fresh = episodeIds.filter((id) => !existing.has(id));
      if (watched && fresh.length)
        await trx
          .insertInto('user_episode_states')
          .values(fresh.map((id) => ({ user_id: userId, episode_id: id, watched_at: now, watch_count: 1, rating: null, updated_at: now })))
          .execute();
      const toUpdate = [...existing.values()].filter((r) => (watched ? !r.watched_at : !!r.watched_at)).map((r) => r.episode_id);
      if (!toUpdate.length) return;
      if (watched)
        await trx
          .updateTable('user_episode_states')
          .set({ watched_at: now, watch_count: sql`watch_count + 1`, updated_at: now })
          .where('user_id', '=', userId)
          .where('episode_id', 'in', toUpdate)
          .execute();
      else
        await trx
          .updateTable('user_episode_states')
          .set({ watched_at: null, updated_at: now })
          .where('user_id', '=', userId)
          .where('episode_id', 'in', toUpdate)
          .execute();
    });
  }

  async setHidden(episodeId: number, hidden: boolean): Promise<boolean> {
    const result = await this.db
      .updateTable('episodes')
      .set({ is_hidden: hidden ? 1 : 0, updated_at: new Date().toISOString() })
      .where('id', '=', episodeId)
      .where('is_hidden', '=', hidden ? 0 : 1)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Sets (or with null clears) the user's episode rating, keeping the watch state. */
  async vote(userId: number, episodeId: number, value: number | null) {
    const now = new Date().toISOString();
    const existing = await this.db
      .selectFrom('user_episode_states')
      .select('episode_id')
      .where('user_id', '=', userId)
      .where('episode_id', '=', episodeId)
      .executeTakeFirst();
    if (existing)
      await this.db
        .updateTable('user_episode_states')
        .set({ rating: value, updated_at: now })
        .where('user_id', '=', userId)
        .where('episode_id', '=', episodeId)
        .execute();
    else if (value !== null)
      await this.db
        .insertInto('user_episode_states')
        .values({ user_id: userId, episode_id: episodeId, watched_at: null, watch_count: 0, rating: value, updated_at: now })
        .execute();
  }
}
