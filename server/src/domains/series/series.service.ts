/**
 * DESIGN: the series domain owns one Shoko series as the series page shows it: the Series model with its images and
 * TMDB ids, votes, cast, related and similar anime, relations, the WebUI extras and the file summary. Routes:
 * series.routes.ts; queries: series.store.ts, details.store.ts (AniDB credits and relations), series-images.store.ts.
 * SeriesCatalog (series-catalog.service.ts, routes and store beside it) owns the lists outside groups and filters:
 * GET Series, title search (series-search.ts), StartsWith, PathEndsWith, Years, Seasons and the stored AniDB anime.
 * SeriesEditing (series-editing.service.ts and .routes.ts) owns the title override, AutoMatchSettings and the
 * per-series Trakt syncs; TmdbSeasons (tmdb-seasons.service.ts) answers Series/{id}/TMDB/Season from the TMDB tables.
 * SeriesAccess (series-access.ts) is the 404/403 gate the episodes and tags domains share. Episode lists go to the
 * episodes domain, tags and source material to the tags domain, TMDB links to the tmdb domain; the Series model itself,
 * its visibility rules and its per-viewer sizes are read by SeriesBrowseStore (series-browse.store.ts), which the
 * groups domain's browse store extends with the group trees.
 */
import type {
  NextUpEpisodeQuery,
  SeriesEpisodesQuery,
  SeriesEpisodesWatchedQuery,
  SeriesFileSummaryQuery,
  SeriesQuery,
  VoteBody,
} from '@shoko-ts/contract';
import { textError, validationError } from '../../http/problem.js';
import type { SeriesBrowseStore } from './series-browse.store.js';
import type { ImageSource } from '../images/index.js';
import type { TmdbService } from '../tmdb/index.js';
import type { TagsService } from '../tags/index.js';
import { type EpisodesService, dataFrom, episodeTypes, listOf, voteValue, timeSpan } from '../episodes/index.js';
import type { DetailsStore } from './details.store.js';
import { fileSummary, GROUP_BY_CRITERIA, type GroupByCriterion } from './file-summary.js';
import type { SeriesAccess } from './series-access.js';
import type { SeriesImagesService, SeriesImageType } from './series-images.service.js';
import type { SeriesStore } from './series.store.js';

const ROLE_TYPES = ['Actor', 'Staff', 'Studio', 'Producer', 'Director', 'SeriesComposer', 'CharacterDesign', 'Music', 'SourceWork'];

export class SeriesService {
  constructor(
    private readonly deps: {
      access: SeriesAccess;
      browse: Pick<SeriesBrowseStore, 'seriesModels'>;
      store: SeriesStore;
      details: DetailsStore;
      tags: Pick<TagsService, 'sourceMaterial'>;
      images: SeriesImagesService;
      tmdb: Pick<TmdbService, 'showsOfAnime' | 'moviesOfAnime'>;
      episodes: Pick<EpisodesService, 'seriesEpisodes' | 'setSeriesWatched' | 'nextUp'>;
    },
  ) {}

  private async allowed(userId: number | null, seriesId: number) {
    const viewer = await this.deps.access.viewer(userId);
    return { viewer, series: await this.deps.access.allowedSeries(viewer, seriesId) };
  }

  /** The series' group, after the series' 404 and restricted-tag (403) checks. */
  async parentGroupId(userId: number | null, seriesId: number): Promise<number> {
    return (await this.allowed(userId, seriesId)).series.group_id;
  }

  /** Series/{id}: one image per type (the preferred one, else the first; random with randomImages) and the TMDB ids. */
  async series(userId: number | null, seriesId: number, query: SeriesQuery) {
    const { viewer, series: row } = await this.allowed(userId, seriesId);
    const [series] = await this.deps.browse.seriesModels([seriesId], viewer, dataFrom(query.includeDataFrom));
    const all = await this.deps.images.all(row, false);
    const pick = <T extends { Preferred: boolean }>(list: T[]): T[] => {
      const chosen = query.randomImages ? list[Math.floor(Math.random() * list.length)] : (list.find((i) => i.Preferred) ?? list[0]);
      return chosen ? [chosen] : [];
    };
    series.Images = { Posters: pick(all.Posters), Backdrops: pick(all.Backdrops), Banners: pick(all.Banners), Logos: pick(all.Logos) };
    // TMDB ids (and the TvDB/IMDB ids they carry) of the linked shows and movies.
    const { tmdb } = this.deps;
    const [shows, movies] = await Promise.all([tmdb.showsOfAnime(row.anime_id, new Set()), tmdb.moviesOfAnime(row.anime_id, new Set())]);
    series.IDs.TMDB = { Movie: movies.map((m) => m.ID), Show: shows.map((s) => s.ID) };
    series.IDs.TvDB = shows.flatMap((s) => (s.TvdbID ? [s.TvdbID] : []));
    series.IDs.IMDB = movies.flatMap((m) => (m.ImdbMovieID ? [m.ImdbMovieID] : []));
    if (series.TMDB) series.TMDB = { Movies: movies, Shows: shows };
    return series;
  }

  episodes(userId: number | null, seriesId: number, query: SeriesEpisodesQuery) {
    return this.deps.episodes.seriesEpisodes(userId, seriesId, query, (viewer) => this.deps.access.allowedSeries(viewer, seriesId));
  }

  setEpisodesWatched(userId: number | null, seriesId: number, query: SeriesEpisodesWatchedQuery) {
    return this.deps.episodes.setSeriesWatched(userId, seriesId, query, (viewer) => this.deps.access.allowedSeries(viewer, seriesId));
  }

  async nextUpEpisode(userId: number | null, seriesId: number, query: NextUpEpisodeQuery) {
    const { viewer } = await this.allowed(userId, seriesId);
    return this.deps.episodes.nextUp(viewer, seriesId, query);
  }

  /** Series/{id}/Vote: without an explicit type, a finished anime gets a permanent vote, an airing one a temporary vote. */
  async vote(userId: number | null, seriesId: number, body: VoteBody): Promise<void> {
    const value = voteValue(body);
    const voteType = body.Type;
    const { viewer, series } = await this.allowed(userId, seriesId);
    if (!viewer.userId) throw textError(403, 'Voting needs a user.');
    let type: 'Permanent' | 'Temporary';
    if (voteType && /^permanent$/i.test(voteType)) type = 'Permanent';
    else if (voteType && /^temporary$/i.test(voteType)) type = 'Temporary';
    else {
      const endDate = await this.deps.store.animeEndDate(series.anime_id);
      type = endDate && endDate.slice(0, 10) <= new Date().toISOString().slice(0, 10) ? 'Permanent' : 'Temporary';
    }
    await this.deps.store.vote(viewer.userId, series.id, value, type);
  }

  /** Series/{id}/Cast: role types by name or number; none = all. */
  async cast(userId: number | null, seriesId: number, roleType: string | string[] | undefined) {
    const roleTypes = listOf(roleType).map((r) => {
      const match = /^\d+$/.test(r) ? ROLE_TYPES[Number(r)] : ROLE_TYPES.find((t) => t.toLowerCase() === r.toLowerCase());
      if (!match) throw validationError('roleType', `The value '${r}' is not valid for roleType.`);
      return match;
    });
    const { series } = await this.allowed(userId, seriesId);
    return this.deps.details.cast(series.anime_id, roleTypes);
  }

  async related(userId: number | null, seriesId: number) {
    return this.deps.details.related((await this.allowed(userId, seriesId)).series.anime_id);
  }

  async similar(userId: number | null, seriesId: number) {
    return this.deps.details.similar((await this.allowed(userId, seriesId)).series.anime_id);
  }

  /** Series/{id}/Relations (only local ones) and Series/{id}/AniDB/Relations (all). */
  async relations(userId: number | null, seriesId: number, onlyLocal: boolean) {
    return this.deps.details.seriesRelations((await this.allowed(userId, seriesId)).series.anime_id, onlyLocal);
  }

  /** WebUI/Series/{id}: runtime, first air season, studios, producers and the source material. */
  async webuiExtras(userId: number | null, seriesId: number) {
    const { series } = await this.allowed(userId, seriesId);
    const extras = await this.deps.details.seriesExtras(series.anime_id);
    return {
      ...extras,
      RuntimeLength: extras.RuntimeLength === null ? null : timeSpan(extras.RuntimeLength),
      SourceMaterial: await this.deps.tags.sourceMaterial(series.anime_id),
    };
  }

  // ---------------------------------------------------------------- images

  async images(userId: number | null, seriesId: number, includeDisabled: boolean) {
    return this.deps.images.all((await this.allowed(userId, seriesId)).series, includeDisabled);
  }

  async mainImage(userId: number | null, seriesId: number, type: SeriesImageType) {
    const image = await this.deps.images.main((await this.allowed(userId, seriesId)).series, type);
    if (!image) throw textError(404, 'No default image for type.');
    return image;
  }

  async setPreferredImage(userId: number | null, seriesId: number, type: SeriesImageType, source: ImageSource, id: number) {
    const { series } = await this.allowed(userId, seriesId);
    const result = await this.deps.images.setPreferred(series, type, source, id);
    if (result === 'unknown') throw validationError('Body', 'Invalid image id for selected source.');
    if (result === 'disabled') throw validationError('Body', 'Image is disabled.');
    return result;
  }

  async unsetPreferredImage(userId: number | null, seriesId: number, type: SeriesImageType): Promise<void> {
    const { series } = await this.allowed(userId, seriesId);
    if (!(await this.deps.images.unsetPreferred(series.id, type))) throw validationError('Body', 'No preferred image is set for the type.');
  }

  /** WebUI/Series/{id}/FileSummary: an explicitly empty `type` means every type; omitted means Episode, Special, Other. */
  async fileSummary(userId: number | null, seriesId: number, q: SeriesFileSummaryQuery) {
    const types = q.type === undefined ? null : episodeTypes(q.type);
    const groupBy = listOf(q.groupBy).map((g) => {
      const match = GROUP_BY_CRITERIA.find((c) => c.toLowerCase() === g.toLowerCase());
      if (!match) throw validationError('groupBy', `The value '${g}' is not valid for groupBy.`);
      return match as GroupByCriterion;
    });
    const { series } = await this.allowed(userId, seriesId);
    return fileSummary(this.deps.store, series.id, { ...q, types, groupBy });
  }
}
