import { Type } from '@sinclair/typebox';
import {
  ListResult,
  TmdbEpisode,
  TmdbEpisodeCrossReference,
  TmdbLinkMovieBody,
  TmdbAutoMatchEpisodesBody,
  TmdbAutoMatchResult,
  TmdbLinkShowBody,
  TmdbMovie,
  TmdbMovieCrossReference,
  TmdbOrderingInformation,
  TmdbOverrideEpisodeMappingBody,
  TmdbRefreshMovieBody,
  TmdbRefreshShowBody,
  TmdbRemoteSearchMovie,
  TmdbRemoteSearchShow,
  TmdbShow,
  TmdbShowCrossReference,
  TmdbUnlinkBody,
  TmdbUnlinkMovieBody,
} from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { badRequest, notFound, validationError } from '../../http/problem.js';
import { TmdbKeyMissingError } from './tmdb-api.js';
import type { TmdbLinking } from './tmdb-linking.service.js';
import type { RefreshOutcome, TmdbSync } from './tmdb-sync.service.js';
import type { TmdbStore } from './tmdb.store.js';
import { page, type TmdbService } from './tmdb.service.js';
import { episodeCrossReference, groupEpisodeLinks, planCrossReference } from './tmdb-models.js';
import { registerEpisodeTmdbRoutes } from './tmdb-episode.routes.js';

const tags = ['TMDB'];
const admin = { auth: 'admin' } as const;
export const ShowParams = Type.Object({ showID: Type.Integer({ minimum: 1 }) });
export const MovieParams = Type.Object({ movieID: Type.Integer({ minimum: 1 }) });
const SeriesParams = Type.Object({ seriesID: Type.Integer({ minimum: 1 }) });
/** `TmdbDownloadImagesBody`: only the routes read it, the console never sends it. */
const TmdbDownloadImagesBody = Type.Object({ Force: Type.Boolean({ default: false }), Immediate: Type.Boolean({ default: false }) });
export const IncludeQuery = {
  include: Type.Optional(Type.Array(Type.String())),
  language: Type.Optional(Type.Array(Type.String())),
};
const PageQuery = (pageSize: number) => ({
  pageSize: Type.Integer({ minimum: 0, maximum: 1000, default: pageSize }),
  page: Type.Integer({ minimum: 1, default: 1 }),
});
const SearchQuery = Type.Object({
  query: Type.String({ default: '' }),
  includeRestricted: Type.Boolean({ default: false }),
  year: Type.Integer({ minimum: 0, default: 0 }),
  pageSize: Type.Integer({ minimum: 0, maximum: 100, default: 6 }),
  page: Type.Integer({ minimum: 1, default: 1 }),
});

export const includeSet = (include: string[] | undefined) =>
  new Set(
    (include ?? [])
      .flatMap((value) => value.split(','))
      .map((value) => value.trim())
      .map((value) => value.charAt(0).toUpperCase() + value.slice(1)),
  );

export interface TmdbRouteDeps {
  service: TmdbService;
  sync: TmdbSync;
  linking: TmdbLinking;
  store: TmdbStore;
}

/** The TMDB controller's routes (local data, live search, refresh) and the series' TMDB links. */
export function registerTmdbRoutes(app: App, deps: TmdbRouteDeps) {
  const { service, sync, store } = deps;

  /** An immediate refresh runs now: a missing key is the caller's to fix (400), an unknown id is a 404. */
  const runNow = async (refresh: () => Promise<RefreshOutcome>, missing: string) => {
    if ((await refresh().catch(rethrowKeyMissing)) === 'not-found') throw notFound(missing);
  };

  app.post(
    '/api/v3/Tmdb/Show/:showID/Action/Refresh',
    { config: admin, schema: { tags, params: ShowParams, body: TmdbRefreshShowBody } },
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
      if (body.QuickRefresh && (await store.episodesOfShow(showID)).length > 0) return reply.code(200).send();
      await runNow(() => sync.refreshShow(showID, options), 'Show not found on TMDB.');
      return reply.code(200).send();
    },
  );

  app.post(
    '/api/v3/Tmdb/Movie/:movieID/Action/Refresh',
    { config: admin, schema: { tags, params: MovieParams, body: TmdbRefreshMovieBody } },
    async (request, reply) => {
      const { movieID } = request.params;
      const body = request.body;
      if (body.SkipIfExists && (await store.movie(movieID))) return reply.code(200).send();
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
    { config: admin, schema: { tags, querystring: SearchQuery, response: { 200: ListResult(TmdbRemoteSearchShow) } } },
    (request) => service.searchShows(request.query),
  );
  app.get(
    '/api/v3/Tmdb/Movie/Online/Search',
    { config: admin, schema: { tags, querystring: SearchQuery, response: { 200: ListResult(TmdbRemoteSearchMovie) } } },
    (request) => service.searchMovies(request.query),
  );
  app.get(
    '/api/v3/Tmdb/Show/Online/:showID',
    { schema: { tags, params: ShowParams, response: { 200: TmdbRemoteSearchShow } } },
    (request) => service.onlineShow(request.params.showID),
  );
  app.get(
    '/api/v3/Tmdb/Movie/Online/:movieID',
    { schema: { tags, params: MovieParams, response: { 200: TmdbRemoteSearchMovie } } },
    (request) => service.onlineMovie(request.params.movieID),
  );

  const BulkBody = Type.Object({ IDs: Type.Array(Type.Integer({ minimum: 1 })) });
  app.post(
    '/api/v3/Tmdb/Show/Online/Bulk',
    { schema: { tags, body: BulkBody, response: { 200: Type.Array(TmdbRemoteSearchShow) } } },
    (request) => service.onlineBulk(request.body.IDs, (id) => service.onlineShow(id)),
  );
  app.post(
    '/api/v3/Tmdb/Movie/Online/Bulk',
    { schema: { tags, body: BulkBody, response: { 200: Type.Array(TmdbRemoteSearchMovie) } } },
    (request) => service.onlineBulk(request.body.IDs, (id) => service.onlineMovie(id)),
  );
  app.post(
    '/api/v3/Tmdb/Episode/Bulk',
    {
      schema: {
        tags,
        body: Type.Object({
          IDs: Type.Array(Type.Integer()),
          Include: Type.Optional(Type.Array(Type.String())),
          Language: Type.Optional(Type.Array(Type.String())),
        }),
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
        params: ShowParams,
        querystring: Type.Object({ ...IncludeQuery, alternateOrderingID: Type.Optional(Type.String()) }),
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
        params: ShowParams,
        querystring: Type.Object({ alternateOrderingID: Type.Optional(Type.String()) }),
        response: { 200: Type.Array(TmdbOrderingInformation) },
      },
    },
    (request) => service.orderings(request.params.showID, request.query.alternateOrderingID || undefined),
  );
  app.post(
    '/api/v3/Tmdb/Show/:showID/Ordering/SetPreferred',
    { schema: { tags, params: ShowParams, body: Type.Object({ AlternateOrderingID: Type.String() }) } },
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
        params: ShowParams,
        querystring: Type.Object({
          ...IncludeQuery,
          alternateOrderingID: Type.Optional(Type.String()),
          search: Type.Optional(Type.String()),
          fuzzy: Type.Boolean({ default: false }),
          includeHidden: Type.Optional(Type.String()),
          ...PageQuery(100),
        }),
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
    '/api/v3/Tmdb/Movie/:movieID',
    { schema: { tags, params: MovieParams, querystring: Type.Object(IncludeQuery), response: { 200: TmdbMovie } } },
    (request) => service.movie(request.params.movieID, includeSet(request.query.include)),
  );

  registerSeriesTmdbRoutes(app, deps);
  registerEpisodeTmdbRoutes(app, deps);
}

/** `Series/{seriesID}/TMDB/*`: the series' links to TMDB shows and movies. */
function registerSeriesTmdbRoutes(app: App, { service, sync, linking, store }: TmdbRouteDeps) {
  const seriesTags = ['Series'];
  const animeOf = async (seriesId: number): Promise<number> => {
    const animeId = await store.animeOfSeries(seriesId);
    if (animeId === null) throw notFound('No Series entry for the given seriesID');
    return animeId;
  };

  app.post(
    '/api/v3/Series/:seriesID/TMDB/Action/AutoSearch',
    { schema: { tags: seriesTags, params: SeriesParams, querystring: Type.Object({ force: Type.Boolean({ default: false }) }) } },
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
        const animeId = await animeOf(request.params.seriesID);
        const ids =
          kind === 'Show'
            ? (await store.showLinksOfAnime(animeId)).map((link) => link.show_id)
            : [...new Set((await store.movieLinksOfAnime(animeId)).map((link) => link.movie_id))];
        for (const id of ids)
          if (kind === 'Show' ? await store.show(id) : await store.movie(id)) await sync.downloadImages({ type: kind, id });
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
        querystring: Type.Object({ tmdbShowID: Type.Optional(Type.Integer({ minimum: 0 })), ...PageQuery(50) }),
        response: { 200: ListResult(Type.Array(TmdbEpisodeCrossReference)) },
      },
    },
    async (request) => {
      const animeId = await animeOf(request.params.seriesID);
      const { tmdbShowID, page: pageNumber, pageSize } = request.query;
      if (tmdbShowID && !(await store.showLinksOfAnime(animeId)).some((link) => link.show_id === tmdbShowID)) {
        throw validationError('tmdbShowID', 'The TMDB show is not linked to the series.');
      }
      const links = (await store.episodeLinksOfAnime(animeId, tmdbShowID || undefined)).map(episodeCrossReference);
      return page(groupEpisodeLinks(links), pageNumber, pageSize);
    },
  );

  app.get(
    '/api/v3/Series/:seriesID/TMDB/Show',
    { schema: { tags: seriesTags, params: SeriesParams, querystring: Type.Object(IncludeQuery), response: { 200: Type.Array(TmdbShow) } } },
    async (request) => service.showsOfAnime(await animeOf(request.params.seriesID), includeSet(request.query.include)),
  );
  app.get(
    '/api/v3/Series/:seriesID/TMDB/Movie',
    {
      schema: { tags: seriesTags, params: SeriesParams, querystring: Type.Object(IncludeQuery), response: { 200: Type.Array(TmdbMovie) } },
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
        querystring: Type.Object({ tmdbShowID: Type.Optional(Type.Integer({ minimum: 0 })), ...PageQuery(50) }),
        response: { 200: ListResult(TmdbEpisodeCrossReference) },
      },
    },
    async (request) => {
      const animeId = await animeOf(request.params.seriesID);
      if (!(await store.showLinksOfAnime(animeId)).length) throw notFound('No TMDB.Show entry for the given seriesID');
      return service.episodeLinks(animeId, {
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
    await store.removeEpisodeLinks(await animeOf(request.params.seriesID));
    return reply.code(204).send();
  });

  app.get(
    `${episodeLinksPath}/Auto`,
    {
      config: admin,
      schema: {
        tags: seriesTags,
        params: SeriesParams,
        querystring: Type.Object({
          tmdbShowID: Type.Optional(Type.Integer({ minimum: 1 })),
          tmdbSeasonID: Type.Optional(Type.Integer({ minimum: 1 })),
          keepExisting: Type.Boolean({ default: true }),
          considerExistingOtherLinks: Type.Optional(Type.Boolean()),
          ...PageQuery(50),
        }),
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
    { config: admin, schema: { tags: seriesTags, params: SeriesParams, body: Type.Union([TmdbAutoMatchEpisodesBody, Type.Null()]) } },
    async (request, reply) => {
      const animeId = await animeOf(request.params.seriesID);
      const body = request.body ?? {};
      const target = await linking.autoMatchTarget(animeId, { showId: body.TmdbShowID, seasonId: body.TmdbSeasonID });
      if (!target.linked) await store.linkShow(animeId, target.showId, 'User');
      // Not stored yet: the queued refresh matches the episodes once the show is stored.
      if (!target.stored) {
        await sync.queueShow(target.showId);
        return reply.code(201).send();
      }
      await linking.matchEpisodes(animeId, target.showId, {
        keepExisting: body.KeepExisting ?? true,
        seasonId: body.TmdbSeasonID ?? undefined,
      });
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/v3/Series/:seriesID/TMDB/Show',
    { config: admin, schema: { tags: seriesTags, params: SeriesParams, body: TmdbLinkShowBody } },
    async (request, reply) => {
      const animeId = await animeOf(request.params.seriesID);
      const { ID, Replace, Refresh } = request.body;
      await store.linkShow(animeId, ID, 'User', { replace: Replace });
      // A stored show is matched now; otherwise the queued refresh matches once the show is stored.
      if (!Refresh && (await store.show(ID))) await linking.matchEpisodes(animeId, ID);
      else await sync.queueShow(ID, { force: Refresh });
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/v3/Series/:seriesID/TMDB/Show',
    { config: admin, schema: { tags: seriesTags, params: SeriesParams, body: Type.Union([TmdbUnlinkBody, Type.Null()]) } },
    async (request, reply) => {
      await store.unlinkShows(await animeOf(request.params.seriesID), request.body?.ID ? request.body.ID : null);
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/v3/Series/:seriesID/TMDB/Movie',
    { config: admin, schema: { tags: seriesTags, params: SeriesParams, body: TmdbLinkMovieBody } },
    async (request, reply) => {
      const animeId = await animeOf(request.params.seriesID);
      const { ID, EpisodeID, Replace, Refresh } = request.body;
      if (!(await store.anidbEpisodes(animeId)).some((episode) => episode.id === EpisodeID)) {
        throw validationError('EpisodeID', 'The AniDB episode does not belong to the series.');
      }
      await store.linkMovie(animeId, EpisodeID, ID, 'User', { replace: Replace });
      if (Refresh || !(await store.movie(ID))) await sync.queueMovie(ID, { force: Refresh });
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/v3/Series/:seriesID/TMDB/Movie',
    { config: admin, schema: { tags: seriesTags, params: SeriesParams, body: Type.Union([TmdbUnlinkMovieBody, Type.Null()]) } },
    async (request, reply) => {
      const animeId = await animeOf(request.params.seriesID);
      const body = request.body ?? {};
      if (body.EpisodeID && !(await store.anidbEpisodes(animeId)).some((episode) => episode.id === body.EpisodeID)) {
        throw validationError('EpisodeID', 'The AniDB episode does not belong to the series.');
      }
      await store.unlinkMovies(animeId, { movieId: body.ID || undefined, episodeId: body.EpisodeID || undefined });
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/v3/Series/:seriesID/TMDB/Show/Action/Refresh',
    { config: admin, schema: { tags: seriesTags, params: SeriesParams, body: TmdbRefreshShowBody } },
    async (request, reply) => {
      const links = await store.showLinksOfAnime(await animeOf(request.params.seriesID));
      const body = request.body;
      const options = {
        force: body.Force,
        downloadImages: body.DownloadImages,
        downloadCrewAndCast: body.DownloadCrewAndCast ?? null,
        downloadAlternateOrdering: body.DownloadAlternateOrdering ?? null,
      };
      for (const link of links) {
        if (body.Immediate) await sync.refreshShow(link.show_id, options).catch(rethrowKeyMissing);
        else await sync.queueShow(link.show_id, options);
      }
      return reply.code(body.Immediate ? 200 : 204).send();
    },
  );

  app.post(
    '/api/v3/Series/:seriesID/TMDB/Movie/Action/Refresh',
    { config: admin, schema: { tags: seriesTags, params: SeriesParams, body: TmdbRefreshMovieBody } },
    async (request, reply) => {
      const links = await store.movieLinksOfAnime(await animeOf(request.params.seriesID));
      const body = request.body;
      const options = { force: body.Force, downloadImages: body.DownloadImages, downloadCrewAndCast: body.DownloadCrewAndCast ?? null };
      for (const movieId of new Set(links.map((link) => link.movie_id))) {
        if (body.SkipIfExists && (await store.movie(movieId))) continue;
        if (body.Immediate) await sync.refreshMovie(movieId, options).catch(rethrowKeyMissing);
        else await sync.queueMovie(movieId, options);
      }
      return reply.code(body.Immediate ? 200 : 204).send();
    },
  );
}

/** Work done now needs the key: its absence is the caller's to fix (400). */
export function rethrowKeyMissing(error: unknown): never {
  if (error instanceof TmdbKeyMissingError) throw badRequest(error.message);
  throw error;
}
