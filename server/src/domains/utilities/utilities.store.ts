import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { refreshSeriesAggregates } from '../../db/aggregates.js';
import type { Database } from '../../db/schema.js';
import type { DialectName } from '../../db/database.js';
import type { SeriesModels } from '../series/index.js';
import type { Viewer } from '../../http/viewer.js';

/** Which series a utility list holds. */
export type SeriesUtilityKind = 'WithoutFiles' | 'WithManuallyLinkedFiles';

/** SQL of the Utilities pages' series lists. */
export class UtilitiesStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
    private readonly seriesAllowed: SeriesModels['seriesAllowed'],
  ) {}

  /** The series of a utility list that the viewer may see, with the names they are listed by. */
  async seriesOfList(kind: SeriesUtilityKind, viewer: Viewer) {
    // A link counts only when its file exists; the episode joins the link to the series as the sizes do. Without files:
    // the maintained file count of the series aggregates (the same join), brought up to date first. Manual links: from
    // the few links users made (an index on the link source).
    if (kind === 'WithoutFiles') await refreshSeriesAggregates(this.db, this.dialect);
    const listed =
      kind === 'WithoutFiles'
        ? sql<SqlBool>`not exists (select 1 from series_aggregates g where g.series_id = s.id and g.file_count > 0)`
        : sql<SqlBool>`s.id in (select e.series_id from file_episode_links l join files f on f.ed2k = l.ed2k and f.size = l.size
            join episodes e on e.anidb_episode_id = l.episode_id where l.source = 'User')`;
    return this.db
      .selectFrom('series as s')
      .leftJoin('anidb_anime as a', 'a.id', 's.anime_id')
      .select(['s.id', 's.anime_id', 's.title_override', 'a.main_title'])
      .where(listed)
      .where(this.seriesAllowed(viewer, 's') as RawBuilder<SqlBool>)
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
