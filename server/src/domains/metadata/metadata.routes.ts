import { Type } from '@sinclair/typebox';
import type { Logger } from 'pino';
import { LinkEpisodesBody, LinkMultipleFilesBody, LinkSeriesBody, LinkSeriesMultipleBody, UnlinkEpisodesBody } from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { notFound } from '../../http/problem.js';
import type { FilesStore } from '../files/files.store.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { AnimeImport } from './anime-import.js';
import type { ManualLinks } from './manual-links.js';
import type { MyList } from './my-list.js';
import type { SeriesRemoval } from './series-removal.js';

const RefreshQuery = Type.Object({
  force: Type.Boolean({ default: false }),
  downloadRelations: Type.Boolean({ default: false }),
  createSeriesEntry: Type.Optional(Type.Boolean()),
  immediate: Type.Boolean({ default: false }),
  cacheOnly: Type.Boolean({ default: false }),
  skipTmdbUpdate: Type.Boolean({ default: false }),
});
const FileParams = Type.Object({ fileID: Type.Integer({ minimum: 1 }) });

/** Getting AniDB anime on request, and the manual links between files and episodes. */
export function registerMetadataRoutes(app: App, deps: { animeImport: AnimeImport; links: ManualLinks; myList: MyList; files: FilesStore; seriesRemoval: SeriesRemoval; settings: SettingsService; logger: Logger }) {
  const { animeImport, links } = deps;

  const refresh = async (animeId: number, query: typeof RefreshQuery.static): Promise<boolean> => {
    if (animeId <= 0) return false;
    const createSeries = query.createSeriesEntry ?? deps.settings.current.AniDb.AutomaticallyImportSeries;
    if (!query.immediate) {
      await animeImport.queue(animeId, { createSeries, force: query.force });
      return false;
    }
    return animeImport.importNow({ animeId, createSeries, force: query.force }, deps.logger);
  };

  app.post(
    '/api/v3/Series/AniDB/:anidbID/Refresh',
    { schema: { tags: ['Series'], params: Type.Object({ anidbID: Type.Integer({ minimum: 0 }) }), querystring: RefreshQuery } },
    (request) => refresh(request.params.anidbID, request.query),
  );

  app.post(
    '/api/v3/Series/:seriesID/AniDB/Refresh',
    { schema: { tags: ['Series'], params: Type.Object({ seriesID: Type.Integer({ minimum: 1 }) }), querystring: RefreshQuery } },
    async (request) => {
      const animeId = await animeImport.animeOfSeries(request.params.seriesID);
      if (animeId === null) throw notFound('No Series entry for the given seriesID');
      return refresh(animeId, { ...request.query, createSeriesEntry: request.query.createSeriesEntry ?? true });
    },
  );

  app.delete(
    '/api/v3/Series/:seriesID',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['Series'],
        params: Type.Object({ seriesID: Type.Integer({ minimum: 1 }) }),
        querystring: Type.Object({ deleteFiles: Type.Boolean({ default: false }), completelyRemove: Type.Boolean({ default: false }) }),
      },
    },
    async (request, reply) => {
      await deps.seriesRemoval.remove(request.params.seriesID, request.query);
      return reply.code(200).send();
    },
  );

  const tags = ['File'];
  app.post('/api/v3/File/:fileID/Link', { schema: { tags, params: FileParams, body: LinkEpisodesBody } }, async (request, reply) => {
    await links.linkToEpisodes(request.params.fileID, request.body.EpisodeIDs);
    return reply.code(200).send();
  });

  app.post('/api/v3/File/:fileID/LinkFromSeries', { schema: { tags, params: FileParams, body: LinkSeriesBody } }, async (request, reply) => {
    await links.linkToRange(request.params.fileID, request.body.SeriesID, request.body.RangeStart, request.body.RangeEnd);
    return reply.code(200).send();
  });

  app.delete('/api/v3/File/:fileID/Link', { schema: { tags, params: FileParams, body: Type.Union([UnlinkEpisodesBody, Type.Null()]) } }, async (request, reply) => {
    await links.unlink(request.params.fileID, request.body?.EpisodeIDs ?? null);
    return reply.code(200).send();
  });

  app.post('/api/v3/File/LinkFromSeries', { schema: { tags, body: LinkSeriesMultipleBody } }, async (request, reply) => {
    const body = request.body;
    await links.linkFilesToRange(body.FileIDs, body.SeriesID, body.RangeStart, body.SingleEpisode ?? false);
    return reply.code(200).send();
  });

  app.post('/api/v3/File/:fileID/AddToMyList', { schema: { tags, params: FileParams } }, async (request, reply) => {
    const file = await deps.files.file(request.params.fileID);
    if (!file) throw notFound('No File entry for the given fileID');
    if (file.ed2k) await deps.myList.queueAdd({ ed2k: file.ed2k, size: file.size }, { force: true });
    return reply.code(200).send();
  });

  app.post('/api/v3/File/Link', { schema: { tags, body: LinkMultipleFilesBody } }, async (request, reply) => {
    await links.linkFilesToEpisode(request.body.FileIDs, request.body.EpisodeID);
    return reply.code(200).send();
  });
}
