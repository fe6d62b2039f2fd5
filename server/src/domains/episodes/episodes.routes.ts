import {
  AnidbEpisodeParams,
  EpisodeImageParams,
  SeriesImagesQuery,
  SeriesPreferredImageBody,
  AnidbEpisodesQuery,
  EpisodeListQuery,
  EpisodesWithNoFilesQuery,
  SeriesQuery,
  type Series,
  EpisodeParams,
  EpisodeQuery,
  EpisodeSetHiddenQuery,
  EpisodeWatchedParams,
  File,
  FileListQuery,
  ListResult,
  VoteBody,
  TitleOverrideBody,
} from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { problemError } from '../../http/problem.js';
import { parseImageType, preferredImageSourceOf } from '../images/index.js';
import { EPISODE_IMAGE_TYPES, type EpisodeImageType } from './episode-images.service.js';
import type { FilesService } from '../files/index.js';
import { callerId } from '../../http/viewer.js';
import type { EpisodesService } from './episodes.service.js';

const tags = ['Episode'];
const admin = { auth: 'admin' } as const;

/** Poster, Banner, Backdrop/Fanart, Logo, Thumbnail/Thumb; anything else is a 404 problem (no text), as the contract says. */
const imageTypeOf = (raw: string): EpisodeImageType => {
  const type = parseImageType(raw);
  if (!type || !EPISODE_IMAGE_TYPES.includes(type)) throw problemError(404);
  return type as EpisodeImageType;
};

/** Episode endpoints: the episode, the viewer's vote and watch state, hiding, its files (contract §6). */
export function registerEpisodeRoutes(
  app: App,
  deps: {
    episodes: EpisodesService;
    files: FilesService;
    /** The series domain's Series model (given at wiring: series depend on episodes, not back). */
    series: { series(userId: number | null, seriesId: number, query: SeriesQuery): Promise<Series> };
  },
) {
  const { episodes, files, series } = deps;

  app.get('/api/v3/Episode', { schema: { tags, querystring: EpisodeListQuery } }, (request) =>
    episodes.list(callerId(request.principal), request.query),
  );

  app.get('/api/v3/Episode/AniDB', { config: admin, schema: { tags, querystring: AnidbEpisodesQuery } }, (request) =>
    episodes.anidbEpisodes(request.query),
  );

  app.get('/api/v3/Episode/AniDB/:anidbEpisodeID', { schema: { tags, params: AnidbEpisodeParams } }, (request) =>
    episodes.anidbEpisode(request.params.anidbEpisodeID),
  );

  app.get(
    '/api/v3/Episode/AniDB/:anidbEpisodeID/Episode',
    { schema: { tags, params: AnidbEpisodeParams, querystring: EpisodeQuery } },
    (request) => episodes.episodeOfAnidb(callerId(request.principal), request.params.anidbEpisodeID, request.query),
  );

  app.get('/api/v3/Episode/WithNoFiles', { schema: { tags, querystring: EpisodesWithNoFilesQuery } }, (request) =>
    episodes.withNoFiles(callerId(request.principal), request.query),
  );

  app.get('/api/v3/Episode/:episodeID/AniDB', { schema: { tags, params: EpisodeParams } }, (request) =>
    episodes.anidbOfEpisode(callerId(request.principal), request.params.episodeID),
  );

  app.get('/api/v3/Episode/:episodeID/Series', { schema: { tags, params: EpisodeParams, querystring: SeriesQuery } }, async (request) => {
    const userId = callerId(request.principal);
    return series.series(userId, await episodes.seriesIdOf(userId, request.params.episodeID), request.query);
  });

  app.get('/api/v3/Episode/:episodeID/Images', { schema: { tags, params: EpisodeParams, querystring: SeriesImagesQuery } }, (request) =>
    episodes.imageLists(callerId(request.principal), request.params.episodeID, request.query.includeDisabled),
  );

  app.get('/api/v3/Episode/:episodeID/Images/:imageType', { schema: { tags, params: EpisodeImageParams } }, async (request, reply) => {
    const type = imageTypeOf(request.params.imageType);
    const image = await episodes.mainImage(callerId(request.principal), request.params.episodeID, type);
    return image ?? reply.code(204).send();
  });

  app.put(
    '/api/v3/Episode/:episodeID/Images/:imageType',
    { config: admin, schema: { tags, params: EpisodeImageParams, body: SeriesPreferredImageBody } },
    async (request) => {
      const type = imageTypeOf(request.params.imageType);
      const source = preferredImageSourceOf(request.body.Source);
      return episodes.setPreferredImage(callerId(request.principal), request.params.episodeID, type, source, request.body.ID);
    },
  );

  app.delete(
    '/api/v3/Episode/:episodeID/Images/:imageType',
    { config: admin, schema: { tags, params: EpisodeImageParams } },
    async (request, reply) => {
      const type = imageTypeOf(request.params.imageType);
      await episodes.unsetPreferredImage(callerId(request.principal), request.params.episodeID, type);
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/v3/Episode/:episodeID/OverrideTitle',
    { config: admin, schema: { tags, params: EpisodeParams, body: TitleOverrideBody } },
    async (request, reply) => {
      await episodes.overrideTitle(callerId(request.principal), request.params.episodeID, request.body.Title);
      return reply.code(200).send();
    },
  );

  app.post(
    '/api/v3/Episode/:episodeID/Vote',
    { schema: { tags: ['Episode'], params: EpisodeParams, body: VoteBody } },
    async (request, reply) => {
      await episodes.vote(callerId(request.principal), request.params.episodeID, request.body);
      return reply.code(204).send();
    },
  );

  app.get('/api/v3/Episode/:episodeID', { schema: { tags: ['Episode'], params: EpisodeParams, querystring: EpisodeQuery } }, (request) =>
    episodes.episode(callerId(request.principal), request.params.episodeID, request.query),
  );

  app.post(
    '/api/v3/Episode/:episodeID/Watched/:watched',
    { schema: { tags: ['Episode'], params: EpisodeWatchedParams } },
    async (request, reply) => {
      await episodes.setWatched(callerId(request.principal), request.params.episodeID, request.params.watched);
      return reply.code(200).send();
    },
  );

  app.post(
    '/api/v3/Episode/:episodeID/SetHidden',
    { config: { auth: 'admin' }, schema: { tags: ['Episode'], params: EpisodeParams, querystring: EpisodeSetHiddenQuery } },
    async (request, reply) => {
      await episodes.setHidden(callerId(request.principal), request.params.episodeID, request.query.value);
      return reply.code(200).send();
    },
  );

  // The File list of the files domain, narrowed to the episode's files (404 when there is no such episode).
  app.get(
    '/api/v3/Episode/:episodeID/File',
    { schema: { tags: ['Episode'], params: EpisodeParams, querystring: FileListQuery, response: { 200: ListResult(File) } } },
    async (request) => {
      // The episode's 404 and its series' restricted-tag 403 first (files.md T2).
      await episodes.seriesIdOf(callerId(request.principal), request.params.episodeID);
      return files.listFromQuery(request.query, {
        contents: await files.contentsOf('episode', request.params.episodeID),
        viewerId: callerId(request.principal) ?? undefined,
      });
    },
  );
}
