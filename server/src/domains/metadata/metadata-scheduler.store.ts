import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * Where each slice of the unlinked files' hashes starts on SQLite, after the first: hex digits of either case, in
 * SQLite's binary order of text (every hash falls in exactly one slice).
 */
const HASH_SLICE_STARTS = [...'123456789ABCDEFabcdef'];

/** A file the AniDB check may look up: how often and when AniDB was asked about its content (null: never). */
type UnlinkedFile = { id: number; lookup_attempts: number | null; looked_up_at: string | null };

/** SQL of the scheduled AniDB checks: what is missing, stale or due for another lookup. */
export class MetadataSchedulerStore {
  /**
   * How many slices unlinkedFilesWithLookups reads: several on SQLite, whose statements hold the event loop; one on
   * PostgreSQL, whose do not.
   */
  readonly unlinkedSlices: number;

  constructor(private readonly db: Kysely<Database>) {
    this.unlinkedSlices = db.getExecutor().adapter instanceof PostgresAdapter ? 1 : HASH_SLICE_STARTS.length + 1;
  }

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
   * Hashed, not ignored files without links, with how often and when AniDB was last asked about them: on PostgreSQL
   * all of them, on SQLite those whose ED2K falls in slice `slice` of unlinkedSlices (by its first character; together
   * the slices hold every hash once). On SQLite the contents without a link are found from the two (ed2k, size)
   * indexes alone, then only their files are read: probing a link for every file read every file's row with its media
   * info (145 MB at 100,000 files), 300–390 ms in one statement holding SQLite after a 100,000-file Shoko import; the
   * caller yields between slices, and CROSS JOIN keeps SQLite from scanning every file for the few unlinked contents.
   * PostgreSQL answers the probe as one hash anti-join, faster than the set difference (180–285 against 400 ms).
   */
  async unlinkedFilesWithLookups(slice: number): Promise<UnlinkedFile[]> {
    if (this.unlinkedSlices === 1)
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
    const from = HASH_SLICE_STARTS[slice - 1];
    const to = HASH_SLICE_STARTS[slice];
    const range = (alias: string) =>
      sql.raw(
        [from === undefined ? '' : ` AND ${alias}.ed2k >= '${from}'`, to === undefined ? '' : ` AND ${alias}.ed2k < '${to}'`].join(''),
      );
    const { rows } = await sql<UnlinkedFile>`
      SELECT f.id, af.lookup_attempts, af.looked_up_at
      FROM (SELECT fc.ed2k, fc.size FROM files fc WHERE fc.ed2k <> ''${range('fc')}
            EXCEPT SELECT l.ed2k, l.size FROM file_episode_links l WHERE l.ed2k <> ''${range('l')}) u
      CROSS JOIN files f
      LEFT JOIN anidb_files af ON af.ed2k = f.ed2k AND af.size = f.size
      WHERE f.ed2k = u.ed2k AND f.size = u.size AND f.is_ignored = 0`.execute(this.db);
    return rows;
  }
}
