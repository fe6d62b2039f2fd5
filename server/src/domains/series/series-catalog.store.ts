import type { Kysely, RawBuilder, SqlBool } from 'kysely';
import type { Database } from '../../db/schema.js';
import { orderKey, orderKeyRangeEnd, refreshOrderKeys } from '../../db/name-order.js';
import type { SeriesBrowseStore } from './series-browse.store.js';
import type { Viewer } from '../../http/viewer.js';
import type { SearchSeriesRow } from './series-search.js';

/** A visible series with what the lists sort, filter and search by. */
export interface CatalogSeriesRow {
  id: number;
  anime_id: number;
  title_override: string | null;
  main_title: string | null;
  air_date: string | null;
  end_date: string | null;
}

/** SQL of the series lists: every visible series or stored anime, titles, file folders, relations. */
export class SeriesCatalogStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly browse: Pick<SeriesBrowseStore, 'seriesAllowed'>,
  ) {}

  private allowed(viewer: Viewer, alias: string) {
    return this.browse.seriesAllowed(viewer, alias) as RawBuilder<SqlBool>;
  }

  /** Every series the viewer may see, with its name parts and air dates. */
  visibleSeries(viewer: Viewer): Promise<CatalogSeriesRow[]> {
    return this.db
      .selectFrom('series as s')
      .leftJoin('anidb_anime as a', 'a.id', 's.anime_id')
      .select(['s.id', 's.anime_id', 's.title_override', 'a.main_title', 'a.air_date', 'a.end_date'])
      .where(this.allowed(viewer, 's'))
      .execute();
  }

  /** Every series with the parts of its name, for the search index (which applies each viewer's restrictions itself). */
  searchSeries(): Promise<SearchSeriesRow[]> {
    return this.db
      .selectFrom('series as s')
      .leftJoin('anidb_anime as a', 'a.id', 's.anime_id')
      .select(['s.id', 's.anime_id', 's.title_override', 'a.main_title'])
      .execute();
  }

  /** The anime carrying any of the tags: what a viewer restricted from those tags may not see. */
  async animeWithTags(tagIds: number[]): Promise<number[]> {
    const rows = await this.db.selectFrom('anidb_anime_tags').select('anime_id').distinct().where('tag_id', 'in', tagIds).execute();
    return rows.map((r) => r.anime_id);
  }

  /**
   * GET Series' page: the visible series in name order (the order keys of 0042: JS-lower-cased name, then id), only
   * those whose lower-cased name starts with `prefix` (lower-cased) when given; a range of the order-key index, and how many there are.
   */
  async pageOfSeriesByName(
    viewer: Viewer,
    prefix: string,
    paging: { page: number; pageSize: number },
  ): Promise<{ total: number; ids: number[] }> {
    await refreshOrderKeys(this.db);
    const prefixKey = orderKey(prefix);
    let query = this.db.selectFrom('series as s').where(this.allowed(viewer, 's'));
    if (prefixKey) query = query.where('s.order_key', '>=', prefixKey).where('s.order_key', '<', orderKeyRangeEnd(prefixKey));
    let page = query.select('s.id').orderBy('s.order_key').orderBy('s.id');
    if (paging.pageSize > 0) page = page.limit(paging.pageSize).offset(paging.pageSize * (paging.page - 1));
    const [rows, count] = await Promise.all([
      page.execute(),
      query.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { total: Number(count.total), ids: rows.map((r) => r.id) };
  }

  /** Every stored AniDB anime the viewer may see (none of its tags is hidden from them). */
  visibleAnime(viewer: Viewer): Promise<Array<{ id: number; main_title: string }>> {
    let query = this.db.selectFrom('anidb_anime as a').select(['a.id', 'a.main_title']);
    if (viewer.restrictedTags.length)
      query = query.where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('anidb_anime_tags as rt')
              .select('rt.tag_id')
              .whereRef('rt.anime_id', '=', 'a.id')
              .where('rt.tag_id', 'in', viewer.restrictedTags),
          ),
        ),
      );
    return query.execute();
  }

  /** Every AniDB title of the given anime. */
  async titles(animeIds: number[]): Promise<Array<{ anime_id: number; type: string; language: string; value: string }>> {
    const rows: Array<{ anime_id: number; type: string; language: string; value: string }> = [];
    for (let i = 0; i < animeIds.length; i += 1000) {
      rows.push(
        ...(await this.db
          .selectFrom('anidb_anime_titles')
          .select(['anime_id', 'type', 'language', 'value'])
          .where('anime_id', 'in', animeIds.slice(i, i + 1000))
          .execute()),
      );
    }
    return rows;
  }

  /** The series of an AniDB anime, if there is one. */
  async seriesOfAnime(animeId: number): Promise<{ id: number; anime_id: number } | null> {
    return (await this.db.selectFrom('series').select(['id', 'anime_id']).where('anime_id', '=', animeId).executeTakeFirst()) ?? null;
  }

  /** Whether the AniDB anime is stored. */
  async animeExists(animeId: number): Promise<boolean> {
    return !!(await this.db.selectFrom('anidb_anime').select('id').where('id', '=', animeId).executeTakeFirst());
  }

  /** Every file location with its import folder's path and the series its file is linked to (one row per series). */
  locationsWithSeries(): Promise<Array<{ folder: string; relative_path: string; series_id: number }>> {
    return this.db
      .selectFrom('file_locations as fl')
      .innerJoin('import_folders as i', 'i.id', 'fl.import_folder_id')
      .innerJoin('files as f', 'f.id', 'fl.file_id')
      .innerJoin('file_episode_links as l', (join) => join.onRef('l.ed2k', '=', 'f.ed2k').onRef('l.size', '=', 'f.size'))
      .innerJoin('episodes as e', 'e.anidb_episode_id', 'l.episode_id')
      .select(['i.path as folder', 'fl.relative_path', 'e.series_id'])
      .distinct()
      .execute();
  }

  /** Every stored AniDB relation as stored (one direction each). */
  relations(): Promise<Array<{ anime_id: number; related_anime_id: number; relation_type: string }>> {
    return this.db.selectFrom('anidb_relations').select(['anime_id', 'related_anime_id', 'relation_type']).execute();
  }

  /** Shoko series ids of the given anime. */
  async seriesIdsOfAnime(animeIds: number[]): Promise<Map<number, number>> {
    const result = new Map<number, number>();
    for (let i = 0; i < animeIds.length; i += 1000) {
      const rows = await this.db
        .selectFrom('series')
        .select(['id', 'anime_id'])
        .where('anime_id', 'in', animeIds.slice(i, i + 1000))
        .execute();
      for (const row of rows) result.set(row.anime_id, row.id);
    }
    return result;
  }
}
