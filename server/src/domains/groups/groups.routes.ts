import type { FastifyRequest } from 'fastify';
import {
  CollectionPatchBody,
  CreateOrUpdateGroupBody,
  DeleteGroupQuery,
  GroupIDParams,
  GroupLettersQuery,
  GroupListQuery,
  GroupMainSeriesQuery,
  GroupRelationsQuery,
  GroupSeriesQuery,
  GroupTopLevelQuery,
  SeriesParams,
  SeriesMoveParams,
  SubGroupsQuery,
  WebUIGroupViewBody,
} from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { applyPatch } from '../../http/json-patch.js';
import { dataFrom } from '../../http/list-query.js';
import type { GroupsService } from './groups.service.js';

/** Group/*, Series/{id}/Group, Series/{id}/Move/{groupID} and WebUI/GroupView: HTTP only, the rules are GroupsService's. */
export function registerGroupsRoutes(app: App, deps: { groups: GroupsService }) {
  const { groups } = deps;
  const viewerOf = (request: FastifyRequest) => groups.viewer(request.principal?.kind === 'user' ? request.principal.userId : null);

  // ---------------------------------------------------------------- groups (contract §3)
  app.get('/api/v3/Group', { schema: { tags: ['Group'], querystring: GroupListQuery }, config: { readCache: true } }, async (request) =>
    groups.list(await viewerOf(request), request.query),
  );

  app.post('/api/v3/Group', { schema: { tags: ['Group'], body: CreateOrUpdateGroupBody } }, async (request, reply) => {
    const group = await groups.create(request.body, await viewerOf(request));
    return reply.code(201).header('location', `/api/v3/Group/${group.IDs.ID}`).send(group);
  });

  app.get('/api/v3/Group/:groupID', { schema: { tags: ['Group'], params: GroupIDParams }, config: { readCache: true } }, async (request) =>
    groups.get(request.params.groupID, await viewerOf(request)),
  );

  app.put(
    '/api/v3/Group/:groupID',
    { schema: { tags: ['Group'], params: GroupIDParams, body: CreateOrUpdateGroupBody } },
    async (request) => groups.update(request.params.groupID, request.body, await viewerOf(request)),
  );

  app.patch(
    '/api/v3/Group/:groupID',
    { schema: { tags: ['Group'], params: GroupIDParams, body: CollectionPatchBody } },
    async (request) => {
      const viewer = await viewerOf(request);
      const body = applyPatch(await groups.asBody(request.params.groupID, viewer), request.body, 'Group');
      return groups.update(request.params.groupID, body, viewer);
    },
  );

  app.delete(
    '/api/v3/Group/:groupID',
    { config: { auth: 'admin' }, schema: { tags: ['Group'], params: GroupIDParams, querystring: DeleteGroupQuery } },
    async (request, reply) => {
      await groups.delete(request.params.groupID, { deleteSeries: request.query.deleteSeries });
      return reply.code(204).send();
    },
  );

  app.post('/api/v3/Group/:groupID/Recalculate', { schema: { tags: ['Group'], params: GroupIDParams } }, async (request, reply) => {
    await groups.recalculate(request.params.groupID);
    return reply.send();
  });

  app.get(
    '/api/v3/Group/:groupID/Series',
    { schema: { tags: ['Group'], params: GroupIDParams, querystring: GroupSeriesQuery }, config: { readCache: true } },
    async (request) =>
      groups.series(request.params.groupID, await viewerOf(request), {
        recursive: request.query.recursive,
        includeMissing: request.query.includeMissing,
        ...dataFrom(request.query.includeDataFrom),
      }),
  );

  app.get('/api/v3/Group/Letters', { schema: { tags: ['Group'], querystring: GroupLettersQuery } }, async (request) =>
    groups.letters(await viewerOf(request), request.query),
  );

  app.get(
    '/api/v3/Group/:groupID/Group',
    { schema: { tags: ['Group'], params: GroupIDParams, querystring: SubGroupsQuery } },
    async (request) => groups.subGroups(request.params.groupID, await viewerOf(request), { includeEmpty: request.query.includeEmpty }),
  );

  app.get(
    '/api/v3/Group/:groupID/Parent',
    { schema: { tags: ['Group'], params: GroupIDParams, querystring: GroupTopLevelQuery } },
    async (request) => groups.parent(request.params.groupID, await viewerOf(request), request.query.topLevel),
  );

  app.get(
    '/api/v3/Group/:groupID/Relations',
    { schema: { tags: ['Group'], params: GroupIDParams, querystring: GroupRelationsQuery } },
    async (request) => groups.relations(request.params.groupID, await viewerOf(request), request.query.recursive),
  );

  app.get(
    '/api/v3/Group/:groupID/MainSeries',
    { schema: { tags: ['Group'], params: GroupIDParams, querystring: GroupMainSeriesQuery } },
    async (request) => groups.mainSeries(request.params.groupID, await viewerOf(request), dataFrom(request.query.includeDataFrom)),
  );

  app.get(
    '/api/v3/Series/:seriesID/Group',
    { schema: { tags: ['Series'], params: SeriesParams, querystring: GroupTopLevelQuery } },
    async (request) => groups.ofSeries(request.params.seriesID, await viewerOf(request), request.query.topLevel),
  );

  app.patch(
    '/api/v3/Series/:seriesID/Move/:groupID',
    { config: { auth: 'admin' }, schema: { tags: ['Series'], params: SeriesMoveParams } },
    async (request, reply) => {
      await groups.moveSeries(request.params.seriesID, request.params.groupID);
      return reply.send();
    },
  );

  // ---------------------------------------------------------------- WebUI helpers (contract §12)
  app.post('/api/v3/WebUI/GroupView', { schema: { tags: ['WebUI'], body: WebUIGroupViewBody } }, async (request) =>
    groups.groupView(request.body, await viewerOf(request)),
  );
}
