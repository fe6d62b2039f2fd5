import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { File, IncludeOnlyFilter } from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { textError, validationError } from '../../http/problem.js';
import type { BrowseStore, Viewer } from '../collection/browse.store.js';
import { SERIES_FORBIDDEN, SERIES_NOT_FOUND } from '../collection/groups.service.js';
import { seriesExtras, seriesRelations, type DetailsStore } from './details.store.js';
import { timeSpan, type EpisodeFilter, type EpisodeRow, type SeriesStore } from './series.store.js';
import { tagCategory, TagFilterBits, type TagsStore } from './tags.store.js';
import type { SeriesImagesService, SeriesImageType } from './series-images.js';
import { fileSummary, GROUP_BY_CRITERIA, type GroupByCriterion } from './file-summary.js';
import { parseImageSource, parseImageType } from '../images/image-store.js';
import type { TmdbService } from '../tmdb/tmdb.service.js';

export const EPISODE_NOT_FOUND = 'No Episode entry for the given episodeID';
export const EPISODE_FORBIDDEN = 'Accessing Episode is not allowed for the current user';

const EPISODE_TYPES = ['Unknown', 'Other', 'Episode', 'Special', 'Trailer', 'Credits', 'Parody'];
const ListParam = Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())]));
const IncludeOnly = Type.Optional(Type.String());
const SeriesParams = Type.Object({ seriesID: Type.Integer({ minimum: 1 }) });
const EpisodeParams = Type.Object({ episodeID: Type.Integer({ minimum: 1 }) });

const listOf = (raw: string | string[] | undefined) =>
  (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw])
    .flatMap((item) => item.split(','))
    .map((item) => item.trim())
    .filter(Boolean);
const dataFrom = (raw: string | string[] | undefined) => {
  const list = listOf(raw).map((s) => s.toLowerCase());
  return { includeAniDB: list.includes('anidb'), includeTMDB: list.includes('tmdb') };
};
const includeOnly = (value: string | undefined, fallback: IncludeOnlyFilter, field: string): IncludeOnlyFilter => {
  if (value === undefined || value === '') return fallback;
  const lower = value.toLowerCase();
  if (lower === 'true' || lower === 'false' || lower === 'only') return lower;
  throw validationError(field, `The value '${value}' is not valid for ${field}.`);
};
/** `type` list: names or numbers; `Unknown` is accepted but episodes without AniDB data are never listed. */
const episodeTypes = (raw: string | string[] | undefined) =>
  listOf(raw).map((t) => {
    const match = /^\d+$/.test(t) ? EPISODE_TYPES[Number(t)] : EPISODE_TYPES.find((e) => e.toLowerCase() === t.toLowerCase());
    if (!match) throw validationError('type', `The value '${t}' is not valid for type.`);
    return match;
  });

const FilterQuery = {
  includeMissing: IncludeOnly,
  includeUnaired: IncludeOnly,
  includeHidden: IncludeOnly,
  includeVoted: IncludeOnly,
  includeWatched: IncludeOnly,
  type: ListParam,
  search: Type.Optional(Type.String()),
  fuzzy: Type.Boolean({ default: true }),
};
type FilterInput = {
  includeMissing?: string;
  includeUnaired?: string;
  includeHidden?: string;
  includeVoted?: string;
  includeWatched?: string;
  type?: string | string[];
  search?: string;
};
const episodeFilter = (q: FilterInput): EpisodeFilter => ({
  includeMissing: includeOnly(q.includeMissing, 'false', 'includeMissing'),
  includeUnaired: includeOnly(q.includeUnaired, 'false', 'includeUnaired'),
  includeHidden: includeOnly(q.includeHidden, 'false', 'includeHidden'),
  includeVoted: includeOnly(q.includeVoted, 'true', 'includeVoted'),
  includeWatched: includeOnly(q.includeWatched, 'true', 'includeWatched'),
  types: episodeTypes(q.type),
  search: q.search?.trim() || undefined,
});

const VoteBody = Type.Object({
  Value: Type.Number({ minimum: -1 }),
  MaxValue: Type.Integer({ minimum: 0, default: 10 }),
  Type: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
/** §1 Vote: normalised to 0–10 (two decimals); null = revoke (-1). */
const voteValue = ({ Value, MaxValue }: { Value: number; MaxValue: number }): number | null => {
  if (Value > MaxValue) throw validationError('Value', `Value must be less than or equal to MaxValue (${MaxValue}).`);
  if (Value < 0) return null;
  return MaxValue === 0 ? 0 : Math.round(Math.min(10, Math.max(0, (Value / MaxValue) * 10)) * 100) / 100;
};

/** Series page endpoints: the series, its episodes and the viewer's watch state and votes (contract §5.1, §5.5, §5.8, §6). */
/** The files of one episode in the File model, for `includeFiles` (from the files domain). */
export type EpisodeFiles = (
  episodeId: number,
  options: { includeMediaInfo: boolean; includeAbsolutePaths: boolean; includeXRefs: boolean; dataFrom: string[]; viewerId?: number },
) => Promise<File[]>;

export function registerSeriesRoutes(
  app: App,
  deps: {
    browse: BrowseStore;
    store: SeriesStore;
    details: DetailsStore;
    tags: TagsStore;
    images: SeriesImagesService;
    tmdb: Pick<TmdbService, 'showsOfAnime' | 'moviesOfAnime'>;
    episodeFiles?: EpisodeFiles;
  },
) {
  const { browse, store, details, tags, images, tmdb } = deps;
  const viewerOf = (request: FastifyRequest): Promise<Viewer> =>
    browse.viewer(request.principal?.kind === 'user' ? request.principal.userId : null);

  /** The series row, after the 404 and restricted-tag (403) checks. */
  const allowedSeries = async (viewer: Viewer, seriesId: number) => {
    const series = await store.series(seriesId);
    if (!series) throw textError(404, SERIES_NOT_FOUND);
    if (!(await browse.isSeriesAllowed(viewer, series.anime_id))) throw textError(403, SERIES_FORBIDDEN);
    return series;
  };
  const allowedEpisode = async (viewer: Viewer, episodeId: number) => {
    const episode = await store.episodeRef(episodeId);
    if (!episode) throw textError(404, EPISODE_NOT_FOUND);
    if (episode.anime_id === null) throw textError(500, 'Unable to get series for the episode');
    if (!(await browse.isSeriesAllowed(viewer, episode.anime_id))) throw textError(403, EPISODE_FORBIDDEN);
    return episode;
  };

  app.get(
    '/api/v3/Series/:seriesID',
    {
      schema: {
        tags: ['Series'],
        params: SeriesParams,
        querystring: Type.Object({ randomImages: Type.Boolean({ default: false }), includeDataFrom: ListParam }),
      },
    },
    async (request) => {
      const viewer = await viewerOf(request);
      const row = await allowedSeries(viewer, request.params.seriesID);
      const [series] = await browse.seriesModels([request.params.seriesID], viewer, dataFrom(request.query.includeDataFrom));
      // One image per type: the preferred one, else the first (random with randomImages).
      const all = await images.all(row, false);
      const pick = <T extends { Preferred: boolean }>(list: T[]): T[] => {
        const chosen = request.query.randomImages
          ? list[Math.floor(Math.random() * list.length)]
          : (list.find((i) => i.Preferred) ?? list[0]);
        return chosen ? [chosen] : [];
      };
      series.Images = { Posters: pick(all.Posters), Backdrops: pick(all.Backdrops), Banners: pick(all.Banners), Logos: pick(all.Logos) };
      // TMDB ids (and the TvDB/IMDB ids they carry) of the linked shows and movies.
      const [shows, movies] = await Promise.all([tmdb.showsOfAnime(row.anime_id, new Set()), tmdb.moviesOfAnime(row.anime_id, new Set())]);
      series.IDs.TMDB = { Movie: movies.map((m) => m.ID), Show: shows.map((s) => s.ID) };
      series.IDs.TvDB = shows.flatMap((s) => (s.TvdbID ? [s.TvdbID] : []));
      series.IDs.IMDB = movies.flatMap((m) => (m.ImdbMovieID ? [m.ImdbMovieID] : []));
      if (series.TMDB) series.TMDB = { Movies: movies, Shows: shows };
      return series;
    },
  );

  app.get(
    '/api/v3/Series/:seriesID/Episode',
    {
      schema: {
        tags: ['Series'],
        params: SeriesParams,
        querystring: Type.Object({
          pageSize: Type.Integer({ minimum: 0, maximum: 1000, default: 20 }),
          page: Type.Integer({ minimum: 1, default: 1 }),
          includeDataFrom: ListParam,
          includeManuallyLinked: IncludeOnly,
          includeFiles: Type.Boolean({ default: false }),
          includeMediaInfo: Type.Boolean({ default: false }),
          includeAbsolutePaths: Type.Boolean({ default: false }),
          includeXRefs: Type.Boolean({ default: false }),
          ...FilterQuery,
        }),
      },
    },
    async (request) => {
      const q = request.query;
      const filter = episodeFilter(q);
      const manual = includeOnly(q.includeManuallyLinked, 'true', 'includeManuallyLinked');
      const viewer = await viewerOf(request);
      await allowedSeries(viewer, request.params.seriesID);
      let selected = store.select(await store.rows({ seriesId: request.params.seriesID }, viewer.userId), filter);
      if (manual !== 'true') {
        const linked = await store.manuallyLinkedEpisodeIds(request.params.seriesID);
        selected = selected.filter((row) => (manual === 'only') === linked.has(row.id));
      }
      const page = q.pageSize === 0 ? selected : selected.slice((q.page - 1) * q.pageSize, q.page * q.pageSize);
      const sources = dataFrom(q.includeDataFrom);
      const models = store.models(page, sources);
      if (q.includeFiles && deps.episodeFiles) {
        const options = {
          includeMediaInfo: q.includeMediaInfo,
          includeAbsolutePaths: q.includeAbsolutePaths,
          includeXRefs: q.includeXRefs,
          dataFrom: listOf(q.includeDataFrom),
          viewerId: viewer.userId || undefined,
        };
        for (const model of models) model.Files = await deps.episodeFiles(model.IDs.ID, options);
      }
      return { Total: selected.length, List: models };
    },
  );

  app.post(
    '/api/v3/Series/:seriesID/Episode/Watched',
    {
      schema: {
        tags: ['Series'],
        params: SeriesParams,
        querystring: Type.Object({ value: Type.Boolean({ default: true }), ...FilterQuery }),
      },
    },
    async (request, reply) => {
      const filter = episodeFilter(request.query);
      const viewer = await viewerOf(request);
      await allowedSeries(viewer, request.params.seriesID);
      if (!viewer.userId) throw textError(403, 'Watched state needs a user.');
      const selected = store.select(await store.rows({ seriesId: request.params.seriesID }, viewer.userId), filter);
      await store.setWatched(
        viewer.userId,
        selected.map((r) => r.id),
        request.query.value,
      );
      return reply.code(200).send();
    },
  );

  app.post(
    '/api/v3/Series/:seriesID/Vote',
    {
      schema: {
        tags: ['Series'],
        params: SeriesParams,
        body: VoteBody,
      },
    },
    async (request, reply) => {
      const value = voteValue(request.body);
      const voteType = request.body.Type;
      const viewer = await viewerOf(request);
      const series = await allowedSeries(viewer, request.params.seriesID);
      if (!viewer.userId) throw textError(403, 'Voting needs a user.');
      let type: 'Permanent' | 'Temporary';
      if (voteType && /^permanent$/i.test(voteType)) type = 'Permanent';
      else if (voteType && /^temporary$/i.test(voteType)) type = 'Temporary';
      else {
        const anime = await store.kysely.selectFrom('anidb_anime').select('end_date').where('id', '=', series.anime_id).executeTakeFirst();
        type = anime?.end_date && anime.end_date.slice(0, 10) <= new Date().toISOString().slice(0, 10) ? 'Permanent' : 'Temporary';
      }
      await store.vote(viewer.userId, series.id, value, type);
      return reply.code(204).send();
    },
  );

  const ROLE_TYPES = ['Actor', 'Staff', 'Studio', 'Producer', 'Director', 'SeriesComposer', 'CharacterDesign', 'Music', 'SourceWork'];
  app.get(
    '/api/v3/Series/:seriesID/Cast',
    { schema: { tags: ['Series'], params: SeriesParams, querystring: Type.Object({ roleType: ListParam }) } },
    async (request) => {
      const roleTypes = listOf(request.query.roleType).map((r) => {
        const match = /^\d+$/.test(r) ? ROLE_TYPES[Number(r)] : ROLE_TYPES.find((t) => t.toLowerCase() === r.toLowerCase());
        if (!match) throw validationError('roleType', `The value '${r}' is not valid for roleType.`);
        return match;
      });
      const series = await allowedSeries(await viewerOf(request), request.params.seriesID);
      return details.cast(series.anime_id, roleTypes);
    },
  );

  app.get('/api/v3/Series/:seriesID/AniDB/Related', { schema: { tags: ['Series'], params: SeriesParams } }, async (request) => {
    const series = await allowedSeries(await viewerOf(request), request.params.seriesID);
    return details.related(series.anime_id);
  });

  app.get('/api/v3/Series/:seriesID/AniDB/Similar', { schema: { tags: ['Series'], params: SeriesParams } }, async (request) => {
    const series = await allowedSeries(await viewerOf(request), request.params.seriesID);
    return details.similar(series.anime_id);
  });

  app.get(
    '/api/v3/Series/:seriesID/NextUpEpisode',
    {
      schema: {
        tags: ['Series'],
        params: SeriesParams,
        querystring: Type.Object({
          onlyUnwatched: Type.Boolean({ default: true }),
          includeSpecials: Type.Boolean({ default: true }),
          includeOthers: Type.Boolean({ default: false }),
          includeMissing: Type.Boolean({ default: true }),
          includeUnaired: Type.Boolean({ default: false }),
          includeRewatching: Type.Boolean({ default: false }),
          includeFiles: Type.Boolean({ default: false }),
          includeMediaInfo: Type.Boolean({ default: false }),
          includeAbsolutePaths: Type.Boolean({ default: false }),
          includeXRefs: Type.Boolean({ default: false }),
          includeDataFrom: ListParam,
        }),
      },
    },
    async (request, reply) => {
      const q = request.query;
      const viewer = await viewerOf(request);
      await allowedSeries(viewer, request.params.seriesID);
      const today = new Date().toISOString().slice(0, 10);
      // Normal episodes first, then Others, then Specials; each by number. Resume positions are not tracked yet.
      const rank = (type: string) => (type === 'Episode' ? 0 : type === 'Other' ? 1 : 2);
      const eligibleType = (type: string) =>
        type === 'Episode' || (q.includeOthers && type === 'Other') || (q.includeSpecials && type === 'Special');
      const available = (row: EpisodeRow) =>
        row.files > 0 || q.includeUnaired || (q.includeMissing && !!row.air_date && row.air_date.slice(0, 10) <= today);
      const ordered = (await store.rows({ seriesId: request.params.seriesID }, viewer.userId))
        .filter((row) => !row.is_hidden && eligibleType(row.type))
        .sort((a, b) => rank(a.type) - rank(b.type) || a.number - b.number);
      let next: EpisodeRow | undefined;
      if (q.includeRewatching) {
        const last = ordered.reduce((found, row, index) => (row.watched_at ? index : found), -1);
        if (last >= 0) next = ordered.slice(last + 1).find(available);
      }
      next ??= ordered.find((row) => !row.watched_at && available(row));
      if (!next) return reply.code(204).send();
      return store.models([next], dataFrom(q.includeDataFrom))[0];
    },
  );

  app.get('/api/v3/WebUI/Series/:seriesID', { schema: { tags: ['WebUI'], params: SeriesParams } }, async (request) => {
    const series = await allowedSeries(await viewerOf(request), request.params.seriesID);
    const extras = await seriesExtras(store.kysely, series.anime_id);
    // SourceMaterial: the heaviest AniDB tag below a source-category root ("manga", "light novel", …).
    const anidbTags = await tags.seriesAnidbTags(series.anime_id, {
      filter: 0,
      excludeDescriptions: true,
      onlyVerified: false,
      includeCount: false,
    });
    const ancestry = await tags.ancestry(anidbTags.map((t) => t.ID));
    const source = anidbTags
      .filter((t) => (ancestry.get(t.ID)?.length ?? 0) > 1 && tagCategory(ancestry.get(t.ID)!) === TagFilterBits.Source)
      .sort((a, b) => (b.Weight ?? 0) - (a.Weight ?? 0))[0];
    return {
      ...extras,
      RuntimeLength: extras.RuntimeLength === null ? null : timeSpan(extras.RuntimeLength),
      SourceMaterial: source?.Name ?? 'Original Work',
    };
  });

  const imageTypeOf = (raw: string): SeriesImageType => {
    const type = parseImageType(raw);
    if (type !== 'Poster' && type !== 'Banner' && type !== 'Backdrop' && type !== 'Logo')
      throw textError(400, 'Invalid image type for series.');
    return type;
  };
  const ImageParams = Type.Object({ seriesID: Type.Integer({ minimum: 1 }), imageType: Type.String() });

  app.get(
    '/api/v3/Series/:seriesID/Images',
    { schema: { tags: ['Series'], params: SeriesParams, querystring: Type.Object({ includeDisabled: Type.Boolean({ default: false }) }) } },
    async (request) => images.all(await allowedSeries(await viewerOf(request), request.params.seriesID), request.query.includeDisabled),
  );

  app.get('/api/v3/Series/:seriesID/Images/:imageType', { schema: { tags: ['Series'], params: ImageParams } }, async (request) => {
    const type = imageTypeOf(request.params.imageType);
    const image = await images.main(await allowedSeries(await viewerOf(request), request.params.seriesID), type);
    if (!image) throw textError(404, 'No default image for type.');
    return image;
  });

  app.put(
    '/api/v3/Series/:seriesID/Images/:imageType',
    {
      config: { auth: 'admin' },
      schema: { tags: ['Series'], params: ImageParams, body: Type.Object({ ID: Type.Integer({ minimum: 0 }), Source: Type.String() }) },
    },
    async (request) => {
      const type = imageTypeOf(request.params.imageType);
      const source = parseImageSource(request.body.Source);
      if (!source) throw validationError('Source', `The value '${request.body.Source}' is not valid for Source.`);
      const series = await allowedSeries(await viewerOf(request), request.params.seriesID);
      const result = await images.setPreferred(series, type, source, request.body.ID);
      if (result === 'unknown') throw validationError('Body', 'Invalid image id for selected source.');
      if (result === 'disabled') throw validationError('Body', 'Image is disabled.');
      return result;
    },
  );

  app.delete(
    '/api/v3/Series/:seriesID/Images/:imageType',
    { config: { auth: 'admin' }, schema: { tags: ['Series'], params: ImageParams } },
    async (request, reply) => {
      const type = imageTypeOf(request.params.imageType);
      const series = await allowedSeries(await viewerOf(request), request.params.seriesID);
      if (!(await images.unsetPreferred(series.id, type))) throw validationError('Body', 'No preferred image is set for the type.');
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/v3/WebUI/Series/:seriesID/FileSummary',
    {
      schema: {
        tags: ['WebUI'],
        params: SeriesParams,
        querystring: Type.Object({
          type: ListParam,
          groupBy: ListParam,
          includeEpisodeDetails: Type.Boolean({ default: false }),
          includeLocationDetails: Type.Boolean({ default: false }),
          includeMissingUnknownEpisodes: Type.Boolean({ default: false }),
          includeMissingFutureEpisodes: Type.Boolean({ default: false }),
        }),
      },
    },
    async (request) => {
      const q = request.query;
      // An explicitly empty `type` means every type; omitted means Episode, Special, Other.
      const types = q.type === undefined ? null : episodeTypes(q.type);
      const groupBy = listOf(q.groupBy).map((g) => {
        const match = GROUP_BY_CRITERIA.find((c) => c.toLowerCase() === g.toLowerCase());
        if (!match) throw validationError('groupBy', `The value '${g}' is not valid for groupBy.`);
        return match as GroupByCriterion;
      });
      const series = await allowedSeries(await viewerOf(request), request.params.seriesID);
      return fileSummary(store.kysely, series.id, { ...q, types, groupBy });
    },
  );

  app.get('/api/v3/Series/:seriesID/Relations', { schema: { tags: ['Series'], params: SeriesParams } }, async (request) => {
    const series = await allowedSeries(await viewerOf(request), request.params.seriesID);
    return seriesRelations(store.kysely, series.anime_id, true);
  });

  app.get('/api/v3/Series/:seriesID/AniDB/Relations', { schema: { tags: ['Series'], params: SeriesParams } }, async (request) => {
    const series = await allowedSeries(await viewerOf(request), request.params.seriesID);
    return seriesRelations(store.kysely, series.anime_id, false);
  });

  app.post(
    '/api/v3/Episode/:episodeID/Vote',
    { schema: { tags: ['Episode'], params: EpisodeParams, body: VoteBody } },
    async (request, reply) => {
      const value = voteValue(request.body);
      const viewer = await viewerOf(request);
      await allowedEpisode(viewer, request.params.episodeID);
      if (!viewer.userId) throw textError(403, 'Voting needs a user.');
      await store.voteEpisode(viewer.userId, request.params.episodeID, value);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/v3/Episode/:episodeID',
    {
      schema: {
        tags: ['Episode'],
        params: EpisodeParams,
        querystring: Type.Object({
          includeDataFrom: ListParam,
          includeFiles: Type.Boolean({ default: false }),
          includeMediaInfo: Type.Boolean({ default: false }),
          includeAbsolutePaths: Type.Boolean({ default: false }),
          includeXRefs: Type.Boolean({ default: false }),
        }),
      },
    },
    async (request) => {
      const viewer = await viewerOf(request);
      await allowedEpisode(viewer, request.params.episodeID);
      const rows = await store.rows({ episodeIds: [request.params.episodeID] }, viewer.userId);
      if (!rows.length) throw textError(404, EPISODE_NOT_FOUND);
      return store.models(rows, dataFrom(request.query.includeDataFrom))[0];
    },
  );

  app.post(
    '/api/v3/Episode/:episodeID/Watched/:watched',
    { schema: { tags: ['Episode'], params: Type.Object({ episodeID: Type.Integer({ minimum: 1 }), watched: Type.Boolean() }) } },
    async (request, reply) => {
      const viewer = await viewerOf(request);
      await allowedEpisode(viewer, request.params.episodeID);
      if (!viewer.userId) throw textError(403, 'Watched state needs a user.');
      await store.setWatched(viewer.userId, [request.params.episodeID], request.params.watched);
      return reply.code(200).send();
    },
  );

  app.post(
    '/api/v3/Episode/:episodeID/SetHidden',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['Episode'],
        params: EpisodeParams,
        querystring: Type.Object({ value: Type.Boolean({ default: true }), updateStats: Type.Boolean({ default: true }) }),
      },
    },
    async (request, reply) => {
      const viewer = await viewerOf(request);
      await allowedEpisode(viewer, request.params.episodeID);
      await store.setHidden(request.params.episodeID, request.query.value);
      return reply.code(200).send();
    },
  );
}
