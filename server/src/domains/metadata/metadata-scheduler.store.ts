import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** A file the AniDB check may look up: how often and when AniDB was asked about its content (null: never). */
type UnlinkedFile = { id: number; lookup_attempts: number | null; looked_up_at: string | null };

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

  /**
   * Hashed, not ignored files without links, in id order, with how often and when AniDB was last asked about their
   * content. Read from the file list's maintained keys (`is_linked`, kept by triggers in the transaction of every
   * change) through their partial index of unlinked files: a range of the few unlinked files instead of probing a link
   * for every file, which took 150-285 ms on PostgreSQL and 300-390 ms on SQLite at 100,000 files, right after a big
   * import while its first visits were being answered.
   */
  async unlinkedFilesWithLookups(): Promise<UnlinkedFile[]> {
    const rows = await this.db
      .selectFrom('file_sort_keys as k')
      .innerJoin('files as f', 'f.id', 'k.file_id')
      .leftJoin('anidb_files as af', (join) => join.onRef('af.ed2k', '=', 'f.ed2k').onRef('af.size', '=', 'f.size'))
      .select(['f.id', 'af.lookup_attempts', 'af.looked_up_at'])
      .where('k.is_linked', '=', 0)
      .where('k.is_ignored', '=', 0)
      .where('f.ed2k', '!=', '')
      .execute();
    // Sorted here: with ORDER BY, PostgreSQL planned a parallel sort, a second process for a read of a few milliseconds.
    return rows.sort((a, b) => a.id - b.id);
  }
}
