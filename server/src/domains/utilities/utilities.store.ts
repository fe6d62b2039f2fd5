import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { BrowseStore, Viewer } from '../groups/browse.store.js';

/** Which series a utility list holds. */
export type SeriesUtilityKind = 'WithoutFiles' | 'WithManuallyLinkedFiles';

/** SQL of the Utilities pages' series lists. */
export class UtilitiesStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly browse: BrowseStore,
  ) {}

  /** The series of a utility list that the viewer may see, with the names they are listed by. */
  seriesOfList(kind: SeriesUtilityKind, viewer: Viewer) {
    // A link counts only when its file exists; the episode joins the link to the series as the sizes do.
    const linkedFile = (userOnly: boolean) =>
      sql<SqlBool>`exists (select 1 from episodes e join file_episode_links l on l.episode_id = e.anidb_episode_id
        join files f on f.ed2k = l.ed2k and f.size = l.size
        where e.series_id = s.id${userOnly ? sql` and l.source = 'User'` : sql``})`;
    return this.db
      .selectFrom('series as s')
      .leftJoin('anidb_anime as a', 'a.id', 's.anime_id')
      .select(['s.id', 's.anime_id', 's.title_override', 'a.main_title'])
      .where(kind === 'WithoutFiles' ? sql<SqlBool>`not ${linkedFile(false)}` : linkedFile(true))
      .where(this.browse.seriesAllowed(viewer, 's') as RawBuilder<SqlBool>)
      .execute();
  }

  /** Every AniDB title of the given anime. */
  async animeTitles(animeIds: number[]): Promise<Array<{ anime_id: number; value: string }>> {
    const titles: Array<{ anime_id: number; value: string }> = [];
    for (let i = 0; i < animeIds.length; i += 1000) {
      titles.push(
        ...(await this.db
          .selectFrom('anidb_anime_titles')
          .select(['anime_id', 'value'])
          .where('anime_id', 'in', animeIds.slice(i, i + 1000))
          .execute()),
      );
    }
    return titles;
  }
}
