import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface RemovedSeries {
  id: number;
  anime_id: number;
  group_id: number;
}

/** SQL of removing a series: its records, the links to it, its emptied groups and optionally AniDB's data. */
export class SeriesRemovalStore {
  constructor(private readonly db: Kysely<Database>) {}

  async series(seriesId: number): Promise<RemovedSeries | undefined> {
    return this.db.selectFrom('series').select(['id', 'anime_id', 'group_id']).where('id', '=', seriesId).executeTakeFirst();
  }

  /** Files with these ED2K hashes (any size). */
  filesOfHashes(hashes: string[]): Promise<Array<{ id: number; ed2k: string; size: number }>> {
    return this.db.selectFrom('files').select(['id', 'ed2k', 'size']).where('ed2k', 'in', hashes).execute();
  }

  /**
   * In one transaction: the links of the given sources to the anime, the series' episodes, the series, its group and
   * the parents left empty, and with `anidbData` AniDB's file records and the anime.
   */
  async removeSeries(series: RemovedSeries, options: { linkSources: Array<'User' | 'AniDB'>; anidbData: boolean }): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('file_episode_links')
        .where('anime_id', '=', series.anime_id)
        .where('source', 'in', options.linkSources)
        .execute();
      await trx.deleteFrom('episodes').where('series_id', '=', series.id).execute();
      await trx.deleteFrom('series').where('id', '=', series.id).execute();
      // The group goes when it holds nothing else, and so do its parents that are left empty.
      let groupId: number | null = series.group_id;
      while (groupId !== null) {
        const hasSeries = await trx.selectFrom('series').select('id').where('group_id', '=', groupId).executeTakeFirst();
        const hasChildren = await trx.selectFrom('groups').select('id').where('parent_id', '=', groupId).executeTakeFirst();
        if (hasSeries || hasChildren) break;
        const group: { parent_id: number | null } | undefined = await trx
          .selectFrom('groups')
          .select('parent_id')
          .where('id', '=', groupId)
          .executeTakeFirst();
        await trx.deleteFrom('groups').where('id', '=', groupId).execute();
        groupId = group?.parent_id ?? null;
      }
      if (options.anidbData) {
        await trx.deleteFrom('anidb_files').where('anime_id', '=', series.anime_id).execute();
        await trx.deleteFrom('anidb_anime').where('id', '=', series.anime_id).execute();
      }
    });
  }
}
