import type { TSchema } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import {
  ReleaseManagementEpisodesQuery as EpisodeQuery,
  ReleaseManagementFilesToDeleteQuery,
  SeriesParams,
  ReleaseManagementSeriesQuery as SeriesQuery,
  type ReleaseManagementType,
} from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import type { ReleaseManagementService } from './release-management.service.js';

const tags = ['ReleaseManagement'];
/** `includeDataFrom` is set-typed: unknown sources are skipped, not rejected (contract files.md §0.3). */
function dataFrom(raw: string | string[] | undefined) {
  const list = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw])
    .flatMap((item) => item.split(','))
    .map((item) => item.trim().toLowerCase());
  return { includeAniDB: list.includes('anidb') || list.includes('1'), includeTMDB: list.includes('tmdb') || list.includes('4') };
}

type Query = {
  includeDataFrom?: string | string[];
  ignoreVariations?: boolean;
  collecting?: boolean;
  onlyFinishedSeries?: boolean;
  includeFiles?: boolean;
  includeMediaInfo?: boolean;
  includeAbsolutePaths?: boolean;
  includeXRefs?: boolean;
  pageSize: number;
  page: number;
};

/** Release management (contract files.md §6, R1–R18), including the obsolete `ReleaseManagement/…` aliases of multiple releases. */
export function registerReleaseManagementRoutes(app: App, deps: { releases: ReleaseManagementService }) {
  const { releases } = deps;
  const viewerOf = (request: FastifyRequest) => releases.viewer(request.principal?.kind === 'user' ? request.principal.userId : null);
  const scopeOf = (q: Query) => ({ ignoreVariations: q.ignoreVariations ?? true, collecting: q.collecting ?? false });
  const paging = (q: Query) => ({ page: q.page, pageSize: q.pageSize });
  const route = (
    url: string,
    schema: { querystring?: TSchema; params?: TSchema },
    handler: (request: FastifyRequest) => Promise<unknown>,
  ) => app.get(url, { schema: { tags, ...schema } }, handler);

  const seriesList = (type: ReleaseManagementType) => async (request: FastifyRequest) => {
    const q = request.query as Query;
    return releases.series(
      type,
      await viewerOf(request),
      { ...scopeOf(q), ...dataFrom(q.includeDataFrom), onlyFinishedSeries: q.onlyFinishedSeries ?? false },
      paging(q),
    );
  };
  const episodeList = (type: ReleaseManagementType, perSeries: boolean) => async (request: FastifyRequest) => {
    const q = request.query as Query;
    const options = {
      ...scopeOf(q),
      ...dataFrom(q.includeDataFrom),
      // Duplicates always list their files; they are what the list is about.
      includeFiles: q.includeFiles ?? true,
      includeMediaInfo: q.includeMediaInfo ?? true,
      includeAbsolutePaths: q.includeAbsolutePaths ?? false,
      includeXRefs: q.includeXRefs ?? false,
    };
    const seriesId = perSeries ? (request.params as { seriesID: number }).seriesID : undefined;
    return releases.episodes(type, await viewerOf(request), options, paging(q), seriesId);
  };
  const filesToDelete = (perSeries: boolean) => async (request: FastifyRequest) => {
    const q = request.query as Query;
    return releases.filesToDelete(
      await viewerOf(request),
      q.ignoreVariations ?? true,
      perSeries ? (request.params as { seriesID: number }).seriesID : undefined,
    );
  };
  const locationsToRemove = (perSeries: boolean) => async (request: FastifyRequest) =>
    releases.locationsToAutoRemove(await viewerOf(request), perSeries ? (request.params as { seriesID: number }).seriesID : undefined);

  const base = '/api/v3/ReleaseManagement';
  for (const type of ['MultipleReleases', 'DuplicateFiles', 'MissingEpisodes'] as const) {
    route(`${base}/${type}/Series`, { querystring: SeriesQuery[type] }, seriesList(type));
    route(`${base}/${type}/Episodes`, { querystring: EpisodeQuery[type] }, episodeList(type, false));
    route(`${base}/${type}/Series/:seriesID/Episodes`, { params: SeriesParams, querystring: EpisodeQuery[type] }, episodeList(type, true));
  }
  route(`${base}/MultipleReleases/FilesToDelete`, { querystring: ReleaseManagementFilesToDeleteQuery }, filesToDelete(false));
  route(
    `${base}/MultipleReleases/Series/:seriesID/FilesToDelete`,
    { params: SeriesParams, querystring: ReleaseManagementFilesToDeleteQuery },
    filesToDelete(true),
  );
  route(`${base}/DuplicateFiles/FileLocationsToAutoRemove`, {}, locationsToRemove(false));
  route(`${base}/DuplicateFiles/Series/:seriesID/FileLocationsToAutoRemove`, { params: SeriesParams }, locationsToRemove(true));

  // R14–R18: the obsolete controller, multiple releases only.
  route(`${base}/Series`, { querystring: SeriesQuery.MultipleReleases }, seriesList('MultipleReleases'));
  route(
    `${base}/Series/:seriesID`,
    { params: SeriesParams, querystring: EpisodeQuery.MultipleReleases },
    episodeList('MultipleReleases', true),
  );
  route(`${base}/Episodes`, { querystring: EpisodeQuery.MultipleReleases }, episodeList('MultipleReleases', false));
  route(
    `${base}/Series/:seriesID/Episode/FilesToDelete`,
    { params: SeriesParams, querystring: ReleaseManagementFilesToDeleteQuery },
    filesToDelete(true),
  );
  route(`${base}/Episode/FilesToDelete`, { querystring: ReleaseManagementFilesToDeleteQuery }, filesToDelete(false));
}
