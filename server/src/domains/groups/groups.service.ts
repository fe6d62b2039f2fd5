/*
 * DESIGN — the groups domain: groups of series (tree, per-user visibility, the create/update merge of contract §2.1) and
 * the read models every collection page shows. Routes: Group/*, Series/{id}/Group, Series/{id}/Move/{groupID} and
 * WebUI/GroupView (group-centric: extras of a page of groups) in groups.routes.ts. Stores: GroupsStore (groups.store.ts:
 * group rows, series ↔ group links, merge/delete writes) and BrowseStore (browse.store.ts: visibility, group trees, the
 * Group/Series API models, shared with dashboard, series, tags and utilities). Uses the filters domain's `evaluate` for
 * group lists and sub-groups under a filter; the tag tree comes from the tags domain (injected TagAncestry).
 */
import type { CreateOrUpdateGroupBody, Group, ListResult, Series, WebUIGroupExtra, WebUIGroupViewBody } from '@shoko-ts/contract';
import type { EventBus } from '../../events/bus.js';
import { badRequest, FieldErrorCollector, notFound, textError, validationError } from '../../http/problem.js';
import { relationType, type SeriesRelation } from '../series/index.js';
import { keepCategory, keepUserTags, tagCategory, TagFilterBits } from '../tags/index.js';
import type { FiltersService, LiveFilter } from '../filters/index.js';
import { letters, sortName } from '../../db/name-order.js';
import type { BrowseStore } from './browse.store.js';
import { SERIES_FORBIDDEN, SERIES_NOT_FOUND, animeType } from '../series/index.js';
import type { Viewer } from '../../http/viewer.js';
import type { GroupNameChanges, GroupsStore } from './groups.store.js';

/** The filter of the plain group lists: every group the viewer may see. */
const EVERY_GROUP: LiveFilter = { applyAtSeriesLevel: false, isDirectory: false, expression: null, sorting: null };

export const GROUP_NOT_FOUND = 'No Group entry for the given groupID';
export const GROUP_FORBIDDEN = 'Accessing Group is not allowed for the current user';

/** Names of AniDB tags and their ancestors, root first, by tag id (the tags domain's tag tree). */
export type TagAncestry = (tagIds: number[]) => Promise<Map<number, string[]>>;

/** Groups: reading with per-user visibility, and the create/update merge of contract §2.1. */
export class GroupsService {
  constructor(
    private readonly browse: BrowseStore,
    private readonly store: GroupsStore,
    private readonly filters: FiltersService,
    private readonly bus: EventBus,
    private readonly tagAncestry: TagAncestry,
  ) {}

  /** Who is looking: a user (their id and hidden tags), or nobody in particular. */
  viewer(userId: number | null): Promise<Viewer> {
    return this.browse.viewer(userId);
  }

  async requireGroup(id: number, viewer: Viewer | null) {
    const group = await this.browse.group(id);
    if (!group) throw notFound(GROUP_NOT_FOUND);
    if (viewer && !(await this.isAllowed(id, viewer))) throw textError(403, GROUP_FORBIDDEN);
    return group;
  }

  /** No series anywhere below the group carries one of the viewer's hidden tags. */
  async isAllowed(id: number, viewer: Viewer): Promise<boolean> {
    if (!viewer.restrictedTags.length) return true;
    const ids = await this.browse.groupSeriesIds(id, true, { userId: 0, restrictedTags: [] });
    return (await this.browse.allowedSeriesIds(ids, viewer)).size === ids.length;
  }

  async hasFiles(id: number): Promise<boolean> {
    const ids = await this.browse.groupSeriesIds(id, true, { userId: 0, restrictedTags: [] });
    if (!ids.length) return false;
    return this.store.anyLocalFile(ids);
  }

  async get(id: number, viewer: Viewer): Promise<Group> {
    await this.requireGroup(id, viewer);
    return (await this.browse.groupModels([id], viewer))[0];
  }

  /** Visible groups ordered by SortName (contract §3.1), with their sort names. */
  async sortedGroups(
    viewer: Viewer,
    options: { includeEmpty: boolean; topLevelOnly: boolean; startsWith?: string },
  ): Promise<Array<{ id: number; key: string }>> {
    const rows = await this.filters.matchingGroups(EVERY_GROUP, viewer, { includeEmpty: options.includeEmpty, lift: false });
    const prefix = (options.startsWith ?? '').toLowerCase();
    return rows
      .filter((g) => !options.topLevelOnly || g.parent_id === null)
      .filter((g) => !prefix || g.name.toLowerCase().startsWith(prefix))
      .map((g) => ({ id: g.id, key: sortName(g.name) }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id - b.id));
  }

  /** GET Group/Letters: visible groups counted by the first character of their sort names. */
  async letters(viewer: Viewer, options: { includeEmpty: boolean; topLevelOnly: boolean }): Promise<Record<string, number>> {
    const counted = await this.filters.groupLettersByName(EVERY_GROUP, viewer, { ...options, lift: false });
    if (counted) return counted;
    return letters((await this.sortedGroups(viewer, options)).map((g) => g.key));
  }

  /** GET /Group: one page of groups ordered by SortName. */
  async list(
    viewer: Viewer,
    options: { page: number; pageSize: number; includeEmpty: boolean; topLevelOnly: boolean; startsWith: string },
  ): Promise<ListResult<Group>> {
    const paged = options.startsWith ? null : await this.filters.groupPageByName(EVERY_GROUP, viewer, { ...options, lift: false });
    if (paged) return { Total: paged.total, List: await this.browse.groupModels(paged.ids, viewer) };
    const picked = await this.sortedGroups(viewer, options);
    const page = options.pageSize === 0 ? picked : picked.slice(options.pageSize * (options.page - 1), options.pageSize * options.page);
    return {
      Total: picked.length,
      List: await this.browse.groupModels(
        page.map((p) => p.id),
        viewer,
      ),
    };
  }

  async series(
    id: number,
    viewer: Viewer,
    options: { recursive: boolean; includeMissing: boolean; includeAniDB: boolean; includeTMDB: boolean },
  ): Promise<Series[]> {
    if (!(await this.browse.group(id))) throw notFound(GROUP_NOT_FOUND);
    const ids = await this.browse.groupSeriesIds(id, options.recursive, viewer);
    const models = await this.browse.seriesModels(ids, viewer, { includeAniDB: options.includeAniDB, includeTMDB: options.includeTMDB });
    return options.includeMissing ? models : models.filter((s) => s.Size > 0);
  }

  /** GET Group/{id}/MainSeries: the series the group's name and poster come from. */
  async mainSeries(id: number, viewer: Viewer, options: { includeAniDB: boolean; includeTMDB: boolean }): Promise<Series> {
    const group = await this.get(id, viewer);
    if (!group.IDs.MainSeries) throw textError(500, 'Unable to get main series for group');
    return (await this.browse.seriesModels([group.IDs.MainSeries], viewer, options))[0];
  }

  /** GET Series/{id}/Group: the series' group, or the top-level group above it. */
  async ofSeries(seriesId: number, viewer: Viewer, topLevel: boolean): Promise<Group> {
    const series = await this.store.series(seriesId);
    if (!series) throw textError(404, SERIES_NOT_FOUND);
    if (!(await this.browse.isSeriesAllowed(viewer, series.anime_id))) throw textError(403, SERIES_FORBIDDEN);
    const groupId = topLevel ? await this.browse.topLevelOf(series.group_id) : series.group_id;
    return this.get(groupId, viewer);
  }

  /** GET Group/{id}/Parent (contract §4.15): the direct parent or the top-level group above it. */
  async parent(id: number, viewer: Viewer, topLevel: boolean): Promise<Group> {
    const group = await this.requireGroup(id, viewer);
    if (group.parent_id === null) throw validationError('groupID', 'Unable to get parent Group for a top level Group.');
    return this.get(topLevel ? await this.browse.topLevelOf(id) : group.parent_id, viewer);
  }

  /**
   * GET Group/{id}/Relations (contract §3.7): the stored AniDB relations whose both ends are visible series of the group
   * (or of its whole subtree), ordered by AniDB id, related AniDB id and relation type.
   */
  async relations(id: number, viewer: Viewer, recursive: boolean): Promise<SeriesRelation[]> {
    await this.requireGroup(id, viewer);
    const seriesIds = await this.browse.groupSeriesIds(id, recursive, viewer);
    if (seriesIds.length < 2) return [];
    const series = await this.store.seriesByIds(seriesIds);
    const byAnime = new Map(series.map((s) => [s.anime_id, s.id]));
    const animeIds = [...byAnime.keys()];
    const rows = await this.store.relationsAmong(animeIds);
    return rows
      .map((r) => ({
        IDs: { Shoko: byAnime.get(r.anime_id)!, AniDB: r.anime_id },
        RelatedIDs: { Shoko: byAnime.get(r.related_anime_id)!, AniDB: r.related_anime_id },
        Type: relationType(r.relation_type),
        Source: 'AniDB' as const,
      }))
      .sort(
        (a, b) => a.IDs.AniDB - b.IDs.AniDB || a.RelatedIDs.AniDB - b.RelatedIDs.AniDB || (a.Type < b.Type ? -1 : a.Type > b.Type ? 1 : 0),
      );
  }

  /**
   * Direct sub-groups by name (contract §4.6, §4.8, §7.7): visible ones, without files only when `includeEmpty`; with
   * a filter, only those whose subtree holds a match (a matching group, or the group of a matching series).
   */
  async subGroups(id: number, viewer: Viewer, options: { includeEmpty: boolean; filter?: LiveFilter }): Promise<Group[]> {
    await this.requireGroup(id, viewer);
    const children = await this.store.childGroupIdsByName(id);
    let kept: number[] = [];
    for (const child of children)
      if ((await this.isAllowed(child, viewer)) && (options.includeEmpty || (await this.hasFiles(child)))) kept.push(child);
    if (options.filter && kept.length) {
      const matched = new Set((await this.filters.evaluate(options.filter, viewer)).map((m) => m.group));
      const subtrees = await this.browse.descendants(kept);
      kept = kept.filter((child) => subtrees.get(child)!.some((g) => matched.has(g)));
    }
    return this.browse.groupModels(kept, viewer);
  }

  /** The JSON Patch target: the current group as a CreateOrUpdateGroupBody (HasCustom* start as null). */
  async asBody(id: number, viewer: Viewer): Promise<CreateOrUpdateGroupBody> {
    const group = await this.requireGroup(id, viewer);
    const series = await this.store.directSeriesIds(id);
    const children = await this.store.childGroupIds(id);
    return {
      ParentGroupID: group.parent_id,
      PreferredSeriesID: group.preferred_series_id,
      SeriesIDs: series,
      GroupIDs: children,
      Name: group.name,
      Description: group.description,
      HasCustomName: null,
      HasCustomDescription: null,
    };
  }

  async create(body: CreateOrUpdateGroupBody, viewer: Viewer): Promise<Group> {
    const id = await this.merge(null, body);
    return (await this.browse.groupModels([id], viewer))[0];
  }

  async update(id: number, body: CreateOrUpdateGroupBody, viewer: Viewer): Promise<Group> {
    await this.requireGroup(id, viewer);
    await this.merge(id, body);
    return (await this.browse.groupModels([id], viewer))[0];
  }

  /** Validates then applies a CreateOrUpdateGroupBody (contract §2.1) in one transaction; returns the group id. */
  private async merge(existingId: number | null, body: CreateOrUpdateGroupBody): Promise<number> {
    const errors = new FieldErrorCollector();
    const seriesIds = [...new Set(body.SeriesIDs ?? [])];
    const childIds = [...new Set(body.GroupIDs ?? [])];
    const subtree = existingId === null ? [] : (await this.browse.descendants([existingId])).get(existingId)!;
    const ancestors: number[] = [];
    if (existingId !== null) {
      for (let g = await this.browse.group(existingId); g?.parent_id && ancestors.length < 100; g = await this.browse.group(g.parent_id))
        ancestors.push(g.parent_id);
    }

    const parentId: number | null | undefined =
      existingId === null
        ? body.ParentGroupID || null
        : body.ParentGroupID === null || body.ParentGroupID === undefined
          ? undefined
          : body.ParentGroupID || null;
    if (parentId) {
      if (!(await this.browse.group(parentId))) errors.add('ParentGroupID', `No group with ID ${parentId}.`);
      else if (subtree.includes(parentId)) errors.add('ParentGroupID', 'The parent group would create a cycle.');
    }
    if (childIds.length) {
      const found = await this.store.existingGroupIds(childIds);
      const missing = childIds.filter((c) => !found.some((f) => f === c));
      if (missing.length) errors.add('GroupIDs', `Unknown group IDs: ${missing.join(', ')}.`);
      if (existingId !== null && childIds.some((c) => c === existingId || ancestors.includes(c)))
        errors.add('GroupIDs', 'A group cannot contain itself or its parents.');
      if (parentId && childIds.includes(parentId)) errors.add('GroupIDs', 'A group cannot contain its parent.');
    }
    const movedSeries = seriesIds.length ? await this.store.seriesByIds(seriesIds) : [];
    const missingSeries = seriesIds.filter((s) => !movedSeries.some((m) => m.id === s));
    if (missingSeries.length) errors.add('SeriesIDs', `Unknown series IDs: ${missingSeries.join(', ')}.`);

    const currentSeries = existingId === null ? [] : await this.store.directSeriesIds(existingId);
    const currentChildren = existingId === null ? [] : await this.store.childGroupIds(existingId);
    const finalDirect = new Set([...currentSeries, ...seriesIds]);
    const finalChildren = new Set([...currentChildren, ...childIds]);
    if (finalDirect.size === 0 && finalChildren.size === 0) {
      errors.add('SeriesIDs', 'The group would be empty.');
      errors.add('GroupIDs', 'The group would be empty.');
    }
    const preferred: number | null | undefined =
      body.PreferredSeriesID === undefined || body.PreferredSeriesID === null ? undefined : body.PreferredSeriesID || null;
    if (preferred) {
      const inSubGroups = subtree.length > 1 ? await this.store.seriesIdsInGroups(subtree) : [];
      const childSeries = childIds.length ? await this.store.seriesIdsInGroups(childIds) : [];
      const all = new Set([...finalDirect, ...inSubGroups, ...childSeries]);
      if (!all.has(preferred)) errors.add('PreferredSeriesID', 'The preferred series must be one of the group’s series.');
    }
    errors.throwIfAny();

    // Name and description: explicit values lock them; HasCustom*: false resets them to the main series'.
    const id = await this.store.writeMerge({ existingId, parentId, seriesIds, movedSeries, childIds, preferred }, (current, main) => {
      const mainSeries =
        main.find((m) => m.id === current.preferred_series_id) ?? main.find((m) => m.anime_id === current.main_anime_id) ?? main[0];
      const mainName = mainSeries ? (mainSeries.title_override ?? mainSeries.main_title ?? '') : current.name;
      const changes: GroupNameChanges = {};
      const name = body.Name?.trim();
      if (body.HasCustomName === false) Object.assign(changes, { name: mainName, has_custom_name: 0 });
      else if (name && name !== current.name) Object.assign(changes, { name, has_custom_name: 1 });
      else if (body.HasCustomName === true) changes.has_custom_name = 1;
      else if (!current.has_custom_name && mainName !== current.name) changes.name = mainName;
      const description = body.Description?.trim();
      if (body.HasCustomDescription === false)
        Object.assign(changes, { description: mainSeries?.description ?? '', has_custom_description: 0 });
      else if (description && description !== current.description) Object.assign(changes, { description, has_custom_description: 1 });
      else if (body.HasCustomDescription === true) changes.has_custom_description = 1;
      else if (!current.has_custom_description && mainSeries && (mainSeries.description ?? '') !== current.description)
        changes.description = mainSeries.description ?? '';
      return changes;
    });
    if (seriesIds.length)
      this.emitSeriesUpdated(
        seriesIds,
        movedSeries.map((s) => s.anime_id),
      );
    return id;
  }

  private emitSeriesUpdated(seriesIds: number[], animeIds: number[]) {
    seriesIds.forEach((id, i) => {
      this.bus.emit('shoko', {
        event: 'SeriesUpdated',
        payload: { Source: 'User', Reason: 'Updated', SeriesID: animeIds[i] ?? 0, ShokoSeriesIDs: [id], Episodes: [] },
      });
    });
  }

  /** POST WebUI/GroupView (contract §12): list-view extras (type, rating, air dates, top tags) of the visible groups. */
  async groupView(body: WebUIGroupViewBody, viewer: Viewer): Promise<WebUIGroupExtra[]> {
    const ids: number[] = [];
    for (const id of new Set(body.GroupIDs)) if (await this.isAllowed(id, viewer)) ids.push(id);
    const models = await this.browse.groupModels(ids, viewer);
    const allowed = models.filter((g) => g.IDs.MainAnime);
    const animeIds = allowed.map((g) => g.IDs.MainAnime);
    const anime = animeIds.length ? await this.store.animeSummaries(animeIds) : [];
    const byAnime = new Map(anime.map((a) => [a.id, a]));
    const limit = body.TagLimit ?? 0;
    const tags = animeIds.length && limit ? await this.store.animeTags(animeIds) : [];
    // TagFilter drops (or, inverted, keeps only) AniDB tag categories; custom tags follow its User and Invert bits.
    const tagFilter = body.TagFilter ?? 0;
    const ancestry =
      tagFilter % TagFilterBits.User !== 0 || tagFilter >= TagFilterBits.Invert
        ? await this.tagAncestry([...new Set(tags.map((t) => t.id))])
        : null;
    const keepTag = (t: { id: number; name: string }) => !ancestry || keepCategory(tagFilter, tagCategory(ancestry.get(t.id) ?? [t.name]));
    const userTagsWanted = limit > 0 && keepUserTags(tagFilter);
    const mainSeries = allowed.map((g) => g.IDs.MainSeries);
    const customTags = userTagsWanted && mainSeries.length ? await this.store.seriesCustomTags(mainSeries) : [];
    const restricted = new Set(viewer.restrictedTags);
    const result: WebUIGroupExtra[] = [];
    for (const group of allowed) {
      const a = byAnime.get(group.IDs.MainAnime);
      if (!a) continue;
      result.push({
        ID: group.IDs.ID,
        Type: animeType(a.type),
        Rating: { Value: a.rating, MaxValue: 1000, Source: 'AniDB', Votes: a.rating_votes, Type: null },
        AirDate: a.air_date,
        EndDate: a.end_date,
        Tags: tags
          .filter((t) => t.anime_id === a.id && !restricted.has(t.id) && keepTag(t))
          .slice(0, limit)
          .map((t) => ({ ID: t.id, ParentID: t.parent_id, Name: t.name, IsSpoiler: !!t.is_spoiler, Weight: t.weight, Source: 'AniDB' }))
          .concat(
            customTags
              .filter((t) => t.series_id === group.IDs.MainSeries)
              .map((t) => ({ ID: t.id, ParentID: null, Name: t.name, IsSpoiler: false, Weight: 0, Source: 'User' })),
          )
          .slice(0, limit),
      });
    }
    if (body.OrderByName)
      result.sort((x, y) => (models.find((m) => m.IDs.ID === x.ID)!.SortName < models.find((m) => m.IDs.ID === y.ID)!.SortName ? -1 : 1));
    return result;
  }

  /** PATCH Series/{id}/Move/{groupID}: the series joins an existing group. */
  async moveSeries(seriesId: number, groupId: number): Promise<void> {
    const series = await this.store.series(seriesId);
    if (!series) throw notFound(SERIES_NOT_FOUND);
    if (!(await this.browse.group(groupId))) throw badRequest(GROUP_NOT_FOUND);
    if (series.group_id === groupId) return;
    await this.merge(groupId, { SeriesIDs: [seriesId] });
  }

  async delete(id: number, options: { deleteSeries: boolean }): Promise<void> {
    if (!(await this.browse.group(id))) throw notFound(GROUP_NOT_FOUND);
    const tree = (await this.browse.descendants([id])).get(id)!;
    const series = await this.store.seriesIdsInGroups(tree);
    if (series.length && !options.deleteSeries) throw badRequest('The group has series; set deleteSeries to remove them too.');
    // Children first, so no row ever points at a deleted parent.
    await this.store.deleteGroups([...tree].reverse(), series);
  }

  /** Recalculation: names/descriptions that aren't custom follow the main series again; stats are computed on read. */
  async recalculate(id: number): Promise<void> {
    if (!(await this.browse.group(id))) throw notFound(GROUP_NOT_FOUND);
    if (await this.store.hasContent(id)) await this.merge(id, {});
  }
}
