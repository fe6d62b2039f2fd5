import { Type, type TSchema } from '@sinclair/typebox';
import {
  EpisodeQuery,
  File,
  FileCrossReference,
  FileListQuery,
  Images,
  ListResult,
  SeriesQuery,
  TmdbCollectionListQuery,
  TmdbCollectionParams,
  TmdbContentRating,
  TmdbDownloadImagesBody,
  TmdbEpisode,
  TmdbEpisodeCrossReference,
  TmdbEpisodeImages,
  TmdbEpisodeOrderingInformation,
  TmdbEpisodeParams,
  TmdbImagesQuery,
  TmdbIncludeQuery,
  TmdbLanguageQuery,
  TmdbMovie,
  TmdbMovieCollection,
  TmdbMovieListQuery,
  TmdbMovieParams,
  TmdbOrderingIncludeQuery,
  TmdbOrderingQuery,
  TmdbOverview,
  TmdbPageQuery,
  TmdbRole,
  TmdbSeason,
  TmdbSeasonEpisodesQuery,
  TmdbSeasonParams,
  TmdbShow,
  TmdbShowListQuery,
  TmdbShowParams,
  TmdbShowSeasonsQuery,
  TmdbStudio,
  TmdbTitle,
  TmdbYearlySeason,
} from '@shoko-ts/contract';
import { listItems } from '../../http/list-query.js';
import { HttpError, notFound } from '../../http/problem.js';
import type { App } from '../../http/types.js';
import { callerId } from '../../http/viewer.js';
import type { TmdbLocalSeasons } from './tmdb-local-seasons.service.js';
import { MOVIE_COLLECTION_NOT_FOUND, orderingParam, type LinkedIds, type TmdbLocalService } from './tmdb-local.service.js';

const tags = ['TMDB'];
const admin = { auth: 'admin' } as const;

/** The other domains' readers the AniDB/Shoko sub-routes answer with (each may refuse an entry: 403/404 skip it). */
export interface TmdbLinkedReaders {
  /** The AniDB anime, 403 when hidden from the user (left out of the list). */
  anidbAnime: (userId: number | null, animeId: number) => Promise<unknown>;
  anidbEpisode: (anidbEpisodeId: number) => Promise<unknown>;
  series: (userId: number | null, seriesId: number, query: SeriesQuery) => Promise<unknown>;
  episode: (userId: number | null, episodeId: number, query: EpisodeQuery) => Promise<unknown>;
  /** A page of the files among `contents` (`ed2k:size`) as `GET File` filters and sorts them. */
  files: (query: FileListQuery, scope: { contents: Set<string>; viewerId?: number }) => Promise<ListResult<File>>;
}

export interface TmdbLocalRouteDeps {
  local: TmdbLocalService;
  seasons: TmdbLocalSeasons;
  readers: TmdbLinkedReaders;
}

/** Every id read; entries the caller may not see (403/404) are left out. */
async function readAll(ids: number[], read: (id: number) => Promise<unknown>): Promise<unknown[]> {
  const result: unknown[] = [];
  for (const id of ids) {
    try {
      result.push(await read(id));
    } catch (error) {
      if (error instanceof HttpError && (error.status === 404 || error.status === 403)) continue;
      throw error;
    }
  }
  return result;
}

/** The local-data TMDB routes: Tmdb/Movie/**, Tmdb/Movie/Collection/**, Tmdb/Show/**, Tmdb/Season/**, Tmdb/Episode/**. */
export function registerTmdbLocalRoutes(app: App, deps: TmdbLocalRouteDeps) {
  const { local, seasons, readers } = deps;
  const list = (item: TSchema) => ({ 200: Type.Array(item) });

  /** AniDB/Anime, AniDB/Episode, Shoko/Series, Shoko/Episode of one kind of TMDB entry. */
  const linkedRoutes = (
    base: string,
    params: TSchema,
    links: (params: never) => Promise<LinkedIds>,
    anidbEpisodePath = 'AniDB/Episode',
  ) => {
    app.get(`${base}/AniDB/Anime`, { schema: { tags, params } }, async (request) => {
      const userId = callerId(request.principal);
      return readAll((await links(request.params as never)).animeIds, (id) => readers.anidbAnime(userId, id));
    });
    app.get(`${base}/${anidbEpisodePath}`, { schema: { tags, params } }, async (request) =>
      readAll((await links(request.params as never)).anidbEpisodeIds, readers.anidbEpisode),
    );
    app.get(`${base}/Shoko/Series`, { schema: { tags, params, querystring: SeriesQuery } }, async (request) => {
      const userId = callerId(request.principal);
      const query = request.query as SeriesQuery;
      return readAll((await links(request.params as never)).seriesIds, (id) => readers.series(userId, id, query));
    });
    app.get(`${base}/Shoko/Episode`, { schema: { tags, params, querystring: EpisodeQuery } }, async (request) => {
      const userId = callerId(request.principal);
      const query = request.query as EpisodeQuery;
      return readAll((await links(request.params as never)).shokoEpisodeIds, (id) => readers.episode(userId, id, query));
    });
    app.get(
      `${base}/Shoko/File`,
      { schema: { tags, params, querystring: FileListQuery, response: { 200: ListResult(File) } } },
      async (request) => {
        const contents = await local.fileContents((await links(request.params as never)).anidbEpisodeIds);
        return readers.files(request.query as FileListQuery, { contents, viewerId: callerId(request.principal) ?? undefined });
      },
    );
  };

  // ── movies ────────────────────────────────────────────────────────────────────────────────

  app.get(
    '/api/v3/Tmdb/Movie',
    { schema: { tags, querystring: TmdbMovieListQuery, response: { 200: ListResult(TmdbMovie) } } },
    (request) => local.movies(request.query),
  );
  app.delete('/api/v3/Tmdb/Movie/:movieID', { config: admin, schema: { tags, params: TmdbMovieParams } }, async (request, reply) => {
    await local.purgeMovie(request.params.movieID);
    return reply.code(204).send();
  });
  const movie = '/api/v3/Tmdb/Movie/:movieID';
  const movieSchema = { tags, params: TmdbMovieParams };
  app.get(`${movie}/Titles`, { schema: { ...movieSchema, querystring: TmdbLanguageQuery, response: list(TmdbTitle) } }, (request) =>
    local.movieTitles(request.params.movieID, listItems(request.query.language)),
  );
  app.get(`${movie}/Overviews`, { schema: { ...movieSchema, querystring: TmdbLanguageQuery, response: list(TmdbOverview) } }, (request) =>
    local.movieOverviews(request.params.movieID, listItems(request.query.language)),
  );
  app.get(`${movie}/Images`, { schema: { ...movieSchema, querystring: TmdbImagesQuery, response: { 200: Images } } }, (request) =>
    local.movieImages(request.params.movieID, request.query.includeDisabled),
  );
  app.get(`${movie}/Cast`, { schema: { ...movieSchema, response: list(TmdbRole) } }, (request) =>
    local.movieDetail(request.params.movieID, 'Cast'),
  );
  app.get(`${movie}/Crew`, { schema: { ...movieSchema, response: list(TmdbRole) } }, (request) =>
    local.movieDetail(request.params.movieID, 'Crew'),
  );
  app.get(`${movie}/Studios`, { schema: { ...movieSchema, response: list(TmdbStudio) } }, (request) =>
    local.movieDetail(request.params.movieID, 'Studios'),
  );
  app.get(
    `${movie}/ContentRatings`,
    { schema: { ...movieSchema, querystring: TmdbLanguageQuery, response: list(TmdbContentRating) } },
    (request) => local.movieDetail(request.params.movieID, 'ContentRatings'),
  );
  app.get(`${movie}/Keywords`, { schema: { ...movieSchema, response: list(Type.String()) } }, (request) =>
    local.movieDetail(request.params.movieID, 'Keywords'),
  );
  app.get(
    `${movie}/ProductionCountries`,
    { schema: { ...movieSchema, response: { 200: Type.Record(Type.String(), Type.String()) } } },
    (request) => local.movieDetail(request.params.movieID, 'ProductionCountries'),
  );
  app.get(`${movie}/YearlySeasons`, { schema: { ...movieSchema, response: list(TmdbYearlySeason) } }, (request) =>
    local.movieYearlySeasons(request.params.movieID),
  );
  app.get(`${movie}/FileCrossReferences`, { schema: { ...movieSchema, response: list(FileCrossReference) } }, async (request) =>
    local.fileCrossReferences((await local.movieLinks(request.params.movieID)).anidbEpisodeIds),
  );
  app.get(`${movie}/Collection`, { schema: { ...movieSchema, querystring: TmdbIncludeQuery } }, (request) =>
    local.movieCollection(request.params.movieID),
  );
  app.post(
    `${movie}/Action/DownloadImages`,
    { config: admin, schema: { ...movieSchema, body: TmdbDownloadImagesBody } },
    async (request, reply) => {
      await local.downloadMovieImages(request.params.movieID);
      return reply.code(request.body.Immediate ? 200 : 204).send();
    },
  );
  linkedRoutes(movie, TmdbMovieParams, (p: { movieID: number }) => local.movieLinks(p.movieID));

  // ── movie collections (none are stored) ───────────────────────────────────────────────────

  app.get(
    '/api/v3/Tmdb/Movie/Collection',
    { schema: { tags, querystring: TmdbCollectionListQuery, response: { 200: ListResult(TmdbMovieCollection) } } },
    () => ({ Total: 0, List: [] }),
  );
  for (const sub of ['', '/Titles', '/Overviews', '/Images', '/Movie']) {
    app.get(`/api/v3/Tmdb/Movie/Collection/:collectionID${sub}`, { schema: { tags, params: TmdbCollectionParams } }, () => {
      throw notFound(MOVIE_COLLECTION_NOT_FOUND);
    });
  }

  // ── shows ─────────────────────────────────────────────────────────────────────────────────

  app.get('/api/v3/Tmdb/Show', { schema: { tags, querystring: TmdbShowListQuery, response: { 200: ListResult(TmdbShow) } } }, (request) =>
    local.shows(request.query),
  );
  app.delete('/api/v3/Tmdb/Show/:showID', { config: admin, schema: { tags, params: TmdbShowParams } }, async (request, reply) => {
    await local.purgeShow(request.params.showID);
    return reply.code(204).send();
  });
  const show = '/api/v3/Tmdb/Show/:showID';
  const showSchema = { tags, params: TmdbShowParams };
  app.get(`${show}/Titles`, { schema: { ...showSchema, querystring: TmdbLanguageQuery, response: list(TmdbTitle) } }, (request) =>
    local.showTitles(request.params.showID, listItems(request.query.language)),
  );
  app.get(`${show}/Overviews`, { schema: { ...showSchema, querystring: TmdbLanguageQuery, response: list(TmdbOverview) } }, (request) =>
    local.showOverviews(request.params.showID, listItems(request.query.language)),
  );
  app.get(`${show}/Images`, { schema: { ...showSchema, querystring: TmdbImagesQuery, response: { 200: Images } } }, (request) =>
    local.showImages(request.params.showID, request.query.includeDisabled),
  );
  for (const key of ['Cast', 'Crew'] as const) {
    app.get(`${show}/${key}`, { schema: { ...showSchema, querystring: TmdbOrderingIncludeQuery, response: list(TmdbRole) } }, (request) =>
      local.showDetail(request.params.showID, key, orderingParam(request.query.alternateOrderingID)),
    );
  }
  app.get(`${show}/Studios`, { schema: { ...showSchema, response: list(TmdbStudio) } }, (request) =>
    local.showDetail(request.params.showID, 'Studios'),
  );
  app.get(`${show}/Networks`, { schema: { ...showSchema, response: list(TmdbStudio) } }, (request) =>
    local.showNetworks(request.params.showID),
  );
  app.get(
    `${show}/ContentRatings`,
    { schema: { ...showSchema, querystring: TmdbLanguageQuery, response: list(TmdbContentRating) } },
    (request) => local.showDetail(request.params.showID, 'ContentRatings'),
  );
  app.get(`${show}/Keywords`, { schema: { ...showSchema, response: list(Type.String()) } }, (request) =>
    local.showDetail(request.params.showID, 'Keywords'),
  );
  app.get(
    `${show}/ProductionCountries`,
    { schema: { ...showSchema, response: { 200: Type.Record(Type.String(), Type.String()) } } },
    (request) => local.showDetail(request.params.showID, 'ProductionCountries'),
  );
  app.get(`${show}/YearlySeasons`, { schema: { ...showSchema, response: list(TmdbYearlySeason) } }, (request) =>
    local.showYearlySeasons(request.params.showID),
  );
  app.get(`${show}/DaysOfWeek`, { schema: { ...showSchema, response: list(Type.String()) } }, (request) =>
    local.showDaysOfWeek(request.params.showID),
  );
  app.get(
    `${show}/Season`,
    { schema: { ...showSchema, querystring: TmdbShowSeasonsQuery, response: { 200: ListResult(TmdbSeason) } } },
    (request) =>
      seasons.seasonsOfShow(request.params.showID, {
        ...request.query,
        alternateOrderingID: orderingParam(request.query.alternateOrderingID),
      }),
  );
  app.get(
    `${show}/Episode/CrossReferences`,
    { schema: { ...showSchema, querystring: TmdbPageQuery, response: { 200: ListResult(TmdbEpisodeCrossReference) } } },
    (request) => local.showEpisodeCrossReferences(request.params.showID, request.query.page, request.query.pageSize),
  );
  app.get(
    `${show}/Episode/CrossReferences/EpisodeGroups`,
    { schema: { ...showSchema, querystring: TmdbPageQuery, response: { 200: ListResult(Type.Array(TmdbEpisodeCrossReference)) } } },
    (request) => local.showEpisodeCrossReferenceGroups(request.params.showID, request.query.page, request.query.pageSize),
  );
  app.post(
    `${show}/Action/DownloadImages`,
    { config: admin, schema: { ...showSchema, body: TmdbDownloadImagesBody } },
    async (request, reply) => {
      await local.downloadShowImages(request.params.showID);
      return reply.code(request.body.Immediate ? 200 : 204).send();
    },
  );
  linkedRoutes(show, TmdbShowParams, (p: { showID: number }) => local.showLinks(p.showID));

  // ── seasons ───────────────────────────────────────────────────────────────────────────────

  const season = '/api/v3/Tmdb/Season/:seasonID';
  const seasonSchema = { tags, params: TmdbSeasonParams };
  app.get(season, { schema: { ...seasonSchema, querystring: TmdbIncludeQuery, response: { 200: TmdbSeason } } }, (request) =>
    seasons.season(request.params.seasonID, request.query.include),
  );
  app.get(`${season}/Titles`, { schema: { ...seasonSchema, querystring: TmdbLanguageQuery, response: list(TmdbTitle) } }, (request) =>
    seasons.seasonTitles(request.params.seasonID, listItems(request.query.language)),
  );
  app.get(`${season}/Overviews`, { schema: { ...seasonSchema, querystring: TmdbLanguageQuery, response: list(TmdbOverview) } }, (request) =>
    seasons.seasonOverviews(request.params.seasonID, listItems(request.query.language)),
  );
  app.get(`${season}/Images`, { schema: { ...seasonSchema, querystring: TmdbImagesQuery, response: { 200: Images } } }, (request) =>
    seasons.seasonImages(request.params.seasonID, request.query.includeDisabled),
  );
  for (const key of ['Cast', 'Crew']) {
    app.get(`${season}/${key}`, { schema: { ...seasonSchema, response: list(TmdbRole) } }, (request) =>
      seasons.seasonCredits(request.params.seasonID),
    );
  }
  app.get(`${season}/YearlySeasons`, { schema: { ...seasonSchema, response: list(TmdbYearlySeason) } }, (request) =>
    seasons.seasonYearlySeasons(request.params.seasonID),
  );
  app.get(`${season}/DaysOfWeek`, { schema: { ...seasonSchema, response: list(Type.String()) } }, (request) =>
    seasons.seasonDaysOfWeek(request.params.seasonID),
  );
  app.get(`${season}/Show`, { schema: { ...seasonSchema, querystring: TmdbIncludeQuery, response: { 200: TmdbShow } } }, (request) =>
    seasons.showOfSeason(request.params.seasonID, request.query.include),
  );
  app.get(
    `${season}/Episode`,
    { schema: { ...seasonSchema, querystring: TmdbSeasonEpisodesQuery, response: { 200: ListResult(TmdbEpisode) } } },
    (request) => seasons.episodesOfSeason(request.params.seasonID, request.query),
  );
  linkedRoutes(season, TmdbSeasonParams, (p: { seasonID: string }) => seasons.seasonLinks(p.seasonID));

  // ── episodes ──────────────────────────────────────────────────────────────────────────────

  const episode = '/api/v3/Tmdb/Episode/:episodeID';
  const episodeSchema = { tags, params: TmdbEpisodeParams };
  app.get(episode, { schema: { ...episodeSchema, querystring: TmdbOrderingIncludeQuery, response: { 200: TmdbEpisode } } }, (request) =>
    seasons.episode(request.params.episodeID, { ...request.query, alternateOrderingID: orderingParam(request.query.alternateOrderingID) }),
  );
  app.get(`${episode}/Titles`, { schema: { ...episodeSchema, querystring: TmdbLanguageQuery, response: list(TmdbTitle) } }, (request) =>
    seasons.episodeTitles(request.params.episodeID, listItems(request.query.language)),
  );
  app.get(
    `${episode}/Overviews`,
    { schema: { ...episodeSchema, querystring: TmdbLanguageQuery, response: list(TmdbOverview) } },
    (request) => seasons.episodeOverviews(request.params.episodeID, listItems(request.query.language)),
  );
  app.get(
    `${episode}/Images`,
    { schema: { ...episodeSchema, querystring: TmdbImagesQuery, response: { 200: TmdbEpisodeImages } } },
    (request) => seasons.episodeImages(request.params.episodeID, request.query.includeDisabled),
  );
  for (const key of ['Cast', 'Crew']) {
    app.get(`${episode}/${key}`, { schema: { ...episodeSchema, response: list(TmdbRole) } }, (request) =>
      seasons.episodeCredits(request.params.episodeID),
    );
  }
  app.get(`${episode}/CrossReferences`, { schema: { ...episodeSchema, response: list(TmdbEpisodeCrossReference) } }, (request) =>
    seasons.episodeCrossReferences(request.params.episodeID),
  );
  app.get(
    `${episode}/Ordering`,
    { schema: { ...episodeSchema, querystring: TmdbOrderingQuery, response: list(TmdbEpisodeOrderingInformation) } },
    (request) => seasons.episodeOrderings(request.params.episodeID, orderingParam(request.query.alternateOrderingID)),
  );
  app.get(`${episode}/FileCrossReferences`, { schema: { ...episodeSchema, response: list(FileCrossReference) } }, async (request) =>
    local.fileCrossReferences((await seasons.episodeLinks(request.params.episodeID)).anidbEpisodeIds),
  );
  app.get(
    `${episode}/Show`,
    { schema: { ...episodeSchema, querystring: TmdbOrderingIncludeQuery, response: { 200: TmdbShow } } },
    (request) =>
      seasons.showOfEpisode(request.params.episodeID, {
        ...request.query,
        alternateOrderingID: orderingParam(request.query.alternateOrderingID),
      }),
  );
  app.get(
    `${episode}/Season`,
    { schema: { ...episodeSchema, querystring: TmdbOrderingIncludeQuery, response: { 200: TmdbSeason } } },
    (request) =>
      seasons.seasonOfEpisode(request.params.episodeID, {
        ...request.query,
        alternateOrderingID: orderingParam(request.query.alternateOrderingID),
      }),
  );
  linkedRoutes(episode, TmdbEpisodeParams, (p: { episodeID: number }) => seasons.episodeLinks(p.episodeID), 'Anidb/Episode');
}
