/**
 * DESIGN: the episodes domain owns Shoko episodes: the Episode model (§2.4), the viewer's watch state and episode
 * votes, hiding, and the episode lists, filters and next-up choice that the series page shows. Routes:
 * episodes.routes.ts (Episode/{id}, Vote, Watched, SetHidden; Episode/{id}/File through FilesService) and
 * episode-tmdb.routes.ts (Episode/{id}/TMDB/*, through TmdbService and TmdbLinking); queries live in
 * episodes.store.ts, row filtering and wire mapping in episode-models.ts. The series domain checks series access and
 * calls this service for Series/{id}/Episode*; the files domain builds the File models an episode carries with
 * `includeFiles`.
 */
import type { Episode, EpisodeQuery, File, NextUpEpisodeQuery, SeriesEpisodesQuery, SeriesEpisodesWatchedQuery } from '@shoko-ts/contract';
import { textError } from '../../http/problem.js';
import type { Viewer } from '../groups/browse.store.js';
import type { SeriesAccess } from '../series/series-access.js';
import { episodeModels, selectEpisodes, type EpisodeRow } from './episode-models.js';
import { dataFrom, episodeFilter, includeOnly, listOf, voteValue } from './episode-query.js';
import type { EpisodesStore } from './episodes.store.js';

export const EPISODE_NOT_FOUND = 'No Episode entry for the given episodeID';
export const EPISODE_FORBIDDEN = 'Accessing Episode is not allowed for the current user';

/** The files of one episode in the File model, for `includeFiles` (from the files domain). */
export type EpisodeFiles = (
  episodeId: number,
  options: { includeMediaInfo: boolean; includeAbsolutePaths: boolean; includeXRefs: boolean; dataFrom: string[]; viewerId?: number },
) => Promise<File[]>;

export class EpisodesService {
  constructor(private readonly deps: { access: SeriesAccess; store: EpisodesStore; episodeFiles?: EpisodeFiles }) {}

  /** The episode, after the 404 and restricted-tag (403) checks of its series. */
  private async allowedEpisode(viewer: Viewer, episodeId: number) {
    const episode = await this.deps.store.episodeRef(episodeId);
    if (!episode) throw textError(404, EPISODE_NOT_FOUND);
    if (episode.anime_id === null) throw textError(500, 'Unable to get series for the episode');
    if (!(await this.deps.access.isAnimeAllowed(viewer, episode.anime_id))) throw textError(403, EPISODE_FORBIDDEN);
    return episode;
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
    return episodeModels(rows, dataFrom(query.includeDataFrom))[0];
  }

  async setWatched(userId: number | null, episodeId: number, watched: boolean): Promise<void> {
    const viewer = await this.deps.access.viewer(userId);
    await this.allowedEpisode(viewer, episodeId);
    if (!viewer.userId) throw textError(403, 'Watched state needs a user.');
    await this.deps.store.setWatched(viewer.userId, [episodeId], watched);
  }

  async setHidden(userId: number | null, episodeId: number, hidden: boolean): Promise<void> {
    const viewer = await this.deps.access.viewer(userId);
    await this.allowedEpisode(viewer, episodeId);
    await this.deps.store.setHidden(episodeId, hidden);
  }

  // ---------------------------------------------------------------- a series' episodes (access checked by the series service)

  /** Series/{id}/Episode: filter values are parsed before `checkSeries` runs, so a bad value is a 400 before any 404. */
  async seriesEpisodes(userId: number | null, seriesId: number, q: SeriesEpisodesQuery, checkSeries: (viewer: Viewer) => Promise<unknown>) {
    const filter = episodeFilter(q);
    const manual = includeOnly(q.includeManuallyLinked, 'true', 'includeManuallyLinked');
    const viewer = await this.deps.access.viewer(userId);
    await checkSeries(viewer);
    let selected = selectEpisodes(await this.deps.store.rows({ seriesId }, viewer.userId), filter);
    if (manual !== 'true') {
      const linked = await this.deps.store.manuallyLinkedEpisodeIds(seriesId);
      selected = selected.filter((row) => (manual === 'only') === linked.has(row.id));
    }
    const page = q.pageSize === 0 ? selected : selected.slice((q.page - 1) * q.pageSize, q.page * q.pageSize);
    const models = episodeModels(page, dataFrom(q.includeDataFrom));
    if (q.includeFiles && this.deps.episodeFiles) {
      const options = {
        includeMediaInfo: q.includeMediaInfo,
        includeAbsolutePaths: q.includeAbsolutePaths,
        includeXRefs: q.includeXRefs,
        dataFrom: listOf(q.includeDataFrom),
        viewerId: viewer.userId || undefined,
      };
      for (const model of models) model.Files = await this.deps.episodeFiles(model.IDs.ID, options);
    }
    return { Total: selected.length, List: models };
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
    await this.deps.store.setWatched(
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
    const available = (row: EpisodeRow) =>
      row.files > 0 || q.includeUnaired || (q.includeMissing && !!row.air_date && row.air_date.slice(0, 10) <= today);
    const ordered = (await this.deps.store.rows({ seriesId }, viewer.userId))
      .filter((row) => !row.is_hidden && eligibleType(row.type))
      .sort((a, b) => rank(a.type) - rank(b.type) || a.number - b.number);
    let next: EpisodeRow | undefined;
    if (q.includeRewatching) {
      const last = ordered.reduce((found, row, index) => (row.watched_at ? index : found), -1);
      if (last >= 0) next = ordered.slice(last + 1).find(available);
    }
    next ??= ordered.find((row) => !row.watched_at && available(row));
    return next ? episodeModels([next], dataFrom(q.includeDataFrom))[0] : null;
  }

  /** Episode models of episode ids for one user, in the order of `episodeIds` (unknown ids skipped). */
  async modelsInOrder(
    episodeIds: number[],
    userId: number,
    options: { includeAniDB?: boolean; includeTMDB?: boolean },
  ): Promise<Episode[]> {
    const byId = new Map((await this.deps.store.rows({ episodeIds }, userId)).map((r) => [r.id, r]));
    return episodeModels(
      episodeIds.map((id) => byId.get(id)).filter((r) => r !== undefined),
      options,
    );
  }
}
