import type { Kysely } from 'kysely';
import { ANIDB_EPISODE_MODEL_COLUMNS } from '../../db/shared-queries.js';
import type { Database } from '../../db/schema.js';

/** SQL of the AniDB search and AniDB views: stored anime, their titles and episodes, and which have series or files. */
export class AniDBSearchStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** The stored AniDB anime among the ids. */
  anime(ids: number[]) {
    if (!ids.length) return Promise.resolve([]);
    return this.db.selectFrom('anidb_anime').selectAll().where('id', 'in', ids).execute();
  }

  /** The stored anime carrying any of these AniDB tags. */
  async animeWithTags(tagIds: number[]): Promise<Set<number>> {
    if (!tagIds.length) return new Set();
    const rows = await this.db.selectFrom('anidb_anime_tags').select('anime_id').distinct().where('tag_id', 'in', tagIds).execute();
    return new Set(rows.map((r) => r.anime_id));
  }

  /** The titles of the given anime, in stored order. */
  titlesOfAnime(ids: number[]): Promise<Array<{ anime_id: number; type: string; language: string; value: string }>> {
    return this.db
      .selectFrom('anidb_anime_titles')
      .select(['anime_id', 'type', 'language', 'value'])
      .where('anime_id', 'in', ids)
      .orderBy('id')
      .execute();
  }

  /** Every stored title of every anime. */
  allTitles(): Promise<Array<{ anime_id: number; value: string }>> {
    return this.db.selectFrom('anidb_anime_titles').select(['anime_id', 'value']).execute();
  }

  /** The Shoko series of the given anime. */
  async seriesOfAnime(ids: number[]): Promise<Array<{ id: number; anime_id: number }>> {
    const rows: Array<{ id: number; anime_id: number }> = [];
    for (let i = 0; i < ids.length; i += 5000) {
      rows.push(
        ...(await this.db
          .selectFrom('series')
          .select(['id', 'anime_id'])
          .where('anime_id', 'in', ids.slice(i, i + 5000))
          .execute()),
      );
    }
    return rows;
  }

  /** The AniDB episodes of an anime, each with its Shoko episode when there is one. */
  episodesOfAnime(animeId: number) {
    return this.db
      .selectFrom('anidb_episodes as ae')
      .leftJoin('episodes as e', 'e.anidb_episode_id', 'ae.id')
      .select(['ae.id', ...ANIDB_EPISODE_MODEL_COLUMNS, 'e.id as shokoId', 'e.is_hidden'])
      .where('ae.anime_id', '=', animeId)
      .execute();
  }

  /** The AniDB episodes, among the given ones, that have a file on disk. */
  async episodesWithFiles(anidbEpisodeIds: number[]): Promise<number[]> {
    const rows = await this.db
      .selectFrom('file_episode_links as l')
      .innerJoin('files as f', (join) => join.onRef('f.ed2k', '=', 'l.ed2k').onRef('f.size', '=', 'l.size'))
      .select('l.episode_id')
      .distinct()
      .where('l.episode_id', 'in', anidbEpisodeIds)
      .execute();
    return rows.map((r) => r.episode_id);
  }

  /** The Shoko episodes, among the given ones, that the user has watched. */
  async watchedEpisodes(userId: number, episodeIds: number[]): Promise<number[]> {
    const rows = await this.db
      .selectFrom('user_episode_states')
      .select('episode_id')
      .where('user_id', '=', userId)
      .where('watched_at', 'is not', null)
      .where('episode_id', 'in', episodeIds)
      .execute();
    return rows.map((r) => r.episode_id);
  }
}
