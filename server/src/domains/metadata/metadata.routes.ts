import type { Logger } from 'pino';
import {
  AnidbAnimeParams,
  AnidbEpisodeListQuery,
  AnidbRefreshParams,
  AnidbRefreshQuery,
  AnidbSearchPathParams,
  AnidbSearchQuery,
  DeleteSeriesQuery,
  FileIDParams,
  LinkEpisodesBody,
  LinkMultipleFilesBody,
  LinkSeriesBody,
  LinkSeriesMultipleBody,
  SeriesParams,
  NullableUnlinkEpisodesBody,
} from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { notFound } from '../../http/problem.js';
import type { FilesService } from '../files/index.js';
import type { SettingsService } from '../settings/index.js';
import type { AnimeImport } from './anime-import.js';
import type { ManualLinks } from './manual-links.js';
import type { MyList } from './my-list.js';
import type { SeriesRemoval } from './series-removal.js';
import type { AniDBSearch, IncludeOnly } from './anidb-search.js';
import { validationError } from '../../http/problem.js';
import { callerId } from '../../http/viewer.js';

const EPISODE_TYPES = ['Unknown', 'Episode', 'Credits', 'Special', 'Trailer', 'Parody', 'Other'] as const;
/** `true`, `false` or `only` in any casing; anything else is a 400 naming the parameter. */
function includeOnly(value: string | undefined, fallback: IncludeOnly, field: string): IncludeOnly {
  if (value === undefined) return fallback;
  const lower = value.toLowerCase();
  if (lower === 'true' || lower === 'false' || lower === 'only') return lower;
  throw validationError(field, `The value '${value}' is not valid for ${field}.`);
}

/** Getting AniDB anime on request, and the manual links between files and episodes. */
export function registerMetadataRoutes(
  app: App,
  deps: {
    animeImport: AnimeImport;
    links: ManualLinks;
    myList: MyList;
    files: Pick<FilesService, 'content'>;
    seriesRemoval: SeriesRemoval;
    anidbSearch: AniDBSearch;
    settings: SettingsService;
    logger: Logger;
  },
) {
  const { animeImport, links } = deps;

  const refresh = async (animeId: number, query: AnidbRefreshQuery): Promise<boolean> => {
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
    { schema: { tags: ['Series'], params: AnidbRefreshParams, querystring: AnidbRefreshQuery } },
    (request) => refresh(request.params.anidbID, request.query),
  );

  app.post(
    '/api/v3/Series/:seriesID/AniDB/Refresh',
    { schema: { tags: ['Series'], params: SeriesParams, querystring: AnidbRefreshQuery } },
    async (request) => {
      const animeId = await animeImport.animeOfSeries(request.params.seriesID);
      if (animeId === null) throw notFound('No Series entry for the given seriesID');
      return refresh(animeId, { ...request.query, createSeriesEntry: request.query.createSeriesEntry ?? true });
    },
  );

  const search = (query: string, options: AnidbSearchQuery, userId: number | null) =>
    deps.anidbSearch.search(query, {
      userId,
      fuzzy: options.fuzzy,
      local: options.local,
      includeTitles: options.includeTitles,
      searchById: options.searchById,
      page: options.page,
      pageSize: options.pageSize,
    });

  app.get('/api/v3/Series/AniDB/Search', { schema: { tags: ['Series'], querystring: AnidbSearchQuery } }, (request) =>
    search(request.query.query ?? '', request.query, callerId(request.principal)),
  );

  // The obsolete path form decodes its value once more, so `+` is a space.
  app.get(
    '/api/v3/Series/AniDB/Search/:query',
    { schema: { tags: ['Series'], params: AnidbSearchPathParams, querystring: AnidbSearchQuery } },
    (request) => {
      let text = request.params.query.replace(/\+/g, ' ');
      try {
        text = decodeURIComponent(text);
      } catch {
        // A lone % stays as it is.
      }
      return search(text, request.query, callerId(request.principal));
    },
  );

  app.get('/api/v3/Series/AniDB/:anidbID', { schema: { tags: ['Series'], params: AnidbAnimeParams } }, (request) =>
    deps.anidbSearch.anime(request.params.anidbID, callerId(request.principal)),
  );

  app.get(
    '/api/v3/Series/AniDB/:anidbID/Episode',
    { schema: { tags: ['Series'], params: AnidbAnimeParams, querystring: AnidbEpisodeListQuery } },
    (request) => {
      const q = request.query;
      const types = (Array.isArray(q.type) ? q.type : q.type ? [q.type] : [])
        .flatMap((t) => t.split(','))
        .map((t) => t.trim())
        .filter(Boolean);
      const resolved = types.map((t) => {
        const match = /^\d+$/.test(t) ? EPISODE_TYPES[Number(t)] : EPISODE_TYPES.find((e) => e.toLowerCase() === t.toLowerCase());
        if (!match) throw validationError('type', `The value '${t}' is not valid for type.`);
        return match;
      });
      const principal = request.principal;
      return deps.anidbSearch.episodes(request.params.anidbID, {
        userId: principal?.kind === 'user' ? principal.userId : 0,
        page: q.page,
        pageSize: q.pageSize,
        includeMissing: includeOnly(q.includeMissing, 'false', 'includeMissing'),
        includeUnaired: includeOnly(q.includeUnaired, 'false', 'includeUnaired'),
        includeHidden: includeOnly(q.includeHidden, 'false', 'includeHidden'),
        includeWatched: includeOnly(q.includeWatched, 'true', 'includeWatched'),
        types: resolved,
        search: q.search,
        fuzzy: q.fuzzy,
      });
    },
  );

  app.delete(
    '/api/v3/Series/:seriesID',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['Series'],
        params: SeriesParams,
        querystring: DeleteSeriesQuery,
      },
    },
    async (request, reply) => {
      await deps.seriesRemoval.remove(request.params.seriesID, request.query);
      return reply.code(200).send();
    },
  );

  const tags = ['File'];
  app.post('/api/v3/File/:fileID/Link', { schema: { tags, params: FileIDParams, body: LinkEpisodesBody } }, async (request, reply) => {
    await links.linkToEpisodes(request.params.fileID, request.body.EpisodeIDs);
    return reply.code(200).send();
  });

  app.post(
    '/api/v3/File/:fileID/LinkFromSeries',
    { schema: { tags, params: FileIDParams, body: LinkSeriesBody } },
    async (request, reply) => {
      await links.linkToRange(request.params.fileID, request.body.SeriesID, request.body.RangeStart, request.body.RangeEnd);
      return reply.code(200).send();
    },
  );

  app.delete(
    '/api/v3/File/:fileID/Link',
    { schema: { tags, params: FileIDParams, body: NullableUnlinkEpisodesBody } },
    async (request, reply) => {
      await links.unlink(request.params.fileID, request.body?.EpisodeIDs ?? null);
      return reply.code(200).send();
    },
  );

  app.post('/api/v3/File/LinkFromSeries', { schema: { tags, body: LinkSeriesMultipleBody } }, async (request, reply) => {
    const body = request.body;
    await links.linkFilesToRange(body.FileIDs, body.SeriesID, body.RangeStart, body.SingleEpisode ?? false);
    return reply.code(200).send();
  });

  app.post('/api/v3/File/:fileID/AddToMyList', { schema: { tags, params: FileIDParams } }, async (request, reply) => {
    const content = await deps.files.content(request.params.fileID);
    if (content.ed2k) await deps.myList.queueAdd(content, { force: true });
    return reply.code(200).send();
  });

  app.post('/api/v3/File/Link', { schema: { tags, body: LinkMultipleFilesBody } }, async (request, reply) => {
    await links.linkFilesToEpisode(request.body.FileIDs, request.body.EpisodeID);
    return reply.code(200).send();
  });
}
