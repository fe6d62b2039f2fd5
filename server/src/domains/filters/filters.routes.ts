import type { FastifyRequest } from 'fastify';
import {
  AnyFilterIDParams,
  CollectionPatchBody,
  CreateOrUpdateFilterBody,
  FilterChildrenQuery,
  FilterExpressionsQuery,
  FilterGetQuery,
  FilterGroupLettersQuery,
  FilterGroupParams,
  FilterGroupsQuery,
  FilterIDParams,
  FilterListQuery,
  FilterParentQuery,
  FilterPreviewBody,
  FilterSeriesQuery,
  GroupIDParams,
  GroupSeriesQuery,
  SubGroupsQuery,
  type Group,
  type Series,
} from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { applyPatch } from '../../http/json-patch.js';
import { dataFrom, listOf } from '../../http/list-query.js';
import type { Viewer } from '../../http/viewer.js';
import type { FiltersService, LiveFilter } from './filters.service.js';

/** The groups domain's answers the routes under Filter/{id}/Group/… give (GroupsService, given at wiring). */
export interface GroupReads {
  viewer(userId: number | null): Promise<Viewer>;
  requireGroup(id: number, viewer: Viewer | null): Promise<unknown>;
  subGroups(id: number, viewer: Viewer, options: { includeEmpty: boolean; filter?: LiveFilter }): Promise<Group[]>;
  series(
    id: number,
    viewer: Viewer,
    options: { recursive: boolean; includeMissing: boolean; includeAniDB: boolean; includeTMDB: boolean },
  ): Promise<Series[]>;
}

/**
 * Every /api/v3/Filter/* route (contract §4, §7): saved filters, browsing through them, and the Preview ("live filter")
 * routes. HTTP only; the rules are FiltersService's, and a group's series or sub-groups under a filter GroupsService's (GroupReads).
 */
export function registerFiltersRoutes(app: App, deps: { filters: FiltersService; groups: GroupReads }) {
  const { filters, groups } = deps;
  const viewerOf = (request: FastifyRequest) => groups.viewer(request.principal?.kind === 'user' ? request.principal.userId : null);

  // ---------------------------------------------------------------- filters (contract §7)
  app.get('/api/v3/Filter', { schema: { tags: ['Filter'], querystring: FilterListQuery } }, async (request) =>
    filters.list(null, await viewerOf(request), request.query),
  );

  app.post('/api/v3/Filter', { config: { auth: 'admin' }, schema: { tags: ['Filter'], body: CreateOrUpdateFilterBody } }, async (request) =>
    filters.save(null, request.body, await viewerOf(request)),
  );

  app.get('/api/v3/Filter/Expressions', { schema: { tags: ['Filter'], querystring: FilterExpressionsQuery } }, async (request) => {
    const types = listOf(request.query.types);
    const wanted = listOf(request.query.groups);
    return (await filters.expressions(await viewerOf(request))).filter(
      (e) => (!types.length || types.includes(e.Type.toLowerCase())) && (!wanted.length || wanted.includes(e.Group.toLowerCase())),
    );
  });

  app.get('/api/v3/Filter/SortingCriteria', { schema: { tags: ['Filter'] } }, () => filters.sortingCriteria());

  app.get(
    '/api/v3/Filter/:filterID',
    { schema: { tags: ['Filter'], params: FilterIDParams, querystring: FilterGetQuery } },
    async (request) => filters.get(request.params.filterID, await viewerOf(request), request.query),
  );

  app.put(
    '/api/v3/Filter/:filterID',
    { config: { auth: 'admin' }, schema: { tags: ['Filter'], params: FilterIDParams, body: CreateOrUpdateFilterBody } },
    async (request) => filters.save(request.params.filterID, request.body, await viewerOf(request)),
  );

  app.patch(
    '/api/v3/Filter/:filterID',
    { config: { auth: 'admin' }, schema: { tags: ['Filter'], params: FilterIDParams, body: CollectionPatchBody } },
    async (request) => {
      const body = applyPatch(await filters.asBody(request.params.filterID), request.body, 'Filter');
      return filters.save(request.params.filterID, body, await viewerOf(request));
    },
  );

  app.delete(
    '/api/v3/Filter/:filterID',
    { config: { auth: 'admin' }, schema: { tags: ['Filter'], params: FilterIDParams } },
    async (request, reply) => {
      await filters.delete(request.params.filterID);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/v3/Filter/:filterID/Filter',
    { schema: { tags: ['Filter'], params: FilterIDParams, querystring: FilterChildrenQuery } },
    async (request) => filters.children(request.params.filterID, await viewerOf(request), request.query),
  );

  // Saved-filter browsing (contract §4.3–§4.7, §4.14); filter id 0 means no filter.
  app.get(
    '/api/v3/Filter/:filterID/Group',
    { schema: { tags: ['Filter'], params: AnyFilterIDParams, querystring: FilterGroupsQuery }, config: { readCache: true } },
    async (request) => {
      const viewer = await viewerOf(request);
      const live = await filters.savedOrNone(request.params.filterID);
      return filters.previewGroups(live, viewer, request.query, {
        includeEmpty: request.query.includeEmpty,
        orderByName: request.query.orderByName || request.params.filterID === 0,
      });
    },
  );

  app.get(
    '/api/v3/Filter/:filterID/Group/Letters',
    { schema: { tags: ['Filter'], params: AnyFilterIDParams, querystring: FilterGroupLettersQuery }, config: { readCache: true } },
    async (request) =>
      filters.groupLetters(await filters.savedOrNone(request.params.filterID), await viewerOf(request), request.query.includeEmpty),
  );

  app.get(
    '/api/v3/Filter/:filterID/Series',
    { schema: { tags: ['Filter'], params: AnyFilterIDParams, querystring: FilterSeriesQuery }, config: { readCache: true } },
    async (request) =>
      filters.previewSeries(
        await filters.savedOrNone(request.params.filterID, true),
        await viewerOf(request),
        request.query,
        request.query,
      ),
  );

  app.get('/api/v3/Filter/:filterID/Series/OnlyIDs', { schema: { tags: ['Filter'], params: AnyFilterIDParams } }, async (request) =>
    filters.previewSeriesIds(await filters.savedOrNone(request.params.filterID, true), await viewerOf(request), {
      includeMissing: true,
      keepOrder: true,
    }),
  );

  app.get(
    '/api/v3/Filter/:filterID/Group/:groupID/Group',
    { schema: { tags: ['Filter'], params: FilterGroupParams, querystring: SubGroupsQuery }, config: { readCache: true } },
    async (request) => {
      const filter = request.params.filterID === 0 ? undefined : await filters.savedOrNone(request.params.filterID);
      return groups.subGroups(request.params.groupID, await viewerOf(request), { includeEmpty: request.query.includeEmpty, filter });
    },
  );

  app.get(
    '/api/v3/Filter/:filterID/Group/:groupID/Series',
    { schema: { tags: ['Filter'], params: FilterGroupParams, querystring: GroupSeriesQuery }, config: { readCache: true } },
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
    { schema: { tags: ['Filter'], params: FilterIDParams, querystring: FilterParentQuery } },
    async (request) => filters.parent(request.params.filterID, await viewerOf(request), request.query),
  );

  // Preview ("live filter") endpoints: the body is an unsaved filter.
  app.post(
    '/api/v3/Filter/Preview/Group',
    { schema: { tags: ['Filter'], body: FilterPreviewBody, querystring: FilterGroupsQuery }, config: { readCache: true } },
    async (request) => filters.previewGroups(filters.parseLive(request.body), await viewerOf(request), request.query, request.query),
  );

  app.post(
    '/api/v3/Filter/Preview/Series',
    { schema: { tags: ['Filter'], body: FilterPreviewBody, querystring: FilterSeriesQuery }, config: { readCache: true } },
    async (request) => filters.previewSeries(filters.parseLive(request.body), await viewerOf(request), request.query, request.query),
  );

  app.post(
    '/api/v3/Filter/Preview/Group/Letters',
    { schema: { tags: ['Filter'], body: FilterPreviewBody, querystring: FilterGroupLettersQuery }, config: { readCache: true } },
    async (request) => filters.groupLetters(filters.parseLive(request.body), await viewerOf(request), request.query.includeEmpty),
  );

  app.post('/api/v3/Filter/Preview/Series/OnlyIDs', { schema: { tags: ['Filter'], body: FilterPreviewBody } }, async (request) =>
    filters.previewSeriesIds(filters.parseLive(request.body), await viewerOf(request), { includeMissing: true, keepOrder: true }),
  );

  app.post(
    '/api/v3/Filter/Preview/Group/:groupID/Group',
    {
      schema: { tags: ['Filter'], params: GroupIDParams, body: FilterPreviewBody, querystring: SubGroupsQuery },
      config: { readCache: true },
    },
    async (request) =>
      groups.subGroups(request.params.groupID, await viewerOf(request), {
        includeEmpty: request.query.includeEmpty,
        filter: filters.parseLive(request.body),
      }),
  );

  app.post(
    '/api/v3/Filter/Preview/Group/:groupID/Series',
    {
      schema: { tags: ['Filter'], params: GroupIDParams, body: FilterPreviewBody, querystring: GroupSeriesQuery },
      config: { readCache: true },
    },
    async (request) => {
      const viewer = await viewerOf(request);
      const live = filters.parseLive(request.body);
      await groups.requireGroup(request.params.groupID, viewer);
      return filters.previewGroupSeries(request.params.groupID, live, viewer, {
        recursive: request.query.recursive,
        includeMissing: request.query.includeMissing,
        ...dataFrom(request.query.includeDataFrom),
      });
    },
  );
}
