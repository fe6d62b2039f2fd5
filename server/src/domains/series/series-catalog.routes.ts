import {
  AnidbAnimeParams,
  SeriesAnidbListQuery,
  SeriesAnidbRelationsQuery,
  SeriesListQuery,
  SeriesParams,
  SeriesPathParams,
  SeriesQuery,
  SeriesQueryParams,
  SeriesSearchOptionsQuery,
  SeriesSearchQuery,
  SeriesStartsWithQuery,
} from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { callerId } from '../../http/viewer.js';
import type { SeriesCatalog } from './series-catalog.service.js';

/** The route's value decoded once more, as the obsolete path form does: `+` is a space, a lone `%` stays. */
function decodedAgain(value: string): string {
  const text = value.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Series lists, search, folders, years and seasons, and the stored AniDB anime (contract §5.1, §5.2, §5.4). */
export function registerSeriesCatalogRoutes(app: App, deps: { catalog: SeriesCatalog }) {
  const { catalog } = deps;
  const tags = ['Series'];

  app.get('/api/v3/Series', { schema: { tags, querystring: SeriesListQuery }, config: { readCache: true } }, (request) =>
    catalog.list(callerId(request.principal), request.query),
  );

  app.get('/api/v3/Series/Search', { schema: { tags, querystring: SeriesSearchQuery } }, (request) =>
    catalog.search(callerId(request.principal), request.query.query, request.query),
  );

  app.get(
    '/api/v3/Series/Search/:query',
    { schema: { tags, params: SeriesQueryParams, querystring: SeriesSearchOptionsQuery } },
    (request) => catalog.search(callerId(request.principal), decodedAgain(request.params.query), request.query),
  );

  app.get(
    '/api/v3/Series/StartsWith/:query',
    { schema: { tags, params: SeriesQueryParams, querystring: SeriesStartsWithQuery } },
    (request) => catalog.startsWith(callerId(request.principal), request.params.query, request.query.limit),
  );

  app.get('/api/v3/Series/PathEndsWith/*', { schema: { tags, params: SeriesPathParams } }, (request) =>
    catalog.pathEndsWith(callerId(request.principal), request.params['*']),
  );

  app.get('/api/v3/Series/Years', { schema: { tags } }, (request) => catalog.years(callerId(request.principal)));

  app.get('/api/v3/Series/Seasons', { schema: { tags } }, (request) => catalog.seasons(callerId(request.principal)));

  app.get('/api/v3/Series/AniDB', { schema: { tags, querystring: SeriesAnidbListQuery } }, (request) =>
    catalog.anidbList(callerId(request.principal), request.query),
  );

  app.get('/api/v3/Series/AniDB/Relations', { schema: { tags, querystring: SeriesAnidbRelationsQuery } }, (request) =>
    catalog.anidbRelations(request.query),
  );

  app.get('/api/v3/Series/:seriesID/AniDB', { schema: { tags, params: SeriesParams } }, (request) =>
    catalog.seriesAnidb(callerId(request.principal), request.params.seriesID),
  );

  app.get('/api/v3/Series/AniDB/:anidbID/Similar', { schema: { tags, params: AnidbAnimeParams } }, (request) =>
    catalog.anidbSimilar(callerId(request.principal), request.params.anidbID),
  );

  app.get('/api/v3/Series/AniDB/:anidbID/Related', { schema: { tags, params: AnidbAnimeParams } }, (request) =>
    catalog.anidbRelated(callerId(request.principal), request.params.anidbID),
  );

  app.get('/api/v3/Series/AniDB/:anidbID/Relations', { schema: { tags, params: AnidbAnimeParams } }, (request) =>
    catalog.anidbRelationsOf(callerId(request.principal), request.params.anidbID),
  );

  app.get('/api/v3/Series/AniDB/:anidbID/Series', { schema: { tags, params: AnidbAnimeParams, querystring: SeriesQuery } }, (request) =>
    catalog.seriesOfAnime(callerId(request.principal), request.params.anidbID, request.query),
  );
}
