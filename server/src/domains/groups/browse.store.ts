import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DialectName } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { Group, GroupSizes, Series } from '@shoko-ts/contract';
import { AnimeTypes, EpisodeTypeCountKeys, FileSourceKeys } from '@shoko-ts/contract';
import { nestedGroups, topGroupsOf } from '../../db/group-tree.js';
import { sortName } from '../../db/name-order.js';
import { animeType, byAirDate, emptyImages, emptySizes, iso, posterOf, type SeriesModels, type SeriesRow } from '../series/index.js';
import type { Viewer } from '../../http/viewer.js';

/** Read side of collection browsing by group: group trees, their visibility and the Group API models (the series' parts are read through the series domain's SeriesModels). */
export class BrowseStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly series: SeriesModels,
  ) {}

  get dialect(): DialectName {
    return this.series.dialect;
  }

  viewer(userId: number | null): Promise<Viewer> {
    return this.series.viewer(userId);
  }

  seriesAllowed(viewer: Viewer, alias: string): RawBuilder<unknown> {
    return this.series.seriesAllowed(viewer, alias);
  }

  isSeriesAllowed(viewer: Viewer, animeId: number): Promise<boolean> {
    return this.series.isSeriesAllowed(viewer, animeId);
  }

  allowedSeriesIds(ids: number[], viewer: Viewer): Promise<Set<number>> {
    return this.series.allowedSeriesIds(ids, viewer);
  }

  seriesModels(ids: number[], viewer: Viewer, options?: { includeAniDB?: boolean; includeTMDB?: boolean }): Promise<Series[]> {
    return this.series.seriesModels(ids, viewer, options);
  }

  /** True when some group has a parent; flat collections skip the recursive group queries. */
  nested(): Promise<boolean> {
    return nestedGroups(this.db);
  }

  /** `WITH RECURSIVE` prefix defining gdesc(root, id) and gup(id, top) for nested collections. */
  treeCte(nested: boolean): RawBuilder<unknown> {
    if (!nested) return sql.raw('');
    return sql.raw(`WITH RECURSIVE gdesc(root, id) AS (SELECT id, id FROM groups UNION ALL SELECT d.root, g.id FROM groups g JOIN gdesc d ON g.parent_id = d.id),
      gup(id, top) AS (SELECT id, id FROM groups WHERE parent_id IS NULL UNION ALL SELECT g.id, u.top FROM groups g JOIN gup u ON g.parent_id = u.id) `);
  }

  /**
   * SQL condition: no series under the group row `alias` carries a hidden tag. In a nested collection the groups
   * holding such a series anywhere below them are read once (not per group: a sub-query correlated on gdesc's root
   * scanned every ancestor pair for each group, 4.3 s per filter Size after a 100,000-file Shoko import against 51 ms).
   */
  groupAllowed(viewer: Viewer, alias: string, nested: boolean): RawBuilder<unknown> {
    if (!viewer.restrictedTags.length) return sql.raw('1 = 1');
    const hidden = sql`JOIN anidb_anime_tags rt ON rt.anime_id = rs.anime_id WHERE rt.tag_id IN (${sql.join(viewer.restrictedTags)})`;
    if (nested) return sql`${sql.raw(alias)}.id NOT IN (SELECT d.root FROM gdesc d JOIN series rs ON rs.group_id = d.id ${hidden})`;
    return sql`NOT EXISTS (SELECT 1 FROM series rs ${hidden} AND rs.group_id = ${sql.raw(alias)}.id)`;
  }

  async group(id: number) {
    return (await this.db.selectFrom('groups').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
  }

  /** Id, name and parent of the given groups (no particular order). */
  async groupsByIds(ids: number[]): Promise<Array<{ id: number; name: string; parent_id: number | null }>> {
    if (!ids.length) return [];
    return this.db.selectFrom('groups').select(['id', 'name', 'parent_id']).where('id', 'in', ids).execute();
  }

  /** Every group id in the subtree of `roots` (including the roots), by root. */
  async descendants(roots: number[]): Promise<Map<number, number[]>> {
    const result = new Map<number, number[]>(roots.map((r) => [r, [r]]));
    if (!roots.length) return result;
    // One statement whether or not the roots have children: a flat collection's answer is empty at once.
    const { rows } = await sql<{
      root: number;
      id: number;
    }>`WITH RECURSIVE sub(root, id) AS (SELECT id, id FROM groups WHERE id IN (${sql.join(roots)})
      UNION ALL SELECT s.root, g.id FROM groups g JOIN sub s ON g.parent_id = s.id) SELECT root, id FROM sub WHERE root <> id`.execute(
      this.db,
    );
    for (const row of rows) result.get(row.root)!.push(row.id);
    return result;
  }

  async topLevelOf(groupId: number): Promise<number> {
    let current = await this.group(groupId);
    for (let guard = 0; current?.parent_id && guard < 100; guard++) current = await this.group(current.parent_id);
    return current?.id ?? groupId;
  }

  /** Top-level group of each given group. */
  topGroups(groupIds: number[], nested?: boolean): Promise<Map<number, number>> {
    return topGroupsOf(this.db, groupIds, nested);
  }

  /** Group API models in the order of `ids`, with sizes aggregated over every series below each group. */
  async groupModels(ids: number[], viewer: Viewer): Promise<Group[]> {
    if (!ids.length) return [];
    const today = new Date().toISOString().slice(0, 10);
    const sizesOf = (rows: SeriesRow[]) =>
      this.series.sizes(
        rows.map((s) => s.id),
        viewer.userId,
        today,
      );
    // Independent reads run side by side (PostgreSQL's pool answers them at once; SQLite takes them in turn): the
    // series of the groups themselves are read by group without waiting for the subgroups, and their sizes right after.
    const ownSeries = this.series.seriesRows({ groupIds: ids });
    const [groups, subtree, tops, childCounts, own, ownSizes] = await Promise.all([
      this.db.selectFrom('groups').selectAll().where('id', 'in', ids).execute(),
      this.descendants(ids),
      this.topGroups(ids),
      this.db
        .selectFrom('groups')
        .select(['parent_id'])
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('parent_id', 'in', ids)
        .groupBy('parent_id')
        .execute(),
      ownSeries,
      ownSeries.then(sizesOf),
    ]);
    // Then those of the subgroups, in a nested collection.
    const self = new Set(ids);
    const subgroups = [...new Set([...subtree.values()].flat())].filter((id) => !self.has(id));
    const subSeries = subgroups.length ? await this.series.seriesRows({ groupIds: subgroups }) : [];
    const series = [...own, ...subSeries];
    const sizes = subSeries.length ? new Map([...ownSizes, ...(await sizesOf(subSeries))]) : ownSizes;
    const allowedSeries = viewer.restrictedTags.length
      ? await this.allowedSeriesIds(
          series.map((s) => s.id),
          viewer,
        )
      : null;
    const visible = allowedSeries ? series.filter((s) => allowedSeries.has(s.id)) : series;
    const children = new Map(childCounts.map((r) => [r.parent_id!, Number(r.n)]));
    const byId = new Map(groups.map((g) => [g.id, g]));
    return ids
      .map((id) => byId.get(id))
      .filter((g): g is NonNullable<typeof g> => !!g)
      .map((g) => {
        const members = new Set(subtree.get(g.id) ?? [g.id]);
        const inTree = visible.filter((s) => members.has(s.group_id));
        const direct = inTree.filter((s) => s.group_id === g.id).sort(byAirDate);
        const main =
          (g.preferred_series_id ? direct.find((s) => s.id === g.preferred_series_id) : undefined) ??
          (g.main_anime_id ? direct.find((s) => s.anime_id === g.main_anime_id) : undefined) ??
          direct[0] ??
          [...inTree].sort(byAirDate)[0];
        const total: GroupSizes = {
          ...emptySizes(),
          SeriesTypes: Object.fromEntries(AnimeTypes.map((t) => [t, 0])) as GroupSizes['SeriesTypes'],
          SubGroups: children.get(g.id) ?? 0,
        };
        for (const s of inTree) {
          const size = sizes.get(s.id)!;
          for (const part of ['Local', 'Watched', 'Total'] as const) for (const k of EpisodeTypeCountKeys) total[part][k] += size[part][k];
          for (const k of FileSourceKeys) total.FileSources[k] += size.FileSources[k];
          total.Missing.Episodes += size.Missing.Episodes;
          total.Missing.Specials += size.Missing.Specials;
          total.SeriesTypes[animeType(s.type)]++;
        }
        const images = emptyImages();
        const poster = main ? posterOf(main.anime_id, main.picture) : null;
        if (poster) images.Posters.push(poster);
        return {
          IDs: {
            ID: g.id,
            PreferredSeries: g.preferred_series_id,
            MainSeries: main?.id ?? 0,
            MainAnime: main?.anime_id ?? 0,
            ParentGroup: g.parent_id,
            TopLevelGroup: tops.get(g.id) ?? g.id,
          },
          Name: g.name,
          Size: direct.length,
          SortName: sortName(g.name),
          Description: g.description,
          HasCustomName: !!g.has_custom_name,
          HasCustomDescription: !!g.has_custom_description,
          Images: images,
          Sizes: total,
          Created: iso(g.created_at),
          Updated: iso(g.updated_at),
        } satisfies Group;
      });
  }

  /** Series ids of a group (recursive or direct), in the natural order: main series first, then by air date. */
  async groupSeriesIds(groupId: number, recursive: boolean, viewer: Viewer): Promise<number[]> {
    const groupIds = recursive ? (await this.descendants([groupId])).get(groupId)! : [groupId];
    const rows = (await this.series.seriesRows({ groupIds })).sort(byAirDate);
    const allowed = await this.allowedSeriesIds(
      rows.map((r) => r.id),
      viewer,
    );
    const group = await this.group(groupId);
    const ordered = rows.filter((r) => allowed.has(r.id));
    const preferred = ordered.findIndex((r) => r.id === group?.preferred_series_id);
    const main = preferred >= 0 ? preferred : ordered.findIndex((r) => r.group_id === groupId && r.anime_id === group?.main_anime_id);
    if (main > 0) ordered.unshift(...ordered.splice(main, 1));
    return ordered.map((r) => r.id);
  }
}
