import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** SQL of the scheduled AniDB checks: what is missing, stale or due for another lookup. */
export class MetadataSchedulerStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Anime that linked files point at but that have no series yet. */
  async linkedAnimeWithoutSeries(): Promise<number[]> {
    const rows = await this.db
      .selectFrom('file_episode_links')
      .leftJoin('series', 'series.anime_id', 'file_episode_links.anime_id')
      .select('file_episode_links.anime_id')
      .distinct()
      .where('series.id', 'is', null)
      .execute();
    return rows.map((r) => r.anime_id);
  }

  /** Anime of the collection whose data was fetched before the cutoff (ISO time). */
  async collectionAnimeFetchedBefore(cutoff: string): Promise<number[]> {
    const rows = await this.db
      .selectFrom('anidb_anime')
      .innerJoin('series', 'series.anime_id', 'anidb_anime.id')
      .select('anidb_anime.id')
      .where('anidb_anime.fetched_at', '<', cutoff)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Hashed, not ignored files without links, with how often and when AniDB was last asked about them. */
  unlinkedFilesWithLookups() {
    return this.db
      .selectFrom('files')
      .leftJoin('anidb_files', (join) => join.onRef('anidb_files.ed2k', '=', 'files.ed2k').onRef('anidb_files.size', '=', 'files.size'))
      .select(['files.id', 'anidb_files.lookup_attempts', 'anidb_files.looked_up_at'])
      .where('files.ed2k', '!=', '')
      .where('files.is_ignored', '=', 0)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('file_episode_links')
              .select('file_episode_links.id')
              .whereRef('file_episode_links.ed2k', '=', 'files.ed2k')
              .whereRef('file_episode_links.size', '=', 'files.size'),
          ),
        ),
      )
      .execute();
  }
}
