/**
 * DESIGN: the episodes domain owns Shoko episodes: the Episode model (§2.4), the viewer's watch state and episode
 * votes, hiding, and the episode lists, filters and next-up choice that the series page shows. Routes:
 * episodes.routes.ts (Episode list, Episode/{id}, Vote, Watched, SetHidden, OverrideTitle, AniDB, WithNoFiles;
 * Episode/{id}/File through FilesService, Episode/{id}/Series through SeriesService) and episode-tmdb.routes.ts
 * (Episode/{id}/TMDB/*, through TmdbService and TmdbLinking); queries live in episodes.store.ts (the all-episodes list
 * filters, orders and pages there, in SQL, over migration 0043's maintained keys), per-series row filtering and
 * wire mapping in episode-models.ts. The series domain checks series access and calls this service for
 * Series/{id}/Episode*; the files domain builds the File models an episode carries with `includeFiles`, the metadata
 * domain the file cross-references behind `includeXRefs`. Episode images (Episode/{id}/Images*, and one image per
 * type on every Episode model) come from episode-images.service.ts over the images domain's image-lists.ts.
 */
import type {
  AnidbEpisode,
  AnidbEpisodesQuery,
  Episode,
  EpisodeCrossReference,
  EpisodeListQuery,
  EpisodeQuery,
  EpisodesWithNoFilesQuery,
  File,
  FileCrossReference,
  ListResult,
  NextUpEpisodeQuery,
  SeriesEpisodesQuery,
  SeriesEpisodesWatchedQuery,
} from '@shoko-ts/contract';
import type { EventBus, WatchedSource } from '../../events/bus.js';
import { textError, validationError } from '../../http/problem.js';
import type { ImageSource } from '../images/index.js';
import type { Viewer } from '../../http/viewer.js';
import { anidbEpisodeModel, episodeModels, selectEpisodes, type EpisodeRow } from './episode-models.js';
import { dataFrom, episodeFilter, episodeTypes, includeOnly, listOf, voteValue } from './episode-query.js';
import type { EpisodeImagesService, EpisodeImageType } from './episode-images.service.js';
import type { EpisodesStore, NextUpCandidate } from './episodes.store.js';

export const EPISODE_NOT_FOUND = 'No Episode entry for the given episodeID';
export const EPISODE_FORBIDDEN = 'Accessing Episode is not allowed for the current user';
export const ANIDB_EPISODE_NOT_FOUND = 'No Episode.Anidb entry for the given anidbEpisodeID';
export const EPISODE_OF_ANIDB_NOT_FOUND = 'No Episode entry for the given anidbEpisodeID';

/** The files of each episode in the File model, for `includeFiles` (from the files domain): a few queries for the whole list. */
export type EpisodeFiles = (
  episodeIds: number[],
  options: {
    includeMediaInfo: boolean;
    includeAbsolutePaths: boolean;
    includeXRefs: boolean;
    dataFrom: string[];
    viewerId?: number;
    /** The series every episode belongs to (the series' episode list), when they are of one series. */
    seriesId?: number;
    /** The cross-references of every content linked to the episodes, when read for `includeXRefs` already. */
    crossReferences?: Map<string, FileCrossReference[]>;
  },
) => Promise<Map<number, File[]>>;

/** The File model's cross-references of file contents (`ed2k:size` keys), from the metadata domain. */
export type ContentCrossReferences = (contents: Array<{ ed2k: string; size: number }>) => Promise<Map<string, FileCrossReference[]>>;

/** The contents linked to some AniDB episodes (`ids`) and their cross-references by content (null: none read). */
interface ContentXRefs {
  ids: number[];
  links: Array<{ ed2k: string; size: number; episode_id: number }>;
  byContent: Map<string, FileCrossReference[]> | null;
}

/** What an Episode model may carry beyond its own fields: `Files` and `CrossReferences`. */
interface EpisodeExtras {
  includeFiles?: boolean;
  includeMediaInfo?: boolean;
  includeAbsolutePaths?: boolean;
  includeXRefs?: boolean;
  includeDataFrom?: string | string[];
  /** Every row is of this series (Series/{id}/Episode). */
  seriesId?: number;
}

const pageOf = <T>(list: T[], page: number, pageSize: number) =>
  pageSize === 0 ? list : list.slice((page - 1) * pageSize, page * pageSize);

/** The series' visibility gate (the series domain's SeriesAccess, given at wiring: series depend on episodes, not back). */
export interface SeriesGate {
  viewer(userId: number | null): Promise<Viewer>;
  isAnimeAllowed(viewer: Viewer, animeId: number): Promise<boolean>;
}

export class EpisodesService {
  constructor(
    private readonly deps: {
      access: SeriesGate;
      store: EpisodesStore;
      episodeFiles?: EpisodeFiles;
      crossReferences?: ContentCrossReferences;
      images?: EpisodeImagesService;
      /** `includeDataFrom=TMDB`: the TMDB episodes (preferred ordering) and movies linked to an episode, from the TMDB domain. */
      tmdbData?: (episodeId: number) => Promise<{ Episodes: unknown[]; Movies: unknown[] }>;
      bus?: EventBus;
    },
  ) {}

  /** The episode, after the 404 and restricted-tag (403) checks of its series. */
  private async allowedEpisode(viewer: Viewer, episodeId: number) {
    const episode = await this.deps.store.episodeRef(episodeId);
    if (!episode) throw textError(404, EPISODE_NOT_FOUND);
    const animeId = episode.anime_id;
    if (animeId === null) throw textError(500, 'Unable to get series for the episode');
    if (!(await this.deps.access.isAnimeAllowed(viewer, animeId))) throw textError(403, EPISODE_FORBIDDEN);
    return { ...episode, anime_id: animeId };
  }

  async vote(userId: number | null, episodeId: number, body: { Value: number; MaxValue: number }): Promise<void> {
    const value = voteValue(body);
    const viewer = await this.deps.access.viewer(userId);
    await this.allowedEpisode(viewer, episodeId);
    if (!viewer.userId) throw textError(403, 'Voting needs a user.');
    await this.deps.store.vote(viewer.userId, episodeId, value);
  }

  async episode(userId: number | null, episodeId: number, query: EpisodeQuery): Promise<Episode> {
    const viewer = await this.deps.access.viewer(userId);
    await this.allowedEpisode(viewer, episodeId);
    const rows = await this.deps.store.rows({ episodeIds: [episodeId] }, viewer.userId);
    if (!rows.length) throw textError(404, EPISODE_NOT_FOUND);
    return (await this.models(rows, query, viewer.userId))[0];
  }

  /** Episode/AniDB/{id}/Episode: the Shoko episode of an AniDB episode. */
  async episodeOfAnidb(userId: number | null, anidbEpisodeId: number, query: EpisodeQuery): Promise<Episode> {
    if (!(await this.deps.store.anidbEpisode(anidbEpisodeId))) throw textError(404, ANIDB_EPISODE_NOT_FOUND);
    const episodeId = await this.deps.store.episodeIdOfAnidb(anidbEpisodeId);
    if (episodeId === null) throw textError(404, EPISODE_OF_ANIDB_NOT_FOUND);
    return this.episode(userId, episodeId, query);
  }

  /** Episode/AniDB/{id}: the AniDB episode, without an access check (as the contract says). */
  async anidbEpisode(anidbEpisodeId: number): Promise<AnidbEpisode> {
    const row = await this.deps.store.anidbEpisode(anidbEpisodeId);
    if (!row) throw textError(404, ANIDB_EPISODE_NOT_FOUND);
    return anidbEpisodeModel(row);
  }

  /** Episode/{id}/AniDB: the AniDB episode of a Shoko episode (500 when its AniDB data is missing). */
  async anidbOfEpisode(userId: number | null, episodeId: number): Promise<AnidbEpisode> {
    const episode = await this.allowedEpisode(await this.deps.access.viewer(userId), episodeId);
    const row = await this.deps.store.anidbEpisode(episode.anidb_episode_id);
    if (!row) throw textError(500, 'No AniDB episode entry for the given episodeID');
    return anidbEpisodeModel(row);
  }

  /** Episode/{id}/Series: the id of the episode's series, after the episode's 404/403 checks. */
  async seriesIdOf(userId: number | null, episodeId: number): Promise<number> {
    return (await this.allowedEpisode(await this.deps.access.viewer(userId), episodeId)).series_id;
  }

  /** Episode/{id}/OverrideTitle: an empty (or blank) title clears the override. */
  async overrideTitle(userId: number | null, episodeId: number, title: string): Promise<void> {
    await this.allowedEpisode(await this.deps.access.viewer(userId), episodeId);
    await this.deps.store.setTitleOverride(episodeId, title.trim() ? title.trim() : null);
  }

  /** Episode (GET): the §5.5 filters over every series the viewer may see, by series, type and number (relevance with `search`). */
  async list(userId: number | null, q: EpisodeListQuery): Promise<ListResult<Episode>> {
    const filter = episodeFilter(q);
    const viewer = await this.deps.access.viewer(userId);
    const today = new Date().toISOString().slice(0, 10);
    if (!filter.search) {
      const { total, rows } = await this.deps.store.filteredPage(filter, viewer, q, today);
      return { Total: total, List: await this.models(rows, q, viewer.userId) };
    }
    // Relevance is scored here (titles normalised with NFKD) over the rows the filters keep.
    const { rows } = await this.deps.store.filteredPage(filter, viewer, { page: 1, pageSize: 0 }, today);
    const selected = selectEpisodes(rows, filter, today);
    return { Total: selected.length, List: await this.models(pageOf(selected, q.page, q.pageSize), q, viewer.userId) };
  }

  /** Episode/AniDB (admin): AniDB episodes by anime, type and number. */
  async anidbEpisodes(q: AnidbEpisodesQuery): Promise<ListResult<AnidbEpisode>> {
    const { total, rows } = await this.deps.store.anidbEpisodePage(episodeTypes(q.type), q);
    return { Total: total, List: rows.map((row) => anidbEpisodeModel(row)) };
  }

  /**
   * Episode/WithNoFiles: normal episodes (and specials when asked) without a local file, of every series (no access
   * filtering, as the contract says), by series, type and number.
   */
  async withNoFiles(userId: number | null, q: EpisodesWithNoFilesQuery): Promise<ListResult<Episode>> {
    const viewer = await this.deps.access.viewer(userId);
    const today = new Date().toISOString().slice(0, 10);
    const finished = q.onlyFinishedSeries ? await this.deps.store.finishedAnimeIds(today) : null;
    // Shoko lists these without a visibility check (collection.md §14.16); a user's tag restrictions apply here as in
    // every other list (issue 44).
    const selected = selectEpisodes(await this.deps.store.rows({ restrictedTags: viewer.restrictedTags }, viewer.userId), {
      includeMissing: 'true',
      includeUnaired: 'true',
      includeHidden: 'true',
      includeWatched: 'true',
      includeVoted: 'true',
      types: q.includeSpecials ? ['Episode', 'Special'] : ['Episode'],
    })
      .filter((row) => row.files === 0)
      .filter((row) => !q.onlyAiredEpisodes || (!!row.air_date && row.air_date.slice(0, 10) <= today))
      .filter((row) => !finished || finished.has(row.anime_id))
      .sort((a, b) => a.series_id - b.series_id);
    return {
      Total: selected.length,
      List: await this.models(pageOf(selected, q.page, q.pageSize), { includeXRefs: q.includeXRefs }, viewer.userId),
    };
  }

  // ---------------------------------------------------------------- images (collection.md §6 Episode images)

  private get images(): EpisodeImagesService {
    if (!this.deps.images) throw new Error('Episode images are not wired');
    return this.deps.images;
  }

  async imageLists(userId: number | null, episodeId: number, includeDisabled: boolean) {
    return this.images.all(await this.allowedEpisode(await this.deps.access.viewer(userId), episodeId), includeDisabled);
  }

  /** The preferred image of the type, else the first; null when the episode has none. */
  async mainImage(userId: number | null, episodeId: number, type: EpisodeImageType) {
    return this.images.main(await this.allowedEpisode(await this.deps.access.viewer(userId), episodeId), type);
  }

  async setPreferredImage(userId: number | null, episodeId: number, type: EpisodeImageType, source: ImageSource, id: number) {
    const episode = await this.allowedEpisode(await this.deps.access.viewer(userId), episodeId);
    const result = await this.images.setPreferred(episode, type, source, id);
    if (result === 'unknown') throw validationError('Body', 'Invalid image id for selected source.');
    if (result === 'disabled') throw validationError('Body', 'Image is disabled.');
    return result;
  }

  async unsetPreferredImage(userId: number | null, episodeId: number, type: EpisodeImageType): Promise<void> {
    await this.allowedEpisode(await this.deps.access.viewer(userId), episodeId);
    if (!(await this.images.unsetPreferred(episodeId, type))) throw validationError('Body', 'No preferred image is set for the type.');
  }

  /** Fills each model's `Images` (one image per list: the preferred one, else the first) and its TMDB ids. */
  private async withImages(models: Episode[]): Promise<Episode[]> {
    if (!this.deps.images || !models.length) return models;
    const [summaries, tmdb] = await Promise.all([
      this.deps.images.summaries(models.map((m) => ({ id: m.IDs.ID, anidb_episode_id: m.IDs.AniDB }))),
      this.deps.images.tmdbIds([...new Set(models.map((m) => m.IDs.AniDB))]),
    ]);
    for (const model of models) {
      const images = summaries.get(model.IDs.ID);
      if (images) model.Images = { ...images, Thumbnails: images.Thumbnails ?? [] };
      model.IDs.TMDB = tmdb.get(model.IDs.AniDB) ?? model.IDs.TMDB;
    }
    return models;
  }

  /**
   * Episode models of rows with their images and the `includeDataFrom`, `includeFiles` and `includeXRefs` extras. The
   * images, the TMDB data and the files fill separate fields, so their queries run side by side (on PostgreSQL's pool).
   */
  private async models(rows: EpisodeRow[], extras: EpisodeExtras, userId: number): Promise<Episode[]> {
    const data = dataFrom(extras.includeDataFrom);
    const models = episodeModels(rows, data);
    // The episodes' and their files' cross-references are those of the same contents: read once for both.
    const xrefs = extras.includeXRefs ? this.contentCrossReferences(models.map((m) => m.IDs.AniDB)) : null;
    await Promise.all([
      // The TMDB data reads the TMDB ids the images step fills.
      this.withImages(models).then(() => (data.includeTMDB ? this.withTmdb(models) : null)),
      extras.includeFiles ? this.withFiles(models, extras, userId, xrefs) : null,
    ]);
    return xrefs ? this.withCrossReferences(models, await xrefs) : models;
  }

  /** `Files` of each model (`includeFiles`), from the files domain. */
  private async withFiles(models: Episode[], extras: EpisodeExtras, userId: number, xrefs: Promise<ContentXRefs> | null): Promise<void> {
    if (!this.deps.episodeFiles) return;
    const known = xrefs && (await xrefs).byContent;
    const options = {
      includeMediaInfo: !!extras.includeMediaInfo,
      includeAbsolutePaths: !!extras.includeAbsolutePaths,
      includeXRefs: !!extras.includeXRefs,
      dataFrom: listOf(extras.includeDataFrom),
      viewerId: userId || undefined,
      seriesId: extras.seriesId,
      crossReferences: known ?? undefined,
    };
    const files = await this.deps.episodeFiles(
      models.map((m) => m.IDs.ID),
      options,
    );
    for (const model of models) model.Files = files.get(model.IDs.ID) ?? [];
  }

  /**
   * `TMDB` of each model: its linked TMDB episodes and movies. An episode without any TMDB link (its TMDB ids, read
   * with the images, are empty) keeps the empty lists it was made with: a long series asks only about its linked ones.
   */
  private async withTmdb(models: Episode[]): Promise<void> {
    if (!this.deps.tmdbData) return;
    const linksKnown = !!this.deps.images;
    for (const model of models) {
      if (linksKnown && !model.IDs.TMDB.Episode.length && !model.IDs.TMDB.Movie.length) continue;
      model.TMDB = await this.deps.tmdbData(model.IDs.ID);
    }
  }

  private withCrossReferences(models: Episode[], xrefs: ContentXRefs): Episode[] {
    const byEpisode = this.episodeCrossReferences(xrefs);
    for (const model of models) model.CrossReferences = byEpisode.get(model.IDs.AniDB) ?? [];
    return models;
  }

  /**
   * The contents linked to AniDB episodes and every file cross-reference of each (by `ed2k:size`), as the File model
   * shows them; `byContent` is null when no content is linked or the cross-references are not wired.
   */
  private async contentCrossReferences(anidbEpisodeIds: number[]): Promise<ContentXRefs> {
    const ids = [...new Set(anidbEpisodeIds)];
    const links = await this.deps.store.linkedContents(ids);
    const byContent = links.length && this.deps.crossReferences ? await this.deps.crossReferences(links) : null;
    return { ids, links, byContent };
  }

  /** Each AniDB episode's cross-references (one per linked content), from its contents' (contentCrossReferences). */
  private episodeCrossReferences({ ids, links, byContent }: ContentXRefs): Map<number, EpisodeCrossReference[]> {
    const result = new Map<number, EpisodeCrossReference[]>(ids.map((id) => [id, []]));
    if (!byContent) return result;
    const seen = new Set<string>();
    for (const link of links) {
      const key = `${link.ed2k}:${link.size}`;
      if (seen.has(`${key}:${link.episode_id}`)) continue;
      seen.add(`${key}:${link.episode_id}`);
      const list = result.get(link.episode_id)!;
      for (const series of byContent.get(key) ?? []) list.push(...series.EpisodeIDs.filter((e) => e.AniDB === link.episode_id));
    }
    return result;
  }

  async setWatched(userId: number | null, episodeId: number, watched: boolean): Promise<void> {
    const viewer = await this.deps.access.viewer(userId);
    await this.allowedEpisode(viewer, episodeId);
    if (!viewer.userId) throw textError(403, 'Watched state needs a user.');
    await this.recordWatched(viewer.userId, [episodeId], watched);
  }

  /** Stores a user's watched state of episodes and announces the ones that changed (Trakt follows them). */
  async recordWatched(userId: number, episodeIds: number[], watched: boolean, source: WatchedSource = 'User'): Promise<void> {
    const changed = await this.deps.store.setWatched(userId, episodeIds, watched);
    if (changed.length) this.deps.bus?.emit('watched:changed', { userId, episodeIds: changed, watched, source });
  }

  async setHidden(userId: number | null, episodeId: number, hidden: boolean): Promise<void> {
    const viewer = await this.deps.access.viewer(userId);
    const episode = await this.allowedEpisode(viewer, episodeId);
    await this.deps.store.setHidden(episodeId, hidden);
    this.deps.bus?.emit('shoko', {
      event: 'EpisodeUpdated',
      payload: {
        Source: 'AniDB',
        Reason: 'Updated',
        EpisodeID: episode.anidb_episode_id,
        SeriesID: episode.anime_id,
        ShokoEpisodeIDs: [episode.id],
        ShokoSeriesIDs: [episode.series_id],
      },
    });
  }

  // ---------------------------------------------------------------- a series' episodes (access checked by the series service)

  /** Series/{id}/Episode: filter values are parsed before `checkSeries` runs, so a bad value is a 400 before any 404. */
  async seriesEpisodes(userId: number | null, seriesId: number, q: SeriesEpisodesQuery, checkSeries: (viewer: Viewer) => Promise<unknown>) {
    const filter = episodeFilter(q);
    const manual = includeOnly(q.includeManuallyLinked, 'true', 'includeManuallyLinked');
    const viewer = await this.deps.access.viewer(userId);
    await checkSeries(viewer);
    if (!filter.search && manual === 'true') {
      // Filtered, ordered and paged by the database: a long series' page costs what a short one's does.
      const today = new Date().toISOString().slice(0, 10);
      const { total, rows } = await this.deps.store.filteredPage(filter, { userId: viewer.userId, restrictedTags: [] }, q, today, seriesId);
      return { Total: total, List: await this.models(rows, { ...q, seriesId }, viewer.userId) };
    }
    let selected = selectEpisodes(await this.deps.store.rows({ seriesId }, viewer.userId), filter);
    if (manual !== 'true') {
      const linked = await this.deps.store.manuallyLinkedEpisodeIds(seriesId);
      selected = selected.filter((row) => (manual === 'only') === linked.has(row.id));
    }
    return { Total: selected.length, List: await this.models(pageOf(selected, q.page, q.pageSize), { ...q, seriesId }, viewer.userId) };
  }

  /** Series/{id}/Episode/Watched: every episode matching the filters. */
  async setSeriesWatched(
    userId: number | null,
    seriesId: number,
    q: SeriesEpisodesWatchedQuery,
    checkSeries: (viewer: Viewer) => Promise<unknown>,
  ): Promise<void> {
    const filter = episodeFilter(q);
    const viewer = await this.deps.access.viewer(userId);
    await checkSeries(viewer);
    if (!viewer.userId) throw textError(403, 'Watched state needs a user.');
    const selected = selectEpisodes(await this.deps.store.rows({ seriesId }, viewer.userId), filter);
    await this.recordWatched(
      viewer.userId,
      selected.map((r) => r.id),
      q.value,
    );
  }

  /** Series/{id}/NextUpEpisode: null when nothing is left to watch. */
  async nextUp(viewer: Viewer, seriesId: number, q: NextUpEpisodeQuery): Promise<Episode | null> {
    const today = new Date().toISOString().slice(0, 10);
    // Normal episodes first, then Others, then Specials; each by number. Resume positions are not tracked yet.
    const rank = (type: string) => (type === 'Episode' ? 0 : type === 'Other' ? 1 : 2);
    const eligibleType = (type: string) =>
      type === 'Episode' || (q.includeOthers && type === 'Other') || (q.includeSpecials && type === 'Special');
    const available = (row: NextUpCandidate) =>
      row.files > 0 || q.includeUnaired || (q.includeMissing && !!row.air_date && row.air_date.slice(0, 10) <= today);
    const ordered = (await this.deps.store.nextUpCandidates(seriesId, viewer.userId))
      .filter((row) => !row.is_hidden && eligibleType(row.type))
      .sort((a, b) => rank(a.type) - rank(b.type) || a.number - b.number);
    let next: NextUpCandidate | undefined;
    if (q.includeRewatching) {
      const last = ordered.reduce((found, row, index) => (row.watched_at ? index : found), -1);
      if (last >= 0) next = ordered.slice(last + 1).find(available);
    }
    next ??= ordered.find((row) => !row.watched_at && available(row));
    if (!next) return null;
    return (await this.models(await this.deps.store.rows({ episodeIds: [next.id] }, viewer.userId), q, viewer.userId))[0] ?? null;
  }

  /**
   * Episode models of episode ids for one user, in the order of `episodeIds` (unknown ids skipped); with
   * `includeXRefs` each carries its CrossReferences.
   */
  async modelsInOrder(
    episodeIds: number[],
    userId: number,
    options: { includeAniDB?: boolean; includeTMDB?: boolean; includeXRefs?: boolean },
  ): Promise<Episode[]> {
    const byId = new Map((await this.deps.store.rows({ episodeIds }, userId)).map((r) => [r.id, r]));
    const models = await this.withImages(
      episodeModels(
        episodeIds.map((id) => byId.get(id)).filter((r) => r !== undefined),
        options,
      ),
    );
    if (options.includeTMDB) await this.withTmdb(models);
    if (!options.includeXRefs) return models;
    return this.withCrossReferences(models, await this.contentCrossReferences(models.map((m) => m.IDs.AniDB)));
  }
}
