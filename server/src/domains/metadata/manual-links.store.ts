import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface EpisodeTarget {
  anidbEpisodeId: number;
  animeId: number;
}

/** A file to link and the AniDB episodes it gets, each at the same share. */
export interface UserLinkRequest {
  fileId: number;
  episodes: EpisodeTarget[];
  percentage: number;
}

/** SQL of the links users make between file contents and episodes. */
export class ManualLinksStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Every link of a content, AniDB's and users'. */
  linksOfContent(ed2k: string, size: number) {
    return this.db.selectFrom('file_episode_links').selectAll().where('ed2k', '=', ed2k).where('size', '=', size).execute();
  }

  /** The AniDB episodes AniDB itself linked a content to. */
  async anidbLinkedEpisodes(ed2k: string, size: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('file_episode_links')
      .select('episode_id')
      .where('ed2k', '=', ed2k)
      .where('size', '=', size)
      .where('source', '=', 'AniDB')
      .execute();
    return rows.map((row) => row.episode_id);
  }

  /** Shoko episodes among the ids with their AniDB episode and anime. */
  shokoEpisodes(ids: number[]): Promise<Array<{ id: number; anidbEpisodeId: number; animeId: number }>> {
    return this.db
      .selectFrom('episodes')
      .innerJoin('anidb_episodes', 'anidb_episodes.id', 'episodes.anidb_episode_id')
      .select(['episodes.id', 'anidb_episodes.id as anidbEpisodeId', 'anidb_episodes.anime_id as animeId'])
      .where('episodes.id', 'in', ids)
      .execute();
  }

  async series(seriesId: number): Promise<{ id: number; anime_id: number } | undefined> {
    return this.db.selectFrom('series').select(['id', 'anime_id']).where('id', '=', seriesId).executeTakeFirst();
  }

  /** The AniDB episodes of one type of an anime, by number. */
  anidbEpisodesOfType(animeId: number, type: string): Promise<Array<{ id: number; number: number }>> {
    return this.db
      .selectFrom('anidb_episodes')
      .select(['id', 'number'])
      .where('anime_id', '=', animeId)
      .where('type', '=', type)
      .orderBy('number')
      .execute();
  }

  /** Removes the links and marks the file not imported, in one transaction. */
  async removeLinks(linkIds: number[], fileId: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('file_episode_links').where('id', 'in', linkIds).execute();
      await trx.updateTable('files').set({ imported_at: null, updated_at: new Date().toISOString() }).where('id', '=', fileId).execute();
    });
  }

  /** Replaces each file's user links with the new ones and marks it imported, all in one transaction. */
  async replaceUserLinks(requests: UserLinkRequest[]): Promise<void> {
    const stamp = new Date().toISOString();
    await this.db.transaction().execute(async (trx) => {
      for (const request of requests) {
        const file = await trx.selectFrom('files').select(['ed2k', 'size']).where('id', '=', request.fileId).executeTakeFirstOrThrow();
        await trx
          .deleteFrom('file_episode_links')
          .where('ed2k', '=', file.ed2k!)
          .where('size', '=', file.size)
          .where('source', '=', 'User')
          .execute();
        if (request.episodes.length) {
          await trx
            .insertInto('file_episode_links')
            .values(
              request.episodes.map((episode, ordering) => ({
                ed2k: file.ed2k!,
                size: file.size,
                anime_id: episode.animeId,
                episode_id: episode.anidbEpisodeId,
                percentage: request.percentage,
                ordering,
                source: 'User' as const,
                release_group_id: null,
              })),
            )
            .execute();
        }
        await trx.updateTable('files').set({ imported_at: stamp, updated_at: stamp }).where('id', '=', request.fileId).execute();
      }
    });
  }
}
