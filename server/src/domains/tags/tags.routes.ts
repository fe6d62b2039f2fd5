import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Tag } from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { textError, validationError } from '../../http/problem.js';
import type { BrowseStore, Viewer } from '../collection/browse.store.js';
import { SERIES_FORBIDDEN, SERIES_NOT_FOUND } from '../collection/groups.service.js';
import { TagFilterBits, keepUserTags, type TagsStore } from './tags.store.js';

export const USER_TAG_NOT_FOUND = 'No User Tag entry for the given tagID';

const SeriesParams = Type.Object({ seriesID: Type.Integer({ minimum: 1 }) });
const TagParams = Type.Object({ tagID: Type.Integer({ minimum: 1 }) });
const IdsBody = Type.Object({ IDs: Type.Array(Type.Integer(), { minItems: 1 }) });
/** The console sends `name`/`description`; keys are matched case-insensitively. */
const LooseBody = Type.Record(Type.String(), Type.Unknown());
const FilterParam = Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())]));

/** TagFilter.Filter from a number or a comma list of flag names. */
function tagFilter(raw: string | string[] | undefined): number {
  const items = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  let value = 0;
  for (const item of items) {
    if (/^\d+$/.test(item)) {
      value += Number(item);
      continue;
    }
    const key = Object.keys(TagFilterBits).find((k) => k.toLowerCase() === item.toLowerCase()) as keyof typeof TagFilterBits | undefined;
    if (!key) throw validationError('filter', `The value '${item}' is not valid for filter.`);
    value += TagFilterBits[key];
  }
  return value;
}

function field(body: Record<string, unknown> | null | undefined, name: string): unknown {
  if (!body) return undefined;
  const key = Object.keys(body).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : body[key];
}
function optionalText(body: Record<string, unknown> | null | undefined, name: string): string | null {
  const value = field(body, name);
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw validationError(name, `${name} must be a string.`);
  return value;
}

/** Series tags (contract §5.6) and user tags (§8). */
export function registerTagRoutes(app: App, deps: { browse: BrowseStore; tags: TagsStore }) {
  const { browse, tags } = deps;
  const viewerOf = (request: FastifyRequest): Promise<Viewer> =>
    browse.viewer(request.principal?.kind === 'user' ? request.principal.userId : null);
  const allowedSeries = async (request: FastifyRequest, seriesId: number) => {
    const viewer = await viewerOf(request);
    const series = await browse.kysely.selectFrom('series').select(['id', 'anime_id']).where('id', '=', seriesId).executeTakeFirst();
    if (!series) throw textError(404, SERIES_NOT_FOUND);
    if (!(await browse.isSeriesAllowed(viewer, series.anime_id))) throw textError(403, SERIES_FORBIDDEN);
    return series;
  };

  const seriesTags = async (
    seriesId: number,
    animeId: number,
    o: { filter: number; excludeDescriptions: boolean; orderByName: boolean; onlyVerified: boolean; includeCount: boolean },
  ) => {
    const user = keepUserTags(o.filter) ? await tags.userTagModels(await tags.seriesUserTags(seriesId), o) : [];
    const anidb = await tags.seriesAnidbTags(animeId, o);
    anidb.sort((a, b) => (o.orderByName ? 0 : (b.Weight ?? 0) - (a.Weight ?? 0)) || a.Name.localeCompare(b.Name));
    return [...user, ...anidb] as Tag[];
  };

  app.get(
    '/api/v3/Series/:seriesID/Tags',
    {
      schema: {
        tags: ['Series'],
        params: SeriesParams,
        querystring: Type.Object({
          filter: FilterParam,
          excludeDescriptions: Type.Boolean({ default: false }),
          orderByName: Type.Boolean({ default: false }),
          onlyVerified: Type.Boolean({ default: true }),
          includeCount: Type.Boolean({ default: false }),
        }),
      },
    },
    async (request) => {
      const filter = tagFilter(request.query.filter);
      const series = await allowedSeries(request, request.params.seriesID);
      return seriesTags(series.id, series.anime_id, { ...request.query, filter });
    },
  );

  app.get(
    '/api/v3/Series/:seriesID/Tags/User',
    {
      schema: {
        tags: ['Series'],
        params: SeriesParams,
        querystring: Type.Object({ excludeDescriptions: Type.Boolean({ default: false }), includeCount: Type.Boolean({ default: false }) }),
      },
    },
    async (request) => {
      const series = await allowedSeries(request, request.params.seriesID);
      return seriesTags(series.id, series.anime_id, {
        ...request.query,
        filter: TagFilterBits.User + TagFilterBits.Invert,
        orderByName: true,
        onlyVerified: true,
      });
    },
  );

  app.post(
    '/api/v3/Series/:seriesID/Tags/User',
    { config: { auth: 'admin' }, schema: { tags: ['Series'], params: SeriesParams, body: IdsBody } },
    async (request, reply) => {
      const series = await allowedSeries(request, request.params.seriesID);
      const added = await tags.addToSeries(series.id, request.body.IDs);
      return reply.code(added ? 201 : 204).send();
    },
  );

  app.delete(
    '/api/v3/Series/:seriesID/Tags/User',
    { config: { auth: 'admin' }, schema: { tags: ['Series'], params: SeriesParams, body: IdsBody } },
    async (request, reply) => {
      const series = await allowedSeries(request, request.params.seriesID);
      const removed = await tags.removeFromSeries(series.id, request.body.IDs);
      return reply.code(removed ? 200 : 204).send();
    },
  );

  // ---------------------------------------------------------------- user tags (contract §8)
  app.get(
    '/api/v3/Tag/User',
    {
      schema: {
        tags: ['Tag'],
        querystring: Type.Object({
          pageSize: Type.Integer({ minimum: 0, maximum: 100, default: 50 }),
          page: Type.Integer({ minimum: 1, default: 1 }),
          excludeDescriptions: Type.Boolean({ default: false }),
          includeCount: Type.Boolean({ default: false }),
        }),
      },
    },
    async (request) => {
      const q = request.query;
      const rows = await tags.userTags();
      const page = q.pageSize === 0 ? rows : rows.slice((q.page - 1) * q.pageSize, q.page * q.pageSize);
      return { Total: rows.length, List: await tags.userTagModels(page, q) };
    },
  );

  app.post('/api/v3/Tag/User', { config: { auth: 'admin' }, schema: { tags: ['Tag'], body: LooseBody } }, async (request) => {
    const name = optionalText(request.body, 'Name')?.trim() ?? '';
    const description = optionalText(request.body, 'Description')?.trim() ?? '';
    if (!name) throw validationError('Name', 'Name must be set for new tags.');
    if (await tags.userTagByName(name)) throw validationError('Name', 'A tag with the name already exists.');
    const [model] = await tags.userTagModels([await tags.createUserTag(name, description)]);
    return model;
  });

  app.get(
    '/api/v3/Tag/User/:tagID',
    { schema: { tags: ['Tag'], params: TagParams, querystring: Type.Object({ includeCount: Type.Boolean({ default: false }) }) } },
    async (request) => {
      const row = await tags.userTag(request.params.tagID);
      if (!row) throw textError(404, USER_TAG_NOT_FOUND);
      return (await tags.userTagModels([row], request.query))[0];
    },
  );

  app.put(
    '/api/v3/Tag/User/:tagID',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['Tag'],
        params: TagParams,
        body: LooseBody,
        querystring: Type.Object({ includeCount: Type.Boolean({ default: false }) }),
      },
    },
    async (request) => {
      const row = await tags.userTag(request.params.tagID);
      if (!row) throw textError(404, USER_TAG_NOT_FOUND);
      const name = optionalText(request.body, 'Name')?.trim();
      const description = optionalText(request.body, 'Description');
      const changes: { name?: string; description?: string } = {};
      if (name && name !== row.name) {
        const clash = await tags.userTagByName(name);
        if (clash && clash.id !== row.id) throw validationError('Name', 'A tag with the name already exists.');
        changes.name = name;
      }
      if (description !== null) changes.description = description.trim();
      await tags.updateUserTag(row.id, changes);
      return (await tags.userTagModels([(await tags.userTag(row.id))!], request.query))[0];
    },
  );

  app.delete(
    '/api/v3/Tag/User/:tagID',
    { config: { auth: 'admin' }, schema: { tags: ['Tag'], params: TagParams } },
    async (request, reply) => {
      if (!(await tags.deleteUserTag(request.params.tagID))) throw textError(404, USER_TAG_NOT_FOUND);
      return reply.code(204).send();
    },
  );
}
