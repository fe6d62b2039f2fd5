import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** SQL of the scheduled AniDB checks: what is missing, stale or due for another lookup. */
export class MetadataSchedulerStore {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Anime that linked files point at but that have no series yet. The distinct anime of the links are walked through
   * their index one value at a time (each step the next larger anime id), so the query costs one index seek per anime
   * instead of reading every link: at 400,000 links the plain DISTINCT took ~250 ms, on the start-up path.
   */
  async linkedAnimeWithoutSeries(): Promise<number[]> {
    const { rows } = await sql<{ anime_id: number }>`
      WITH RECURSIVE linked (anime_id) AS (
        SELECT MIN(anime_id) FROM file_episode_links
        UNION ALL
        SELECT (SELECT MIN(l.anime_id) FROM file_episode_links l WHERE l.anime_id > linked.anime_id)
        FROM linked WHERE linked.anime_id IS NOT NULL
      )
      SELECT linked.anime_id FROM linked
      WHERE linked.anime_id IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM series WHERE series.anime_id = linked.anime_id)`.execute(this.db);
    return rows.map((r) => r.anime_id);
  }

  /** Which of these anime have a series in the collection. */
  async collectionAnimeAmong(animeIds: number[]): Promise<number[]> {
    const found: number[] = [];
    // In slices: a parameter list per statement stays well below SQLite's and PostgreSQL's limits.
    for (let i = 0; i < animeIds.length; i += 500) {
      const rows = await this.db
        .selectFrom('series')
        .select('anime_id')
        .distinct()
        .where('anime_id', 'in', animeIds.slice(i, i + 500))
        .execute();
      found.push(...rows.map((r) => r.anime_id));
    }
    return found;
  }

  /** When the collection's anime data was first fetched, oldest first (ISO time), null without any. */
  async oldestCollectionFetch(): Promise<string | null> {
    const row = await this.db
      .selectFrom('anidb_anime')
      .innerJoin('series', 'series.anime_id', 'anidb_anime.id')
      .select((eb) => eb.fn.min('anidb_anime.fetched_at').as('oldest'))
      .executeTakeFirst();
    return row?.oldest ?? null;
  }

  /** When the periodic check `name` last ran (ISO time), null if never. */
  async lastCheck(name: string): Promise<string | null> {
    const row = await this.db.selectFrom('anidb_checks').select('checked_at').where('name', '=', name).executeTakeFirst();
    return row?.checked_at ?? null;
  }

  async saveCheck(name: string, checkedAt: string): Promise<void> {
    await this.db
      .insertInto('anidb_checks')
      .values({ name, checked_at: checkedAt })
      .onConflict((oc) => oc.column('name').doUpdateSet({ checked_at: checkedAt }))
      .execute();
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
