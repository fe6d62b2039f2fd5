import {
  JsonPatchBody,
  SeriesParams,
  SeriesTagsQuery,
  SeriesUserTagIdsBody,
  SeriesUserTagsQuery,
  TagParams,
  UserTagBody,
  UserTagListQuery,
  UserTagQuery,
} from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { callerId } from '../../http/viewer.js';
import { parseTagFilter } from './tag-filter.js';
import type { TagsService } from './tags.service.js';

/** Series tags (contract §5.6) and user tags (§8). */
export function registerTagRoutes(app: App, deps: { tags: TagsService }) {
  const { tags } = deps;

  app.get(
    '/api/v3/Series/:seriesID/Tags',
    { schema: { tags: ['Series'], params: SeriesParams, querystring: SeriesTagsQuery } },
    async (request) => {
      const filter = parseTagFilter(request.query.filter);
      return tags.seriesTags(callerId(request.principal), request.params.seriesID, { ...request.query, filter });
    },
  );

  app.get(
    '/api/v3/Series/:seriesID/Tags/User',
    { schema: { tags: ['Series'], params: SeriesParams, querystring: SeriesUserTagsQuery } },
    (request) => tags.seriesUserTags(callerId(request.principal), request.params.seriesID, request.query),
  );

  app.post(
    '/api/v3/Series/:seriesID/Tags/User',
    { config: { auth: 'admin' }, schema: { tags: ['Series'], params: SeriesParams, body: SeriesUserTagIdsBody } },
    async (request, reply) => {
      const added = await tags.addToSeries(callerId(request.principal), request.params.seriesID, request.body.IDs);
      return reply.code(added ? 201 : 204).send();
    },
  );

  app.delete(
    '/api/v3/Series/:seriesID/Tags/User',
    { config: { auth: 'admin' }, schema: { tags: ['Series'], params: SeriesParams, body: SeriesUserTagIdsBody } },
    async (request, reply) => {
      const removed = await tags.removeFromSeries(callerId(request.principal), request.params.seriesID, request.body.IDs);
      return reply.code(removed ? 200 : 204).send();
    },
  );

  // ---------------------------------------------------------------- user tags (contract §8)
  app.get('/api/v3/Tag/User', { schema: { tags: ['Tag'], querystring: UserTagListQuery } }, (request) => tags.userTagPage(request.query));

  app.post('/api/v3/Tag/User', { config: { auth: 'admin' }, schema: { tags: ['Tag'], body: UserTagBody } }, (request) =>
    tags.createUserTag(request.body),
  );

  app.get('/api/v3/Tag/User/:tagID', { schema: { tags: ['Tag'], params: TagParams, querystring: UserTagQuery } }, (request) =>
    tags.userTag(request.params.tagID, request.query),
  );

  app.put(
    '/api/v3/Tag/User/:tagID',
    { config: { auth: 'admin' }, schema: { tags: ['Tag'], params: TagParams, body: UserTagBody, querystring: UserTagQuery } },
    (request) => tags.updateUserTag(request.params.tagID, request.body, request.query),
  );

  app.patch(
    '/api/v3/Tag/User/:tagID',
    { config: { auth: 'admin' }, schema: { tags: ['Tag'], params: TagParams, body: JsonPatchBody, querystring: UserTagQuery } },
    (request) => tags.patchUserTag(request.params.tagID, request.body, request.query),
  );

  app.delete(
    '/api/v3/Tag/User/:tagID',
    { config: { auth: 'admin' }, schema: { tags: ['Tag'], params: TagParams } },
    async (request, reply) => {
      await tags.deleteUserTag(request.params.tagID);
      return reply.code(204).send();
    },
  );
}
