import {
  NextUpEpisodeQuery,
  SeriesCastQuery,
  SeriesEpisodesQuery,
  SeriesEpisodesWatchedQuery,
  SeriesFileSummaryQuery,
  SeriesImageParams,
  SeriesImagesQuery,
  SeriesParams,
  SeriesPreferredImageBody,
  SeriesQuery,
  VoteBody,
} from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { textError } from '../../http/problem.js';
import { parseImageType, preferredImageSourceOf } from '../images/index.js';
import { callerId } from '../../http/viewer.js';
import type { TagsService } from '../tags/index.js';
import type { SeriesImageType } from './series-images.service.js';
import { SeriesOverview, type GroupAnswer } from './series-overview.service.js';
import type { SeriesService } from './series.service.js';

const imageTypeOf = (raw: string): SeriesImageType => {
  const type = parseImageType(raw);
  if (type !== 'Poster' && type !== 'Banner' && type !== 'Backdrop' && type !== 'Logo')
    throw textError(400, 'Invalid image type for series.');
  return type;
};

/** Series page endpoints: the series, its episodes and the viewer's watch state and votes (contract §5.1, §5.5, §5.8, §6). */
export function registerSeriesRoutes(app: App, deps: { series: SeriesService; tags: Pick<TagsService, 'seriesTags'>; group: GroupAnswer }) {
  const { series } = deps;
  const overview = new SeriesOverview({ series, tags: deps.tags, group: deps.group });

  app.get(
    '/api/v3/Series/:seriesID',
    { schema: { tags: ['Series'], params: SeriesParams, querystring: SeriesQuery }, config: { readCache: true } },
    (request) => series.series(callerId(request.principal), request.params.seriesID, request.query),
  );

  app.get(
    '/api/v3/Series/:seriesID/Episode',
    { schema: { tags: ['Series'], params: SeriesParams, querystring: SeriesEpisodesQuery }, config: { readCache: true } },
    (request) => series.episodes(callerId(request.principal), request.params.seriesID, request.query),
  );

  app.post(
    '/api/v3/Series/:seriesID/Episode/Watched',
    { schema: { tags: ['Series'], params: SeriesParams, querystring: SeriesEpisodesWatchedQuery } },
    async (request, reply) => {
      await series.setEpisodesWatched(callerId(request.principal), request.params.seriesID, request.query);
      return reply.code(200).send();
    },
  );

  app.post(
    '/api/v3/Series/:seriesID/Vote',
    { schema: { tags: ['Series'], params: SeriesParams, body: VoteBody } },
    async (request, reply) => {
      await series.vote(callerId(request.principal), request.params.seriesID, request.body);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/v3/Series/:seriesID/Cast',
    { schema: { tags: ['Series'], params: SeriesParams, querystring: SeriesCastQuery } },
    (request) => series.cast(callerId(request.principal), request.params.seriesID, request.query.roleType),
  );

  app.get('/api/v3/Series/:seriesID/AniDB/Related', { schema: { tags: ['Series'], params: SeriesParams } }, (request) =>
    series.related(callerId(request.principal), request.params.seriesID),
  );

  app.get('/api/v3/Series/:seriesID/AniDB/Similar', { schema: { tags: ['Series'], params: SeriesParams } }, (request) =>
    series.similar(callerId(request.principal), request.params.seriesID),
  );

  app.get(
    '/api/v3/Series/:seriesID/NextUpEpisode',
    { schema: { tags: ['Series'], params: SeriesParams, querystring: NextUpEpisodeQuery } },
    async (request, reply) => {
      const next = await series.nextUpEpisode(callerId(request.principal), request.params.seriesID, request.query);
      if (!next) return reply.code(204).send();
      return next;
    },
  );

  app.get('/api/v3/WebUI/Series/:seriesID', { schema: { tags: ['WebUI'], params: SeriesParams } }, (request) =>
    series.webuiExtras(callerId(request.principal), request.params.seriesID),
  );

  // Our addition: the series page's panels beside the series in one round trip, each key as its own route answers it.
  app.get(
    '/api/v3/WebUI/Series/:seriesID/Overview',
    { schema: { tags: ['WebUI'], params: SeriesParams }, config: { readCache: true } },
    (request) => overview.overview(callerId(request.principal), request.params.seriesID),
  );

  app.get(
    '/api/v3/Series/:seriesID/Images',
    { schema: { tags: ['Series'], params: SeriesParams, querystring: SeriesImagesQuery } },
    (request) => series.images(callerId(request.principal), request.params.seriesID, request.query.includeDisabled),
  );

  app.get('/api/v3/Series/:seriesID/Images/:imageType', { schema: { tags: ['Series'], params: SeriesImageParams } }, async (request) => {
    const type = imageTypeOf(request.params.imageType);
    return series.mainImage(callerId(request.principal), request.params.seriesID, type);
  });

  app.put(
    '/api/v3/Series/:seriesID/Images/:imageType',
    { config: { auth: 'admin' }, schema: { tags: ['Series'], params: SeriesImageParams, body: SeriesPreferredImageBody } },
    async (request) => {
      const type = imageTypeOf(request.params.imageType);
      const source = preferredImageSourceOf(request.body.Source);
      return series.setPreferredImage(callerId(request.principal), request.params.seriesID, type, source, request.body.ID);
    },
  );

  app.delete(
    '/api/v3/Series/:seriesID/Images/:imageType',
    { config: { auth: 'admin' }, schema: { tags: ['Series'], params: SeriesImageParams } },
    async (request, reply) => {
      const type = imageTypeOf(request.params.imageType);
      await series.unsetPreferredImage(callerId(request.principal), request.params.seriesID, type);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/v3/WebUI/Series/:seriesID/FileSummary',
    { schema: { tags: ['WebUI'], params: SeriesParams, querystring: SeriesFileSummaryQuery } },
    (request) => series.fileSummary(callerId(request.principal), request.params.seriesID, request.query),
  );

  app.get('/api/v3/Series/:seriesID/Relations', { schema: { tags: ['Series'], params: SeriesParams } }, (request) =>
    series.relations(callerId(request.principal), request.params.seriesID, true),
  );

  app.get('/api/v3/Series/:seriesID/AniDB/Relations', { schema: { tags: ['Series'], params: SeriesParams } }, (request) =>
    series.relations(callerId(request.principal), request.params.seriesID, false),
  );
}
