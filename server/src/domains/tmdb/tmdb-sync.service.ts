import type { Logger } from 'pino';
import type { EventBus } from '../../events/bus.js';
import { JobPriority, PermanentJobError, type JobDefinition } from '../../jobs/job.js';
import type { QueueService } from '../../jobs/queue.service.js';
import {
  TmdbNotFoundError,
  type TmdbEpisodeGroupDetails,
  type TmdbMovieAppendable,
  type TmdbShowAppendable,
} from '../../providers/tmdb/index.js';
import type { SettingsService } from '../settings/index.js';
import { TmdbKeyMissingError, type TmdbApi } from './tmdb-api.js';
import { movieSnapshot, showSnapshot } from './tmdb-snapshot.js';
import type { TmdbStore } from './tmdb.store.js';

export interface RefreshShowOptions {
  force?: boolean;
  downloadImages?: boolean;
  /** null/undefined = setting TMDB.AutoDownloadCrewAndCast. */
  downloadCrewAndCast?: boolean | null;
  /** null/undefined = setting TMDB.AutoDownloadAlternateOrdering. */
  downloadAlternateOrdering?: boolean | null;
}

export interface RefreshMovieOptions {
  force?: boolean;
  downloadImages?: boolean;
  downloadCrewAndCast?: boolean | null;
}

export type RefreshOutcome = 'updated' | 'recent' | 'not-found';

interface ShowJobPayload extends RefreshShowOptions {
  showId: number;
}
interface MovieJobPayload extends RefreshMovieOptions {
  movieId: number;
}

/** Shoko does not re-fetch a show or movie stored within the last hour unless forced. */
const MIN_REFRESH_INTERVAL_MS = 60 * 60 * 1000;

/** Where downloaded TMDB images go; wired to the image store when there is one. */
export type TmdbImageHook = (owner: { type: 'Show' | 'Movie'; id: number }) => Promise<void>;

/** What the sync works with; the TMDB domain builds it from the same, less the API holder it makes itself. */
export interface TmdbSyncDeps {
  api: TmdbApi;
  store: TmdbStore;
  settings: SettingsService;
  queue: QueueService;
  bus: EventBus;
  logger: Logger;
  /** Queues the downloads of a refreshed show's or movie's images (the image store's entry point). */
  queueImageDownloads?: TmdbImageHook;
}

/**
 * Fetches TMDB shows (details, every season with its episodes, alternate orderings, credits, images) and movies, and
 * stores each in one transaction. Runs now (`refreshShow` / `refreshMovie`) or as the queued jobs
 * "Update TMDB Show" / "Update TMDB Movie".
 */
export class TmdbSync {
  /** Runs after a show was stored anew (the linking service re-matches the episodes of anime linked to it). */
  afterShowUpdate: ((showId: number) => Promise<void>) | null = null;
  readonly showJob: JobDefinition<ShowJobPayload>;
  readonly movieJob: JobDefinition<MovieJobPayload>;

  constructor(private readonly deps: TmdbSyncDeps) {
    this.showJob = {
      kind: 'UpdateTmdbShowJob',
      type: 'Update TMDB Show',
      title: 'Updating TMDB Show',
      group: 'TMDB',
      priority: JobPriority.Lookup,
      key: (p) => `${p.showId}`,
      details: (p) => ({ ShowID: p.showId }),
      run: async (p, ctx) => {
        const outcome = await this.runJob(() => this.refreshShow(p.showId, p));
        ctx.logger.info(`TMDB show ${p.showId}: ${describe(outcome)}`);
      },
    };
    this.movieJob = {
      kind: 'UpdateTmdbMovieJob',
      type: 'Update TMDB Movie',
      title: 'Updating TMDB Movie',
      group: 'TMDB',
      priority: JobPriority.Lookup,
      key: (p) => `${p.movieId}`,
      details: (p) => ({ MovieID: p.movieId }),
      run: async (p, ctx) => {
        const outcome = await this.runJob(() => this.refreshMovie(p.movieId, p));
        ctx.logger.info(`TMDB movie ${p.movieId}: ${describe(outcome)}`);
      },
    };
    deps.queue.register(this.showJob);
    deps.queue.register(this.movieJob);
  }

  /** Queues the downloads of a stored show's or movie's images (no-op without an image store). */
  async downloadImages(owner: { type: 'Show' | 'Movie'; id: number }): Promise<void> {
    await this.deps.queueImageDownloads?.(owner);
  }

  /** Series/{id}/TMDB/{Show,Movie}/Action/DownloadImages: the images of every stored show or movie linked to the anime. */
  async downloadImagesOfAnime(animeId: number, kind: 'Show' | 'Movie'): Promise<void> {
    const { store } = this.deps;
    const ids =
      kind === 'Show'
        ? (await store.showLinksOfAnime(animeId)).map((link) => link.show_id)
        : [...new Set((await store.movieLinksOfAnime(animeId)).map((link) => link.movie_id))];
    for (const id of ids) if (kind === 'Show' ? await store.show(id) : await store.movie(id)) await this.downloadImages({ type: kind, id });
  }

  queueShow(showId: number, options: RefreshShowOptions = {}): Promise<boolean> {
    return this.deps.queue.enqueue(this.showJob, { showId, ...options });
  }

  queueMovie(movieId: number, options: RefreshMovieOptions = {}): Promise<boolean> {
    return this.deps.queue.enqueue(this.movieJob, { movieId, ...options });
  }

  /** A missing key will not appear by retrying: the job ends at once and says why. */
  private async runJob(refresh: () => Promise<RefreshOutcome>): Promise<RefreshOutcome> {
    try {
      return await refresh();
    } catch (error) {
      if (error instanceof TmdbKeyMissingError) throw new PermanentJobError(error.message);
      throw error;
    }
  }

  async refreshShow(showId: number, options: RefreshShowOptions = {}): Promise<RefreshOutcome> {
    const client = this.deps.api.requireClient();
    if (!options.force && (await this.isRecent(this.deps.store.show(showId)))) return 'recent';
    const settings = this.deps.settings.current.TMDB;
    const withCredits = options.downloadCrewAndCast ?? settings.AutoDownloadCrewAndCast;
    const withOrderings = options.downloadAlternateOrdering ?? settings.AutoDownloadAlternateOrdering;
    const withImages = options.downloadImages ?? true;
    const append: TmdbShowAppendable[] = ['content_ratings', 'translations', 'external_ids', 'keywords'];
    if (withCredits) append.push('credits');
    if (withImages) append.push('images');
    if (withOrderings) append.push('episode_groups');

    let show;
    try {
      show = await client.getShow(showId, { appendToResponse: append });
    } catch (error) {
      if (error instanceof TmdbNotFoundError) return 'not-found';
      throw error;
    }
    const seasons = [];
    for (const summary of [...show.seasons].sort((a, b) => a.season_number - b.season_number)) {
      try {
        seasons.push(await client.getSeason(showId, summary.season_number, { appendToResponse: ['translations'] }));
      } catch (error) {
        // TMDB lists seasons it cannot serve now and then; the rest of the show is still worth storing.
        if (!(error instanceof TmdbNotFoundError)) throw error;
        this.deps.logger.warn(`TMDB show ${showId} lists season ${summary.season_number}, but TMDB does not have it`);
      }
    }
    let groups: TmdbEpisodeGroupDetails[] | null = null;
    if (withOrderings) {
      groups = [];
      for (const summary of show.episode_groups?.results ?? []) groups.push(await client.getEpisodeGroup(summary.id));
    }
    await this.deps.store.saveShow(showSnapshot(show, seasons, groups, { withCredits, withImages }));
    if (withImages) await this.deps.queueImageDownloads?.({ type: 'Show', id: showId });
    await this.afterShowUpdate?.(showId);
    await this.announce(
      (await this.deps.store.showLinksOfShow(showId)).map((link) => link.anime_id),
      showId,
    );
    return 'updated';
  }

  async refreshMovie(movieId: number, options: RefreshMovieOptions = {}): Promise<RefreshOutcome> {
    const client = this.deps.api.requireClient();
    if (!options.force && (await this.isRecent(this.deps.store.movie(movieId)))) return 'recent';
    const withCredits = options.downloadCrewAndCast ?? this.deps.settings.current.TMDB.AutoDownloadCrewAndCast;
    const withImages = options.downloadImages ?? true;
    const append: TmdbMovieAppendable[] = ['translations', 'release_dates', 'external_ids', 'keywords'];
    if (withCredits) append.push('credits');
    if (withImages) append.push('images');
    let movie;
    try {
      movie = await client.getMovie(movieId, { appendToResponse: append });
    } catch (error) {
      if (error instanceof TmdbNotFoundError) return 'not-found';
      throw error;
    }
    await this.deps.store.saveMovie(movieSnapshot(movie, { withCredits, withImages }));
    if (withImages) await this.deps.queueImageDownloads?.({ type: 'Movie', id: movieId });
    await this.announce(
      (await this.deps.store.movieLinksOfMovie(movieId)).map((link) => link.anime_id),
      movieId,
    );
    return 'updated';
  }

  private async isRecent(row: Promise<{ updated_at: string } | undefined>): Promise<boolean> {
    const stored = await row;
    return stored !== undefined && Date.now() - Date.parse(stored.updated_at) < MIN_REFRESH_INTERVAL_MS;
  }

  /** SeriesUpdated (Source TMDB) for the series linked to a refreshed show or movie, so the console reloads them. */
  private async announce(animeIds: number[], tmdbId: number): Promise<void> {
    const series = await this.deps.store.seriesOfAnime([...new Set(animeIds)]);
    if (!series.length) return;
    this.deps.bus.emit('shoko', {
      event: 'SeriesUpdated',
      payload: { Source: 'TMDB', Reason: 'Updated', SeriesID: tmdbId, ShokoSeriesIDs: series.map((s) => s.id), Episodes: [] },
    });
  }
}

function describe(outcome: RefreshOutcome): string {
  switch (outcome) {
    case 'updated':
      return 'updated';
    case 'recent':
      return 'skipped, updated less than an hour ago';
    case 'not-found':
      return 'not found on TMDB';
  }
}
