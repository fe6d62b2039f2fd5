import type { CreateOrUpdateGroupBody, Group, ListResult, Series } from '@shoko-ts/contract';
import type { EventBus } from '../../events/bus.js';
import { badRequest, FieldErrorCollector, notFound, textError, validationError } from '../../http/problem.js';
import { relationType, type SeriesRelation } from '../series/details.store.js';
import { sortName, type BrowseStore, type Viewer } from './browse.store.js';
import type { FiltersService, LiveFilter } from './filters.service.js';

export const GROUP_NOT_FOUND = 'No Group entry for the given groupID';
export const GROUP_FORBIDDEN = 'Accessing Group is not allowed for the current user';
export const SERIES_NOT_FOUND = 'No Series entry for the given seriesID';
export const SERIES_FORBIDDEN = 'Accessing Series is not allowed for the current user';

/** Groups: reading with per-user visibility, and the create/update merge of contract §2.1. */
export class GroupsService {
  constructor(
    private readonly browse: BrowseStore,
    private readonly filters: FiltersService,
    private readonly bus: EventBus,
  ) {}

  private get db() {
    return this.browse.kysely;
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
    const hit = await this.db
      .selectFrom('episodes as e')
      .innerJoin('file_episode_links as l', 'l.episode_id', 'e.anidb_episode_id')
      .innerJoin('files as f', (join) => join.onRef('f.ed2k', '=', 'l.ed2k').onRef('f.size', '=', 'l.size'))
      .select('e.id')
      .where('e.series_id', 'in', ids)
      .limit(1)
      .executeTakeFirst();
    return !!hit;
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
    const matches = await this.filters.evaluate(
      { applyAtSeriesLevel: false, isDirectory: false, expression: null, sorting: null },
      viewer,
      { onlyWithFiles: !options.includeEmpty },
    );
    const ids = matches.map((m) => m.id);
    const rows = ids.length ? await this.db.selectFrom('groups').select(['id', 'name', 'parent_id']).where('id', 'in', ids).execute() : [];
    const prefix = (options.startsWith ?? '').toLowerCase();
    return rows
      .filter((g) => !options.topLevelOnly || g.parent_id === null)
      .filter((g) => !prefix || g.name.toLowerCase().startsWith(prefix))
      .map((g) => ({ id: g.id, key: sortName(g.name) }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id - b.id));
  }

  /** GET /Group: one page of groups ordered by SortName. */
  async list(
    viewer: Viewer,
    options: { page: number; pageSize: number; includeEmpty: boolean; topLevelOnly: boolean; startsWith: string },
  ): Promise<ListResult<Group>> {
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
    const series = await this.db.selectFrom('series').select(['id', 'anime_id']).where('id', 'in', seriesIds).execute();
    const byAnime = new Map(series.map((s) => [s.anime_id, s.id]));
    const animeIds = [...byAnime.keys()];
    const rows = await this.db
      .selectFrom('anidb_relations')
      .select(['anime_id', 'related_anime_id', 'relation_type'])
      .where('anime_id', 'in', animeIds)
      .where('related_anime_id', 'in', animeIds)
      .where((eb) => eb('anime_id', '<>', eb.ref('related_anime_id')))
      .execute();
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
    const children = await this.db.selectFrom('groups').select('id').where('parent_id', '=', id).orderBy('name').orderBy('id').execute();
    let kept: number[] = [];
    for (const child of children)
      if ((await this.isAllowed(child.id, viewer)) && (options.includeEmpty || (await this.hasFiles(child.id)))) kept.push(child.id);
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
    const series = await this.db.selectFrom('series').select('id').where('group_id', '=', id).execute();
    const children = await this.db.selectFrom('groups').select('id').where('parent_id', '=', id).execute();
    return {
      ParentGroupID: group.parent_id,
      PreferredSeriesID: group.preferred_series_id,
      SeriesIDs: series.map((s) => s.id),
      GroupIDs: children.map((g) => g.id),
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

    let parentId: number | null | undefined =
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
      const found = await this.db.selectFrom('groups').select('id').where('id', 'in', childIds).execute();
      const missing = childIds.filter((c) => !found.some((f) => f.id === c));
      if (missing.length) errors.add('GroupIDs', `Unknown group IDs: ${missing.join(', ')}.`);
      if (existingId !== null && childIds.some((c) => c === existingId || ancestors.includes(c)))
        errors.add('GroupIDs', 'A group cannot contain itself or its parents.');
      if (parentId && childIds.includes(parentId)) errors.add('GroupIDs', 'A group cannot contain its parent.');
    }
    const movedSeries = seriesIds.length
      ? await this.db.selectFrom('series').select(['id', 'group_id', 'anime_id']).where('id', 'in', seriesIds).execute()
      : [];
    const missingSeries = seriesIds.filter((s) => !movedSeries.some((m) => m.id === s));
    if (missingSeries.length) errors.add('SeriesIDs', `Unknown series IDs: ${missingSeries.join(', ')}.`);

    const currentSeries =
      existingId === null ? [] : await this.db.selectFrom('series').select('id').where('group_id', '=', existingId).execute();
    const currentChildren =
      existingId === null ? [] : await this.db.selectFrom('groups').select('id').where('parent_id', '=', existingId).execute();
    const finalDirect = new Set([...currentSeries.map((s) => s.id), ...seriesIds]);
    const finalChildren = new Set([...currentChildren.map((g) => g.id), ...childIds]);
    if (finalDirect.size === 0 && finalChildren.size === 0) {
      errors.add('SeriesIDs', 'The group would be empty.');
      errors.add('GroupIDs', 'The group would be empty.');
    }
    let preferred: number | null | undefined =
      body.PreferredSeriesID === undefined || body.PreferredSeriesID === null ? undefined : body.PreferredSeriesID || null;
    if (preferred) {
      const inSubGroups =
        subtree.length > 1 ? await this.db.selectFrom('series').select('id').where('group_id', 'in', subtree).execute() : [];
      const childSeries = childIds.length
        ? await this.db.selectFrom('series').select('id').where('group_id', 'in', childIds).execute()
        : [];
      const all = new Set([...finalDirect, ...inSubGroups.map((s) => s.id), ...childSeries.map((s) => s.id)]);
      if (!all.has(preferred)) errors.add('PreferredSeriesID', 'The preferred series must be one of the group’s series.');
    }
    errors.throwIfAny();

    const stamp = new Date().toISOString();
    const id = await this.db.transaction().execute(async (trx) => {
      const existing =
        existingId === null ? null : await trx.selectFrom('groups').selectAll().where('id', '=', existingId).executeTakeFirstOrThrow();
      const groupId =
        existing?.id ??
        (
          await trx
            .insertInto('groups')
            .values({
              parent_id: parentId ?? null,
              name: '',
              description: '',
              has_custom_name: 0,
              has_custom_description: 0,
              preferred_series_id: null,
              created_at: stamp,
              updated_at: stamp,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      if (existing && parentId !== undefined)
        await trx.updateTable('groups').set({ parent_id: parentId }).where('id', '=', groupId).execute();
      const emptied = new Set<number>();
      if (seriesIds.length) {
        for (const s of movedSeries) if (s.group_id !== groupId) emptied.add(s.group_id);
        await trx.updateTable('series').set({ group_id: groupId, updated_at: stamp }).where('id', 'in', seriesIds).execute();
      }
      if (childIds.length)
        await trx.updateTable('groups').set({ parent_id: groupId, updated_at: stamp }).where('id', 'in', childIds).execute();
      if (preferred !== undefined)
        await trx.updateTable('groups').set({ preferred_series_id: preferred }).where('id', '=', groupId).execute();

      // Name and description: explicit values lock them; HasCustom*: false resets them to the main series'.
      const main = await trx
        .selectFrom('series as s')
        .leftJoin('anidb_anime as a', 'a.id', 's.anime_id')
        .select(['s.id', 's.title_override', 'a.main_title', 'a.description', 'a.air_date'])
        .where('s.group_id', '=', groupId)
        .orderBy('a.air_date')
        .orderBy('s.id')
        .execute();
      const current = await trx.selectFrom('groups').selectAll().where('id', '=', groupId).executeTakeFirstOrThrow();
      const mainSeries = main.find((m) => m.id === current.preferred_series_id) ?? main[0];
      const mainName = mainSeries ? (mainSeries.title_override ?? mainSeries.main_title ?? '') : current.name;
      const changes: { name?: string; has_custom_name?: number; description?: string; has_custom_description?: number } = {};
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
      await trx
        .updateTable('groups')
        .set({ ...changes, updated_at: stamp })
        .where('id', '=', groupId)
        .execute();

      // Groups left without series or sub-groups by the move disappear, as they would after a recalculation.
      for (const old of emptied) {
        const left = await trx.selectFrom('series').select('id').where('group_id', '=', old).limit(1).executeTakeFirst();
        const kids = await trx.selectFrom('groups').select('id').where('parent_id', '=', old).limit(1).executeTakeFirst();
        if (!left && !kids) await trx.deleteFrom('groups').where('id', '=', old).execute();
        else
          await trx
            .updateTable('groups')
            .set({ preferred_series_id: null })
            .where('id', '=', old)
            .where('preferred_series_id', 'in', seriesIds)
            .execute();
      }
      return groupId;
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

  /** PATCH Series/{id}/Move/{groupID}: the series joins an existing group. */
  async moveSeries(seriesId: number, groupId: number): Promise<void> {
    const series = await this.db.selectFrom('series').select(['id', 'group_id']).where('id', '=', seriesId).executeTakeFirst();
    if (!series) throw notFound(SERIES_NOT_FOUND);
    if (!(await this.browse.group(groupId))) throw badRequest(GROUP_NOT_FOUND);
    if (series.group_id === groupId) return;
    await this.merge(groupId, { SeriesIDs: [seriesId] });
  }

  async delete(id: number, options: { deleteSeries: boolean }): Promise<void> {
    if (!(await this.browse.group(id))) throw notFound(GROUP_NOT_FOUND);
    const tree = (await this.browse.descendants([id])).get(id)!;
    const series = await this.db.selectFrom('series').select('id').where('group_id', 'in', tree).execute();
    if (series.length && !options.deleteSeries) throw badRequest('The group has series; set deleteSeries to remove them too.');
    await this.db.transaction().execute(async (trx) => {
      if (series.length)
        await trx
          .deleteFrom('series')
          .where(
            'id',
            'in',
            series.map((s) => s.id),
          )
          .execute();
      // Children first, so no row ever points at a deleted parent.
      for (const groupId of [...tree].reverse()) await trx.deleteFrom('groups').where('id', '=', groupId).execute();
    });
  }

  /** Recalculation: names/descriptions that aren't custom follow the main series again; stats are computed on read. */
  async recalculate(id: number): Promise<void> {
    if (!(await this.browse.group(id))) throw notFound(GROUP_NOT_FOUND);
    const hasContent =
      (await this.db.selectFrom('series').select('id').where('group_id', '=', id).limit(1).executeTakeFirst()) ||
      (await this.db.selectFrom('groups').select('id').where('parent_id', '=', id).limit(1).executeTakeFirst());
    if (hasContent) await this.merge(id, {});
  }
}
