import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import {
  CreateOrUpdateFilterBody,
  CreateOrUpdateGroupBody,
  JsonPatchOperation,
  WebUIGroupViewBody,
  type WebUIGroupExtra,
} from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { readCacheKey, type ReadCache } from '../../http/read-cache.js';
import { textError, validationError } from '../../http/problem.js';
import { animeType, sortName, type BrowseStore, type Viewer } from './browse.store.js';
import type { FiltersService } from './filters.service.js';
import { SERIES_FORBIDDEN, SERIES_NOT_FOUND, type GroupsService } from './groups.service.js';
import { keepCategory, keepUserTags, tagCategory, TagFilterBits, TagsStore } from '../series/tags.store.js';

const ListParam = Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())]));
const PageSize = (fallback: number) => Type.Integer({ minimum: 0, maximum: 100, default: fallback });
const Page = Type.Integer({ minimum: 1, default: 1 });
const GroupParams = Type.Object({ groupID: Type.Integer({ minimum: 1 }) });
const FilterParams = Type.Object({ filterID: Type.Integer({ minimum: 1 }) });
const PatchBody = Type.Union([Type.Array(JsonPatchOperation), Type.Null()]);

const listOf = (raw: string | string[] | undefined) =>
  (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw])
    .flatMap((item) => item.split(','))
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);
const dataFrom = (raw: string | string[] | undefined) => {
  const list = listOf(raw);
  return { includeAniDB: list.includes('anidb'), includeTMDB: list.includes('tmdb') };
};

/** `{ "#": 3, "A": 12 }`: how many sort names start with each character, keys sorted. */
function letters(sortNames: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const name of sortNames.sort()) counts[name.charAt(0)] = (counts[name.charAt(0)] ?? 0) + 1;
  return counts;
}

/** Applies RFC 6902 replace/add operations to a flat model, matching property names case-insensitively. */
function applyPatch<T extends object>(model: T, operations: unknown, entity: string): T {
  if (!Array.isArray(operations)) throw validationError('Body', 'Invalid JSON Patch document.');
  const target = model as Record<string, unknown>;
  for (const operation of operations as Array<{ op: string; path: string; value?: unknown }>) {
    const field = operation.path.replace(/^\//, '');
    const key = Object.keys(target).find((k) => k.toLowerCase() === field.toLowerCase());
    if (!key || !['replace', 'add', 'remove'].includes(operation.op))
      throw validationError(entity, `The operation ${operation.op} ${operation.path} is not supported on a ${entity.toLowerCase()}.`);
    let value = operation.op === 'remove' ? null : operation.value;
    // JSON Patch values arrive as strings from the console ("true", "12"); convert to the field's kind.
    if (typeof value === 'string' && /^Has/.test(key))
      value = value.toLowerCase() === 'true' ? true : value.toLowerCase() === 'false' ? false : value;
    if (typeof value === 'string' && /ID$/.test(key) && /^\d+$/.test(value)) value = Number(value);
    target[key] = value;
  }
  return model;
}

export function registerCollectionRoutes(
  app: App,
  deps: { browse: BrowseStore; filters: FiltersService; groups: GroupsService; cache: ReadCache },
) {
  const { browse, filters, groups, cache } = deps;
  const viewerOf = (request: FastifyRequest): Promise<Viewer> =>
    browse.viewer(request.principal?.kind === 'user' ? request.principal.userId : null);
  const hiddenTagNames = async (viewer: Viewer) =>
    viewer.restrictedTags.length
      ? (await browse.kysely.selectFrom('anidb_tags').select('name').where('id', 'in', viewer.restrictedTags).execute()).map((t) =>
          t.name.toLowerCase(),
        )
      : [];

  /** Top-level groups of a filter's matches counted by the first character of their sort names. */
  const groupLetters = async (live: Awaited<ReturnType<FiltersService['savedOrNone']>>, viewer: Viewer, includeEmpty: boolean) => {
    const ids = await filters.matchingTopGroups(live, viewer, { includeEmpty });
    const rows = ids.length ? await browse.kysely.selectFrom('groups').select('name').where('id', 'in', ids).execute() : [];
    return letters(rows.map((g) => sortName(g.name)));
  };

  // ---------------------------------------------------------------- groups (contract §3)
  app.get(
    '/api/v3/Group',
    {
      schema: {
        tags: ['Group'],
        querystring: Type.Object({
          pageSize: PageSize(50),
          page: Page,
          includeEmpty: Type.Boolean({ default: false }),
          randomImages: Type.Boolean({ default: false }),
          topLevelOnly: Type.Boolean({ default: true }),
          startsWith: Type.String({ default: '' }),
        }),
      },
    },
    async (request) => groups.list(await viewerOf(request), request.query),
  );

  app.post('/api/v3/Group', { schema: { tags: ['Group'], body: CreateOrUpdateGroupBody } }, async (request, reply) => {
    const group = await groups.create(request.body, await viewerOf(request));
    return reply.code(201).header('location', `/api/v3/Group/${group.IDs.ID}`).send(group);
  });

  app.get('/api/v3/Group/:groupID', { schema: { tags: ['Group'], params: GroupParams } }, async (request) =>
    groups.get(request.params.groupID, await viewerOf(request)),
  );

  app.put('/api/v3/Group/:groupID', { schema: { tags: ['Group'], params: GroupParams, body: CreateOrUpdateGroupBody } }, async (request) =>
    groups.update(request.params.groupID, request.body, await viewerOf(request)),
  );

  app.patch('/api/v3/Group/:groupID', { schema: { tags: ['Group'], params: GroupParams, body: PatchBody } }, async (request) => {
    const viewer = await viewerOf(request);
    const body = applyPatch(await groups.asBody(request.params.groupID, viewer), request.body, 'Group');
    return groups.update(request.params.groupID, body, viewer);
  });

  app.delete(
    '/api/v3/Group/:groupID',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['Group'],
        params: GroupParams,
        querystring: Type.Object({ deleteSeries: Type.Boolean({ default: false }), deleteFiles: Type.Boolean({ default: false }) }),
      },
    },
    async (request, reply) => {
      await groups.delete(request.params.groupID, { deleteSeries: request.query.deleteSeries });
      return reply.code(204).send();
    },
  );

  app.post('/api/v3/Group/:groupID/Recalculate', { schema: { tags: ['Group'], params: GroupParams } }, async (request, reply) => {
    await groups.recalculate(request.params.groupID);
    return reply.send();
  });

  app.get(
    '/api/v3/Group/:groupID/Series',
    {
      schema: {
        tags: ['Group'],
        params: GroupParams,
        querystring: Type.Object({
          recursive: Type.Boolean({ default: false }),
          includeMissing: Type.Boolean({ default: true }),
          randomImages: Type.Boolean({ default: false }),
          includeDataFrom: ListParam,
        }),
      },
    },
    async (request) =>
      groups.series(request.params.groupID, await viewerOf(request), {
        recursive: request.query.recursive,
        includeMissing: request.query.includeMissing,
        ...dataFrom(request.query.includeDataFrom),
      }),
  );

  app.get(
    '/api/v3/Group/Letters',
    {
      schema: {
        tags: ['Group'],
        querystring: Type.Object({ includeEmpty: Type.Boolean({ default: false }), topLevelOnly: Type.Boolean({ default: true }) }),
      },
    },
    async (request) => {
      return letters((await groups.sortedGroups(await viewerOf(request), request.query)).map((g) => g.key));
    },
  );

  app.get(
    '/api/v3/Group/:groupID/Group',
    {
      schema: {
        tags: ['Group'],
        params: GroupParams,
        querystring: Type.Object({ randomImages: Type.Boolean({ default: false }), includeEmpty: Type.Boolean({ default: true }) }),
      },
    },
    async (request) => groups.subGroups(request.params.groupID, await viewerOf(request), { includeEmpty: request.query.includeEmpty }),
  );

  app.get(
    '/api/v3/Group/:groupID/Parent',
    { schema: { tags: ['Group'], params: GroupParams, querystring: Type.Object({ topLevel: Type.Boolean({ default: false }) }) } },
    async (request) => groups.parent(request.params.groupID, await viewerOf(request), request.query.topLevel),
  );

  app.get(
    '/api/v3/Group/:groupID/Relations',
    { schema: { tags: ['Group'], params: GroupParams, querystring: Type.Object({ recursive: Type.Boolean({ default: false }) }) } },
    async (request) => groups.relations(request.params.groupID, await viewerOf(request), request.query.recursive),
  );

  app.get(
    '/api/v3/Group/:groupID/MainSeries',
    {
      schema: {
        tags: ['Group'],
        params: GroupParams,
        querystring: Type.Object({ randomImages: Type.Boolean({ default: false }), includeDataFrom: ListParam }),
      },
    },
    async (request) => {
      const viewer = await viewerOf(request);
      const group = await groups.get(request.params.groupID, viewer);
      if (!group.IDs.MainSeries) throw textError(500, 'Unable to get main series for group');
      return (await browse.seriesModels([group.IDs.MainSeries], viewer, dataFrom(request.query.includeDataFrom)))[0];
    },
  );

  app.get(
    '/api/v3/Series/:seriesID/Group',
    {
      schema: {
        tags: ['Series'],
        params: Type.Object({ seriesID: Type.Integer({ minimum: 1 }) }),
        querystring: Type.Object({ topLevel: Type.Boolean({ default: false }) }),
      },
    },
    async (request) => {
      const viewer = await viewerOf(request);
      const series = await browse.kysely
        .selectFrom('series')
        .select(['group_id', 'anime_id'])
        .where('id', '=', request.params.seriesID)
        .executeTakeFirst();
      if (!series) throw textError(404, SERIES_NOT_FOUND);
      if (!(await browse.isSeriesAllowed(viewer, series.anime_id))) throw textError(403, SERIES_FORBIDDEN);
      const groupId = request.query.topLevel ? await browse.topLevelOf(series.group_id) : series.group_id;
      return groups.get(groupId, viewer);
    },
  );

  app.patch(
    '/api/v3/Series/:seriesID/Move/:groupID',
    {
      config: { auth: 'admin' },
      schema: { tags: ['Series'], params: Type.Object({ seriesID: Type.Integer({ minimum: 1 }), groupID: Type.Integer({ minimum: 1 }) }) },
    },
    async (request, reply) => {
      await groups.moveSeries(request.params.seriesID, request.params.groupID);
      return reply.send();
    },
  );

  // ---------------------------------------------------------------- filters (contract §7)
  const filterListQuery = Type.Object({
    includeEmpty: Type.Boolean({ default: false }),
    includeEmptyGroups: Type.Boolean({ default: true }),
    showHidden: Type.Boolean({ default: false }),
    pageSize: PageSize(10),
    page: Page,
    withConditions: Type.Boolean({ default: false }),
  });
  app.get('/api/v3/Filter', { schema: { tags: ['Filter'], querystring: filterListQuery } }, async (request) =>
    filters.list(null, await viewerOf(request), request.query),
  );

  app.post('/api/v3/Filter', { config: { auth: 'admin' }, schema: { tags: ['Filter'], body: CreateOrUpdateFilterBody } }, async (request) =>
    filters.save(null, request.body, await viewerOf(request)),
  );

  app.get(
    '/api/v3/Filter/Expressions',
    { schema: { tags: ['Filter'], querystring: Type.Object({ types: ListParam, groups: ListParam }) } },
    async (request) => {
      const types = listOf(request.query.types);
      const wanted = listOf(request.query.groups);
      return (await filters.expressions()).filter(
        (e) => (!types.length || types.includes(e.Type.toLowerCase())) && (!wanted.length || wanted.includes(e.Group.toLowerCase())),
      );
    },
  );

  app.get('/api/v3/Filter/SortingCriteria', { schema: { tags: ['Filter'] } }, () => filters.sortingCriteria());

  app.get(
    '/api/v3/Filter/:filterID',
    {
      schema: {
        tags: ['Filter'],
        params: FilterParams,
        querystring: Type.Object({ withConditions: Type.Boolean({ default: false }), includeEmptyGroups: Type.Boolean({ default: true }) }),
      },
    },
    async (request) => filters.get(request.params.filterID, await viewerOf(request), request.query),
  );

  app.put(
    '/api/v3/Filter/:filterID',
    { config: { auth: 'admin' }, schema: { tags: ['Filter'], params: FilterParams, body: CreateOrUpdateFilterBody } },
    async (request) => filters.save(request.params.filterID, request.body, await viewerOf(request)),
  );

  app.patch(
    '/api/v3/Filter/:filterID',
    { config: { auth: 'admin' }, schema: { tags: ['Filter'], params: FilterParams, body: PatchBody } },
    async (request) => {
      const body = applyPatch(await filters.asBody(request.params.filterID), request.body, 'Filter');
      return filters.save(request.params.filterID, body, await viewerOf(request));
    },
  );

  app.delete(
    '/api/v3/Filter/:filterID',
    { config: { auth: 'admin' }, schema: { tags: ['Filter'], params: FilterParams } },
    async (request, reply) => {
      await filters.delete(request.params.filterID);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/v3/Filter/:filterID/Filter',
    {
      schema: {
        tags: ['Filter'],
        params: FilterParams,
        querystring: Type.Object({ pageSize: PageSize(50), page: Page, showHidden: Type.Boolean({ default: false }) }),
      },
    },
    async (request) => {
      const viewer = await viewerOf(request);
      const parent = await filters.row(request.params.filterID);
      if (!parent.is_directory) return { Total: 0, List: [] };
      return filters.list(parent.id, viewer, {
        ...request.query,
        includeEmpty: true,
        includeEmptyGroups: true,
        withConditions: false,
        hiddenNames: await hiddenTagNames(viewer),
      });
    },
  );

  app.get(
    '/api/v3/Filter/:filterID/Group',
    {
      schema: {
        tags: ['Filter'],
        params: Type.Object({ filterID: Type.Integer({ minimum: 0 }) }),
        querystring: Type.Object({
          pageSize: PageSize(50),
          page: Page,
          includeEmpty: Type.Boolean({ default: true }),
          randomImages: Type.Boolean({ default: false }),
          orderByName: Type.Boolean({ default: false }),
        }),
      },
    },
    async (request) => {
      const viewer = await viewerOf(request);
      const live = await filters.savedOrNone(request.params.filterID);
      return filters.previewGroups(live, viewer, request.query, {
        includeEmpty: request.query.includeEmpty,
        orderByName: request.query.orderByName || request.params.filterID === 0,
      });
    },
  );

  // Saved-filter browsing (contract §4.3–§4.7, §4.14); filter id 0 means no filter.
  const AnyFilterParams = Type.Object({ filterID: Type.Integer({ minimum: 0 }) });
  app.get(
    '/api/v3/Filter/:filterID/Group/Letters',
    { schema: { tags: ['Filter'], params: AnyFilterParams, querystring: Type.Object({ includeEmpty: Type.Boolean({ default: true }) }) } },
    async (request) =>
      groupLetters(await filters.savedOrNone(request.params.filterID), await viewerOf(request), request.query.includeEmpty),
  );

  app.get(
    '/api/v3/Filter/:filterID/Series',
    {
      schema: {
        tags: ['Filter'],
        params: AnyFilterParams,
        querystring: Type.Object({
          pageSize: PageSize(50),
          page: Page,
          randomImages: Type.Boolean({ default: false }),
          includeMissing: Type.Boolean({ default: true }),
        }),
      },
    },
    async (request) =>
      filters.previewSeries(
        await filters.savedOrNone(request.params.filterID, true),
        await viewerOf(request),
        request.query,
        request.query,
      ),
  );

  app.get('/api/v3/Filter/:filterID/Series/OnlyIDs', { schema: { tags: ['Filter'], params: AnyFilterParams } }, async (request) =>
    filters.previewSeriesIds(await filters.savedOrNone(request.params.filterID, true), await viewerOf(request), {
      includeMissing: true,
      keepOrder: true,
    }),
  );

  const SubGroupQuery = Type.Object({ randomImages: Type.Boolean({ default: false }), includeEmpty: Type.Boolean({ default: true }) });
  app.get(
    '/api/v3/Filter/:filterID/Group/:groupID/Group',
    { schema: { tags: ['Filter'], params: Type.Composite([AnyFilterParams, GroupParams]), querystring: SubGroupQuery } },
    async (request) => {
      const filter = request.params.filterID === 0 ? undefined : await filters.savedOrNone(request.params.filterID);
      return groups.subGroups(request.params.groupID, await viewerOf(request), { includeEmpty: request.query.includeEmpty, filter });
    },
  );

  app.get(
    '/api/v3/Filter/:filterID/Group/:groupID/Series',
    {
      schema: {
        tags: ['Filter'],
        params: Type.Composite([AnyFilterParams, GroupParams]),
        querystring: Type.Object({
          recursive: Type.Boolean({ default: false }),
          includeMissing: Type.Boolean({ default: true }),
          randomImages: Type.Boolean({ default: false }),
          includeDataFrom: ListParam,
        }),
      },
    },
    async (request) => {
      const viewer = await viewerOf(request);
      const options = {
        recursive: request.query.recursive,
        includeMissing: request.query.includeMissing,
        ...dataFrom(request.query.includeDataFrom),
      };
      if (request.params.filterID === 0) return groups.series(request.params.groupID, viewer, options);
      const live = await filters.savedOrNone(request.params.filterID);
      await groups.requireGroup(request.params.groupID, viewer);
      // The reference server drops includeDataFrom for group-level filters (contract §4.7).
      return filters.previewGroupSeries(
        request.params.groupID,
        live,
        viewer,
        live.applyAtSeriesLevel ? options : { ...options, includeAniDB: false, includeTMDB: false },
      );
    },
  );

  app.get(
    '/api/v3/Filter/:filterID/Parent',
    {
      schema: {
        tags: ['Filter'],
        params: FilterParams,
        querystring: Type.Object({
          topLevel: Type.Boolean({ default: false }),
          withConditions: Type.Boolean({ default: false }),
          includeEmptyGroups: Type.Boolean({ default: false }),
        }),
      },
    },
    async (request) => filters.parent(request.params.filterID, await viewerOf(request), request.query),
  );

  // Preview ("live filter") endpoints: the body is an unsaved filter.
  const PreviewBody = Type.Union([CreateOrUpdateFilterBody, Type.Null()]);
  app.post(
    '/api/v3/Filter/Preview/Group',
    {
      schema: {
        tags: ['Filter'],
        body: PreviewBody,
        querystring: Type.Object({
          pageSize: PageSize(50),
          page: Page,
          includeEmpty: Type.Boolean({ default: true }),
          randomImages: Type.Boolean({ default: false }),
          orderByName: Type.Boolean({ default: false }),
        }),
      },
    },
    async (request) => {
      const viewer = await viewerOf(request);
      return cache.get(readCacheKey(request), () =>
        filters.previewGroups(filters.parseLive(request.body), viewer, request.query, request.query),
      );
    },
  );

  app.post(
    '/api/v3/Filter/Preview/Series',
    {
      schema: {
        tags: ['Filter'],
        body: PreviewBody,
        querystring: Type.Object({
          pageSize: PageSize(50),
          page: Page,
          randomImages: Type.Boolean({ default: false }),
          includeMissing: Type.Boolean({ default: true }),
        }),
      },
    },
    async (request) => {
      const viewer = await viewerOf(request);
      return cache.get(readCacheKey(request), () =>
        filters.previewSeries(filters.parseLive(request.body), viewer, request.query, request.query),
      );
    },
  );

  app.post(
    '/api/v3/Filter/Preview/Group/Letters',
    { schema: { tags: ['Filter'], body: PreviewBody, querystring: Type.Object({ includeEmpty: Type.Boolean({ default: true }) }) } },
    async (request) => groupLetters(filters.parseLive(request.body), await viewerOf(request), request.query.includeEmpty),
  );

  app.post('/api/v3/Filter/Preview/Series/OnlyIDs', { schema: { tags: ['Filter'], body: PreviewBody } }, async (request) =>
    filters.previewSeriesIds(filters.parseLive(request.body), await viewerOf(request), { includeMissing: true, keepOrder: true }),
  );

  app.post(
    '/api/v3/Filter/Preview/Group/:groupID/Group',
    { schema: { tags: ['Filter'], params: GroupParams, body: PreviewBody, querystring: SubGroupQuery } },
    async (request) =>
      groups.subGroups(request.params.groupID, await viewerOf(request), {
        includeEmpty: request.query.includeEmpty,
        filter: filters.parseLive(request.body),
      }),
  );

  app.post(
    '/api/v3/Filter/Preview/Group/:groupID/Series',
    {
      schema: {
        tags: ['Filter'],
        params: GroupParams,
        body: PreviewBody,
        querystring: Type.Object({
          recursive: Type.Boolean({ default: false }),
          includeMissing: Type.Boolean({ default: true }),
          randomImages: Type.Boolean({ default: false }),
          includeDataFrom: ListParam,
        }),
      },
    },
    async (request) => {
      const viewer = await viewerOf(request);
      const live = filters.parseLive(request.body);
      await groups.requireGroup(request.params.groupID, viewer);
      return cache.get(readCacheKey(request), () =>
        filters.previewGroupSeries(request.params.groupID, live, viewer, {
          recursive: request.query.recursive,
          includeMissing: request.query.includeMissing,
          ...dataFrom(request.query.includeDataFrom),
        }),
      );
    },
  );

  // ---------------------------------------------------------------- WebUI helpers (contract §12)
  app.post('/api/v3/WebUI/GroupView', { schema: { tags: ['WebUI'], body: WebUIGroupViewBody } }, async (request) => {
    const viewer = await viewerOf(request);
    const ids: number[] = [];
    for (const id of new Set(request.body.GroupIDs)) if (await groups.isAllowed(id, viewer)) ids.push(id);
    const models = await browse.groupModels(ids, viewer);
    const allowed = models.filter((g) => g.IDs.MainAnime);
    const animeIds = allowed.map((g) => g.IDs.MainAnime);
    const anime = animeIds.length
      ? await browse.kysely
          .selectFrom('anidb_anime')
          .select(['id', 'type', 'rating', 'rating_votes', 'air_date', 'end_date'])
          .where('id', 'in', animeIds)
          .execute()
      : [];
    const byAnime = new Map(anime.map((a) => [a.id, a]));
    const limit = request.body.TagLimit ?? 0;
    const tags =
      animeIds.length && limit
        ? await browse.kysely
            .selectFrom('anidb_anime_tags as at')
            .innerJoin('anidb_tags as t', 't.id', 'at.tag_id')
            .select(['at.anime_id', 't.id', 't.parent_id', 't.name', 't.is_spoiler', 'at.weight'])
            .where('at.anime_id', 'in', animeIds)
            .orderBy('at.weight', 'desc')
            .orderBy('t.name')
            .execute()
        : [];
    // TagFilter drops (or, inverted, keeps only) AniDB tag categories; custom tags follow its User and Invert bits.
    const tagFilter = request.body.TagFilter ?? 0;
    const ancestry =
      tagFilter % TagFilterBits.User !== 0 || tagFilter >= TagFilterBits.Invert
        ? await new TagsStore(browse.kysely).ancestry([...new Set(tags.map((t) => t.id))])
        : null;
    const keepTag = (t: { id: number; name: string }) => !ancestry || keepCategory(tagFilter, tagCategory(ancestry.get(t.id) ?? [t.name]));
    const userTagsWanted = limit > 0 && keepUserTags(tagFilter);
    const mainSeries = allowed.map((g) => g.IDs.MainSeries);
    const customTags =
      userTagsWanted && mainSeries.length
        ? await browse.kysely
            .selectFrom('series_custom_tags as sct')
            .innerJoin('custom_tags as ct', 'ct.id', 'sct.tag_id')
            .select(['sct.series_id', 'ct.id', 'ct.name'])
            .where('sct.series_id', 'in', mainSeries)
            .orderBy('ct.name')
            .execute()
        : [];
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
    if (request.body.OrderByName)
      result.sort((x, y) => (models.find((m) => m.IDs.ID === x.ID)!.SortName < models.find((m) => m.IDs.ID === y.ID)!.SortName ? -1 : 1));
    return result;
  });
}
