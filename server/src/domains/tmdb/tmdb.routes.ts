import { Type } from '@sinclair/typebox';
import {
  ListResult,
  SeriesParams,
  TmdbAutoEpisodeLinksQuery,
  NullableTmdbAutoMatchEpisodesBody,
  TmdbAutoMatchResult,
  TmdbAutoSearchQuery,
  TmdbDownloadImagesBody,
  TmdbEpisode,
  TmdbEpisodeBulkBody,
  TmdbEpisodeCrossReference,
  TmdbEpisodeLinksQuery,
  TmdbIncludeQuery,
  TmdbLinkMovieBody,
  TmdbLinkShowBody,
  TmdbLocalBulkBody,
  TmdbMovie,
  TmdbMovieCrossReference,
  TmdbMovieParams,
  TmdbOnlineBulkBody,
  TmdbOrderingInformation,
  TmdbOrderingQuery,
  TmdbOverrideEpisodeMappingBody,
  TmdbRefreshMovieBody,
  TmdbRefreshShowBody,
  TmdbRemoteSearchMovie,
  TmdbRemoteSearchShow,
  TmdbSearchQuery,
  TmdbSetPreferredOrderingBody,
  TmdbShow,
  TmdbShowCrossReference,
  TmdbShowEpisodesQuery,
  TmdbShowParams,
  TmdbShowQuery,
  NullableTmdbUnlinkBody,
  NullableTmdbUnlinkMovieBody,
} from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { notFound, validationError } from '../../http/problem.js';
import { rethrowKeyMissing } from './tmdb-api.js';
import type { TmdbLinking } from './tmdb-linking.service.js';
import type { RefreshOutcome, TmdbSync } from './tmdb-sync.service.js';
import { includeSet, page, type TmdbService } from './tmdb.service.js';
import { planCrossReference } from './tmdb-models.js';

const tags = ['TMDB'];
const admin = { auth: 'admin' } as const;

export interface TmdbRouteDeps {
  service: TmdbService;
  sync: TmdbSync;
  linking: TmdbLinking;
}

/** The TMDB controller's routes (local data, live search, refresh) and the series' TMDB links. */
export function registerTmdbRoutes(app: App, deps: TmdbRouteDeps) {
  const { service, sync } = deps;

  /** An immediate refresh runs now: a missing key is the caller's to fix (400), an unknown id is a 404. */
  const runNow = async (refresh: () => Promise<RefreshOutcome>, missing: string) => {
    if ((await refresh().catch(rethrowKeyMissing)) === 'not-found') throw notFound(missing);
  };

  app.post(
    '/api/v3/Tmdb/Show/:showID/Action/Refresh',
    { config: admin, schema: { tags, params: TmdbShowParams, body: TmdbRefreshShowBody } },
    async (request, reply) => {
      const { showID } = request.params;
      const body = request.body;
      const options = {
        // A quick refresh never forces (contract).
        force: body.Force && !body.QuickRefresh,
        downloadImages: body.DownloadImages,
        downloadCrewAndCast: body.DownloadCrewAndCast ?? null,
        downloadAlternateOrdering: body.DownloadAlternateOrdering ?? null,
      };
      if (!body.Immediate) {
        await sync.queueShow(showID, options);
        return reply.code(204).send();
      }
      if (body.QuickRefresh && (await service.hasStoredEpisodes(showID))) return reply.code(200).send();
      await runNow(() => sync.refreshShow(showID, options), 'Show not found on TMDB.');
      return reply.code(200).send();
    },
  );

  app.post(
    '/api/v3/Tmdb/Movie/:movieID/Action/Refresh',
    { config: admin, schema: { tags, params: TmdbMovieParams, body: TmdbRefreshMovieBody } },
    async (request, reply) => {
      const { movieID } = request.params;
      const body = request.body;
      if (body.SkipIfExists && (await service.isMovieStored(movieID))) return reply.code(200).send();
      const options = { force: body.Force, downloadImages: body.DownloadImages, downloadCrewAndCast: body.DownloadCrewAndCast ?? null };
      if (!body.Immediate) {
        await sync.queueMovie(movieID, options);
        return reply.code(204).send();
      }
      await runNow(() => sync.refreshMovie(movieID, options), 'Movie not found on TMDB.');
      return reply.code(200).send();
    },
  );

  app.get(
    '/api/v3/Tmdb/Show/Online/Search',
    { config: admin, schema: { tags, querystring: TmdbSearchQuery, response: { 200: ListResult(TmdbRemoteSearchShow) } } },
    (request) => service.searchShows(request.query),
  );
  app.get(
    '/api/v3/Tmdb/Movie/Online/Search',
    { config: admin, schema: { tags, querystring: TmdbSearchQuery, response: { 200: ListResult(TmdbRemoteSearchMovie) } } },
    (request) => service.searchMovies(request.query),
  );
  app.get(
    '/api/v3/Tmdb/Show/Online/:showID',
    { schema: { tags, params: TmdbShowParams, response: { 200: TmdbRemoteSearchShow } } },
    (request) => service.onlineShow(request.params.showID),
  );
  app.get(
    '/api/v3/Tmdb/Movie/Online/:movieID',
    { schema: { tags, params: TmdbMovieParams, response: { 200: TmdbRemoteSearchMovie } } },
    (request) => service.onlineMovie(request.params.movieID),
  );

  app.post(
    '/api/v3/Tmdb/Show/Online/Bulk',
    { schema: { tags, body: TmdbOnlineBulkBody, response: { 200: Type.Array(TmdbRemoteSearchShow) } } },
    (request) => service.onlineBulk(request.body.IDs, (id) => service.onlineShow(id)),
  );
  app.post(
    '/api/v3/Tmdb/Movie/Online/Bulk',
    { schema: { tags, body: TmdbOnlineBulkBody, response: { 200: Type.Array(TmdbRemoteSearchMovie) } } },
    (request) => service.onlineBulk(request.body.IDs, (id) => service.onlineMovie(id)),
  );
  app.post(
    '/api/v3/Tmdb/Episode/Bulk',
    {
      schema: {
        tags,
        body: TmdbEpisodeBulkBody,
        response: { 200: Type.Array(TmdbEpisode) },
      },
    },
    (request) => service.episodesByIds(request.body.IDs),
  );

  app.get(
    '/api/v3/Tmdb/Show/:showID',
    {
      schema: {
        tags,
        params: TmdbShowParams,
        querystring: TmdbShowQuery,
        response: { 200: TmdbShow },
      },
    },
    (request) => service.show(request.params.showID, includeSet(request.query.include), request.query.alternateOrderingID || undefined),
  );
  app.get(
    '/api/v3/Tmdb/Show/:showID/Ordering',
    {
      schema: {
        tags,
        params: TmdbShowParams,
        querystring: TmdbOrderingQuery,
        response: { 200: Type.Array(TmdbOrderingInformation) },
      },
    },
    (request) => service.orderings(request.params.showID, request.query.alternateOrderingID || undefined),
  );
  app.post(
    '/api/v3/Tmdb/Show/:showID/Ordering/SetPreferred',
    { schema: { tags, params: TmdbShowParams, body: TmdbSetPreferredOrderingBody } },
    async (request, reply) => {
      await service.setPreferredOrdering(request.params.showID, request.body.AlternateOrderingID);
      return reply.code(200).send();
    },
  );
  app.get(
    '/api/v3/Tmdb/Show/:showID/Episode',
    {
      schema: {
        tags,
        params: TmdbShowParams,
        querystring: TmdbShowEpisodesQuery,
        response: { 200: ListResult(TmdbEpisode) },
      },
    },
    (request) =>
      service.episodes(request.params.showID, {
        alternateOrderingId: request.query.alternateOrderingID || undefined,
        search: request.query.search,
        page: request.query.page,
        pageSize: request.query.pageSize,
      }),
  );
  app.get(
    '/api/v3/Tmdb/Show/:showID/CrossReferences',
    { schema: { tags, params: TmdbShowParams, response: { 200: Type.Array(TmdbShowCrossReference) } } },
    (request) => service.linksOfShow(request.params.showID),
  );
  app.get(
    '/api/v3/Tmdb/Movie/:movieID/CrossReferences',
    { schema: { tags, params: TmdbMovieParams, response: { 200: Type.Array(TmdbMovieCrossReference) } } },
    (request) => service.linksOfMovie(request.params.movieID),
  );

  // Local reads of several shows or movies at once (collection.md §11, "other read endpoints").
  app.post('/api/v3/Tmdb/Show/Bulk', { schema: { tags, body: TmdbLocalBulkBody, response: { 200: Type.Array(TmdbShow) } } }, (request) =>
    service.showsByIds(request.body.IDs, includeSet(request.body.Include)),
  );
  app.post('/api/v3/Tmdb/Movie/Bulk', { schema: { tags, body: TmdbLocalBulkBody, response: { 200: Type.Array(TmdbMovie) } } }, (request) =>
    service.moviesByIds(request.body.IDs, includeSet(request.body.Include)),
  );

  app.get(
    '/api/v3/Tmdb/Movie/:movieID',
    { schema: { tags, params: TmdbMovieParams, querystring: TmdbIncludeQuery, response: { 200: TmdbMovie } } },
    (request) => service.movie(request.params.movieID, includeSet(request.query.include)),
  );

  registerSeriesTmdbRoutes(app, deps);
}

/** `Series/{seriesID}/TMDB/*`: the series' links to TMDB shows and movies. */
function registerSeriesTmdbRoutes(app: App, { service, sync, linking }: TmdbRouteDeps) {
  const seriesTags = ['Series'];
  const animeOf = (seriesId: number) => service.animeOfSeries(seriesId);

  app.post(
    '/api/v3/Series/:seriesID/TMDB/Action/AutoSearch',
    { schema: { tags: seriesTags, params: SeriesParams, querystring: TmdbAutoSearchQuery } },
    async (request, reply) => {
      await linking.queueSearch(await animeOf(request.params.seriesID), { force: request.query.force });
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/v3/Series/:seriesID/TMDB/Action/AutoSearch',
    { schema: { tags: seriesTags, params: SeriesParams, response: { 200: Type.Array(TmdbAutoMatchResult) } } },
    async (request) => linking.previewMatch(await animeOf(request.params.seriesID)).catch(rethrowKeyMissing),
  );

  for (const kind of ['Show', 'Movie'] as const) {
    app.post(
      `/api/v3/Series/:seriesID/TMDB/${kind}/Action/DownloadImages`,
      { config: admin, schema: { tags: seriesTags, params: SeriesParams, body: TmdbDownloadImagesBody } },
      async (request, reply) => {
        await sync.downloadImagesOfAnime(await animeOf(request.params.seriesID), kind);
        return reply.code(request.body.Immediate ? 200 : 204).send();
      },
    );
  }

  app.get(
    '/api/v3/Series/:seriesID/TMDB/Show/CrossReferences/EpisodeGroups',
    {
      schema: {
        tags: seriesTags,
        params: SeriesParams,
        querystring: TmdbEpisodeLinksQuery,
        response: { 200: ListResult(Type.Array(TmdbEpisodeCrossReference)) },
      },
    },
    async (request) => {
      const { tmdbShowID, page: pageNumber, pageSize } = request.query;
      return service.episodeLinkGroups(await animeOf(request.params.seriesID), { tmdbShowId: tmdbShowID, page: pageNumber, pageSize });
    },
  );

  app.get(
    '/api/v3/Series/:seriesID/TMDB/Show',
    { schema: { tags: seriesTags, params: SeriesParams, querystring: TmdbIncludeQuery, response: { 200: Type.Array(TmdbShow) } } },
    async (request) => service.showsOfAnime(await animeOf(request.params.seriesID), includeSet(request.query.include)),
  );
  app.get(
    '/api/v3/Series/:seriesID/TMDB/Movie',
    {
      schema: { tags: seriesTags, params: SeriesParams, querystring: TmdbIncludeQuery, response: { 200: Type.Array(TmdbMovie) } },
    },
    async (request) => service.moviesOfAnime(await animeOf(request.params.seriesID), includeSet(request.query.include)),
  );
  app.get(
    '/api/v3/Series/:seriesID/TMDB/Show/CrossReferences',
    { schema: { tags: seriesTags, params: SeriesParams, response: { 200: Type.Array(TmdbShowCrossReference) } } },
    async (request) => service.showLinks(await animeOf(request.params.seriesID)),
  );
  app.get(
    '/api/v3/Series/:seriesID/TMDB/Movie/CrossReferences',
    { schema: { tags: seriesTags, params: SeriesParams, response: { 200: Type.Array(TmdbMovieCrossReference) } } },
    async (request) => service.movieLinks(await animeOf(request.params.seriesID)),
  );
  app.get(
    '/api/v3/Series/:seriesID/TMDB/Show/CrossReferences/Episode',
    {
      schema: {
        tags: seriesTags,
        params: SeriesParams,
        querystring: TmdbEpisodeLinksQuery,
        response: { 200: ListResult(TmdbEpisodeCrossReference) },
      },
    },
    async (request) => {
      return service.episodeLinks(await animeOf(request.params.seriesID), {
        tmdbShowId: request.query.tmdbShowID || undefined,
        page: request.query.page,
        pageSize: request.query.pageSize,
      });
    },
  );

  const episodeLinksPath = '/api/v3/Series/:seriesID/TMDB/Show/CrossReferences/Episode';
  app.post(
    episodeLinksPath,
    { config: admin, schema: { tags: seriesTags, params: SeriesParams, body: TmdbOverrideEpisodeMappingBody } },
    async (request, reply) => {
      await linking.overrideEpisodeLinks(await animeOf(request.params.seriesID), request.body);
      return reply.code(204).send();
    },
  );

  app.delete(episodeLinksPath, { config: admin, schema: { tags: seriesTags, params: SeriesParams } }, async (request, reply) => {
    await linking.removeEpisodeLinks(await animeOf(request.params.seriesID));
    return reply.code(204).send();
  });

  app.get(
    `${episodeLinksPath}/Auto`,
    {
      config: admin,
      schema: {
        tags: seriesTags,
        params: SeriesParams,
        querystring: TmdbAutoEpisodeLinksQuery,
        response: { 200: ListResult(TmdbEpisodeCrossReference) },
      },
    },
    async (request) => {
      const animeId = await animeOf(request.params.seriesID);
      const query = request.query;
      const target = await linking.autoMatchTarget(animeId, { showId: query.tmdbShowID, seasonId: query.tmdbSeasonID });
      if (!target.stored) throw validationError('tmdbShowID', 'The TMDB show is not stored locally yet; refresh it first.');
      const links = await linking.planEpisodeLinks(animeId, target.showId, {
        keepExisting: query.keepExisting,
        seasonId: query.tmdbSeasonID,
      });
      return page(
        links.map((link) => planCrossReference(animeId, target.showId, link)),
        query.page,
        query.pageSize,
      );
    },
  );

  app.post(
    `${episodeLinksPath}/Auto`,
    { config: admin, schema: { tags: seriesTags, params: SeriesParams, body: NullableTmdbAutoMatchEpisodesBody } },
    async (request, reply) => {
      // Not stored yet: the queued refresh matches the episodes once the show is stored (201).
      const outcome = await linking.autoMatchEpisodesOfAnime(await animeOf(request.params.seriesID), request.body ?? {});
      return reply.code(outcome === 'queued' ? 201 : 204).send();
    },
  );

  app.post(
    '/api/v3/Series/:seriesID/TMDB/Show',
    { config: admin, schema: { tags: seriesTags, params: SeriesParams, body: TmdbLinkShowBody } },
    async (request, reply) => {
      await linking.linkShow(await animeOf(request.params.seriesID), request.body);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/v3/Series/:seriesID/TMDB/Show',
    { config: admin, schema: { tags: seriesTags, params: SeriesParams, body: NullableTmdbUnlinkBody } },
    async (request, reply) => {
      await linking.unlinkShows(await animeOf(request.params.seriesID), request.body?.ID ? request.body.ID : null);
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/v3/Series/:seriesID/TMDB/Movie',
    { config: admin, schema: { tags: seriesTags, params: SeriesParams, body: TmdbLinkMovieBody } },
    async (request, reply) => {
      const animeId = await animeOf(request.params.seriesID);
      const { EpisodeID, ...link } = request.body;
      await linking.requireEpisodeOfAnime(animeId, EpisodeID);
      await linking.linkMovie(animeId, EpisodeID, link);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/v3/Series/:seriesID/TMDB/Movie',
    { config: admin, schema: { tags: seriesTags, params: SeriesParams, body: NullableTmdbUnlinkMovieBody } },
    async (request, reply) => {
      const animeId = await animeOf(request.params.seriesID);
      const body = request.body ?? {};
      if (body.EpisodeID) await linking.requireEpisodeOfAnime(animeId, body.EpisodeID);
      await linking.unlinkMovies(animeId, { movieId: body.ID || undefined, episodeId: body.EpisodeID || undefined });
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/v3/Series/:seriesID/TMDB/Show/Action/Refresh',
    { config: admin, schema: { tags: seriesTags, params: SeriesParams, body: TmdbRefreshShowBody } },
    async (request, reply) => {
      const showIds = await service.linkedShowIds(await animeOf(request.params.seriesID));
      const body = request.body;
      const options = {
        force: body.Force,
        downloadImages: body.DownloadImages,
        downloadCrewAndCast: body.DownloadCrewAndCast ?? null,
        downloadAlternateOrdering: body.DownloadAlternateOrdering ?? null,
      };
      for (const showId of showIds) {
        if (body.Immediate) await sync.refreshShow(showId, options).catch(rethrowKeyMissing);
        else await sync.queueShow(showId, options);
      }
      return reply.code(body.Immediate ? 200 : 204).send();
    },
  );

  app.post(
    '/api/v3/Series/:seriesID/TMDB/Movie/Action/Refresh',
    { config: admin, schema: { tags: seriesTags, params: SeriesParams, body: TmdbRefreshMovieBody } },
    async (request, reply) => {
      const movieIds = await service.linkedMovieIds(await animeOf(request.params.seriesID));
      const body = request.body;
      const options = { force: body.Force, downloadImages: body.DownloadImages, downloadCrewAndCast: body.DownloadCrewAndCast ?? null };
      for (const movieId of movieIds) {
        if (body.SkipIfExists && (await service.isMovieStored(movieId))) continue;
        if (body.Immediate) await sync.refreshMovie(movieId, options).catch(rethrowKeyMissing);
        else await sync.queueMovie(movieId, options);
      }
      return reply.code(body.Immediate ? 200 : 204).send();
    },
  );
}
