import type { Logger } from 'pino';
import { JobPriority, type JobContext, type JobDefinition } from '../../jobs/job.js';
import type { QueueService } from '../../jobs/queue.service.js';
import { type SettingsService, UPDATE_FREQUENCY_MS } from '../settings/index.js';
import type { TraktHistoryItems, TraktIds, TraktWatchedMovie, TraktWatchedShow } from './trakt.client.js';
import type { TraktService } from './trakt.service.js';
import type { TraktEpisodeTarget, TraktStore } from './trakt.store.js';

/** How often the periodic sync checks whether it is due. */
const TICK_MS = 10 * 60_000;
const SYNC_TASK = 'sync';

interface SeriesPayload {
  /** Absent = every series the sync covers. */
  animeId?: number;
}

interface EpisodePayload {
  episodeIds: number[];
  watched: boolean;
}

/** What Trakt has watched, fetched once per job. */
interface TraktWatched {
  shows: TraktWatchedShow[];
  movies: TraktWatchedMovie[];
}

const episodeIds = (target: TraktEpisodeTarget): TraktIds => ({
  tmdb: target.tmdbEpisodeId ?? undefined,
  tvdb: target.tvdbEpisodeId ?? undefined,
});

/**
 * Watched state between the Trakt account and the users who sync with Trakt (`CommunitySites` has `Trakt`), by the
 * TMDB (and TVDB) ids of our TMDB cross-references. Each TMDB show or movie of a series is linked to its Trakt
 * counterpart by searching Trakt for its id; `TraktTv.AutoLink` lets the sync link every series with TMDB links by
 * itself (otherwise only the per-series routes link), `TraktTv.UpdateFrequency` says how often a link is looked up
 * again, `TraktTv.SyncFrequency` how often the two-way sync runs. Watched toggles and unwatches are sent as they
 * happen; players' reports become scrobbles (trakt.scrobble.ts).
 */
export class TraktSync {
  readonly sendJob: JobDefinition<SeriesPayload>;
  readonly getJob: JobDefinition<SeriesPayload>;
  readonly syncJob: JobDefinition<SeriesPayload>;
  readonly episodeJob: JobDefinition<EpisodePayload>;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly deps: {
      trakt: TraktService;
      store: TraktStore;
      settings: SettingsService;
      queue: QueueService;
      logger: Logger;
      /** Marks episodes watched for a user without sending them back to Trakt. */
      markWatched(userId: number, episodeIds: number[]): Promise<void>;
    },
  ) {
    const seriesJob = (
      kind: string,
      type: string,
      title: string,
      run: (animeIds: number[], ctx: JobContext) => Promise<void>,
    ): JobDefinition<SeriesPayload> => ({
      kind,
      type,
      title,
      group: 'TraktTv',
      priority: JobPriority.Maintenance,
      key: (p) => String(p.animeId ?? 'all'),
      details: (p): Record<string, number> => (p.animeId ? { AnimeID: p.animeId } : {}),
      run: async (p, ctx) => {
        if (!this.deps.trakt.linked) return;
        await run(p.animeId ? [p.animeId] : await this.coveredAnime(), ctx);
      },
    });
    this.sendJob = seriesJob('SendWatchStatesToTraktJob', 'Send Watch States to Trakt', 'Sending Watch States to Trakt', (ids, ctx) =>
      this.send(ids, ctx),
    );
    this.getJob = seriesJob('GetWatchStatesFromTraktJob', 'Get Watch States from Trakt', 'Getting Watch States from Trakt', (ids, ctx) =>
      this.get(ids, ctx),
    );
    this.syncJob = seriesJob(
      'SyncTraktWatchStatesJob',
      'Sync Watch States with Trakt',
      'Syncing Watch States with Trakt',
      async (ids, ctx) => {
        await this.get(ids, ctx);
        await this.send(ids, ctx);
        await this.deps.store.setLastRun(SYNC_TASK, new Date().toISOString());
      },
    );
    this.episodeJob = {
      kind: 'SendEpisodeWatchStateToTraktJob',
      type: 'Send Episode Watch State to Trakt',
      title: 'Sending Episode Watch State to Trakt',
      group: 'TraktTv',
      priority: JobPriority.Lookup,
      key: (p) => `${p.watched ? 1 : 0}:${p.episodeIds.join(',')}`,
      details: (p) => ({ EpisodeIDs: p.episodeIds.join(', '), Watched: p.watched }),
      run: (p) => this.sendEpisodes(p.episodeIds, p.watched),
    };
    for (const job of [this.sendJob, this.getJob, this.syncJob, this.episodeJob]) deps.queue.register<never>(job as JobDefinition<never>);
  }

  /** Every series the sync covers: with Auto Link every series with a TMDB link, otherwise the ones linked already. */
  private coveredAnime(): Promise<number[]> {
    return this.deps.settings.current.TraktTv.AutoLink ? this.deps.store.animeIdsWithTmdb() : this.deps.store.linkedAnimeIds();
  }

  /** Queues a send or get for one series (`Series/{id}/Trakt/*`) or all (`Action/*WatchStates*Trakt`). */
  async queue(direction: 'send' | 'get' | 'sync', animeId?: number): Promise<void> {
    const job = direction === 'send' ? this.sendJob : direction === 'get' ? this.getJob : this.syncJob;
    await this.deps.queue.enqueue(job, animeId === undefined ? {} : { animeId });
  }

  /**
   * The Trakt show or movie of each TMDB show or movie of the anime: looked up again when older than
   * `TraktTv.UpdateFrequency` (Never = once) or when `force`. Answers whether any of them is on Trakt.
   */
  async link(animeId: number, options: { force?: boolean } = {}): Promise<boolean> {
    const tmdb = await this.deps.store.tmdbOf(animeId);
    const links = await this.deps.store.links(animeId);
    const maxAge = UPDATE_FREQUENCY_MS[this.deps.settings.current.TraktTv.UpdateFrequency] ?? null;
    const fresh = (kind: 'show' | 'movie', tmdbId: number) => {
      const link = links.find((l) => l.kind === kind && l.tmdb_id === tmdbId);
      if (!link || options.force) return undefined;
      if (maxAge !== null && Date.now() - Date.parse(link.checked_at) > maxAge) return undefined;
      return link;
    };
    let found = false;
    const items = [
      ...tmdb.shows.map((s) => ({ kind: 'show' as const, tmdbId: s.id, tvdbId: s.tvdbId })),
      ...tmdb.movies.map((id) => ({ kind: 'movie' as const, tmdbId: id, tvdbId: null })),
    ];
    for (const item of items) {
      const known = fresh(item.kind, item.tmdbId);
      if (known) {
        found ||= known.trakt_id !== null;
        continue;
      }
      const match = await this.deps.trakt.withToken(async (client, token) => {
        const byTmdb = await client.findById(token, 'tmdb', item.tmdbId, item.kind);
        return byTmdb ?? (item.tvdbId ? client.findById(token, 'tvdb', item.tvdbId, item.kind) : null);
      });
      await this.deps.store.saveLink({
        anime_id: animeId,
        kind: item.kind,
        tmdb_id: item.tmdbId,
        trakt_id: match?.traktId ?? null,
        slug: match?.slug ?? null,
        title: match?.title ?? null,
        checked_at: new Date().toISOString(),
      });
      if (!match) this.deps.logger.info(`Trakt has no ${item.kind} with TMDB id ${item.tmdbId}`);
      found ||= !!match;
    }
    await this.deps.store.dropLinksExcept(animeId, items);
    return found;
  }

  /** Whether the anime may be sent to Trakt now: linked already, or linked here when Auto Link allows it. */
  private async linkedForSync(animeId: number, explicit: boolean): Promise<boolean> {
    const links = await this.deps.store.links(animeId);
    if (!links.length && !explicit && !this.deps.settings.current.TraktTv.AutoLink) return false;
    return this.link(animeId);
  }

  /** Whether a player's report on the anime may be scrobbled (linked, or linkable with Auto Link). */
  linkedForScrobble(animeId: number): Promise<boolean> {
    return this.linkedForSync(animeId, false);
  }

  private fetchWatched(): Promise<TraktWatched> {
    return this.deps.trakt.withToken(async (client, token) => ({
      shows: await client.watchedShows(token),
      movies: await client.watchedMovies(token),
    }));
  }

  /** Targets of the anime Trakt has watched (by TMDB or TVDB show id plus season and number, or movie id). */
  private watchedOnTrakt(targets: TraktEpisodeTarget[], watched: TraktWatched, tvdbOfShow: Map<number, number | null>) {
    return targets.filter((t) => {
      if (t.tmdbMovieId !== null) return watched.movies.some((m) => m.ids.tmdb === t.tmdbMovieId);
      const show = watched.shows.find(
        (s) => s.ids.tmdb === t.tmdbShowId || (!!s.ids.tvdb && s.ids.tvdb === tvdbOfShow.get(t.tmdbShowId ?? -1)),
      );
      return !!show?.episodes.some((e) => e.season === t.season && e.number === t.number);
    });
  }

  /** Our Trakt users' watched episodes that Trakt has not got go to its history. */
  private async send(animeIds: number[], ctx: JobContext): Promise<void> {
    const users = await this.deps.store.traktUserIds();
    if (!users.length) return;
    const watched = await this.fetchWatched();
    let added = 0;
    for (const [index, animeId] of animeIds.entries()) {
      if (ctx.signal.aborted) return;
      ctx.progress(index / animeIds.length);
      if (!(await this.linkedForSync(animeId, animeIds.length === 1))) continue;
      const targets = await this.deps.store.targets({ animeId });
      const watchedAt = await this.deps.store.watchedAt(
        users,
        targets.map((t) => t.episodeId),
      );
      const onTrakt = new Set(this.watchedOnTrakt(targets, watched, await this.tvdbOfShows(animeId)));
      const items: TraktHistoryItems = { episodes: [], movies: [] };
      const movies = new Set<number>();
      for (const target of targets) {
        const at = watchedAt.get(target.episodeId);
        if (!at || onTrakt.has(target)) continue;
        if (target.tmdbMovieId !== null) {
          if (!movies.has(target.tmdbMovieId)) items.movies.push({ ids: { tmdb: target.tmdbMovieId }, watched_at: at });
          movies.add(target.tmdbMovieId);
        } else items.episodes.push({ ids: episodeIds(target), watched_at: at });
      }
      if (!items.episodes.length && !items.movies.length) continue;
      const result = await this.deps.trakt.withToken((client, token) => client.addToHistory(token, items));
      added += result.episodes + result.movies;
    }
    ctx.logger.info(`Trakt: ${added} plays added to the history of ${animeIds.length} series`);
  }

  /** What Trakt has watched is marked watched for every Trakt user who has not watched it here. */
  private async get(animeIds: number[], ctx: JobContext): Promise<void> {
    const users = await this.deps.store.traktUserIds();
    if (!users.length) return;
    const watched = await this.fetchWatched();
    let marked = 0;
    for (const [index, animeId] of animeIds.entries()) {
      if (ctx.signal.aborted) return;
      ctx.progress(index / animeIds.length);
      if (!(await this.linkedForSync(animeId, animeIds.length === 1))) continue;
      const targets = await this.deps.store.targets({ animeId });
      const seen = [...new Set(this.watchedOnTrakt(targets, watched, await this.tvdbOfShows(animeId)).map((t) => t.episodeId))];
      for (const [userId, episodes] of await this.deps.store.unwatchedBy(users, seen)) {
        if (!episodes.length) continue;
        await this.deps.markWatched(userId, episodes);
        marked += episodes.length;
      }
    }
    ctx.logger.info(`Trakt: ${marked} episodes marked watched from the Trakt history of ${animeIds.length} series`);
  }

  private async tvdbOfShows(animeId: number): Promise<Map<number, number | null>> {
    return new Map((await this.deps.store.tmdbOf(animeId)).shows.map((s) => [s.id, s.tvdbId]));
  }

  /**
   * A watched toggle: marked episodes are added to the history; unmarked ones removed once no Trakt user has them
   * watched any more. Series Trakt cannot be linked to (or, without Auto Link, are not linked) are left out.
   */
  private async sendEpisodes(episodeIdList: number[], watched: boolean): Promise<void> {
    if (!this.deps.trakt.linked) return;
    const users = await this.deps.store.traktUserIds();
    let targets = await this.deps.store.targets({ episodeIds: episodeIdList });
    for (const animeId of new Set(targets.map((t) => t.animeId)))
      if (!(await this.linkedForSync(animeId, false))) targets = targets.filter((t) => t.animeId !== animeId);
    const watchedAt = await this.deps.store.watchedAt(users, episodeIdList);
    // Unwatching removes only what nobody who syncs with Trakt still has watched.
    if (!watched) targets = targets.filter((t) => !watchedAt.has(t.episodeId));
    if (!targets.length) return;
    const now = new Date().toISOString();
    const items: TraktHistoryItems = {
      episodes: targets
        .filter((t) => t.tmdbEpisodeId !== null)
        .map((t) => ({ ids: episodeIds(t), ...(watched ? { watched_at: watchedAt.get(t.episodeId) ?? now } : {}) })),
      movies: [...new Set(targets.filter((t) => t.tmdbMovieId !== null).map((t) => t.tmdbMovieId!))].map((id) => ({
        ids: { tmdb: id },
        ...(watched ? { watched_at: now } : {}),
      })),
    };
    await this.deps.trakt.withToken((client, token) =>
      watched ? client.addToHistory(token, items) : client.removeFromHistory(token, items),
    );
  }

  /** Queues the send of a watched toggle by a user who syncs with Trakt. */
  async episodesChanged(userId: number, episodeIdList: number[], watched: boolean): Promise<void> {
    if (!this.deps.trakt.linked || !(await this.deps.store.traktUserIds()).includes(userId)) return;
    await this.deps.queue.enqueue(this.episodeJob, { episodeIds: [...episodeIdList].sort((a, b) => a - b), watched });
  }

  /** Queues the two-way sync when `TraktTv.SyncFrequency` says it is due. */
  async tick(): Promise<boolean> {
    const interval = UPDATE_FREQUENCY_MS[this.deps.settings.current.TraktTv.SyncFrequency] ?? null;
    if (interval === null || !this.deps.trakt.linked) return false;
    const last = await this.deps.store.lastRun(SYNC_TASK);
    if (last && Date.now() - Date.parse(last) < interval) return false;
    return this.deps.queue.enqueue(this.syncJob, {});
  }

  /** The first check comes one tick after start, when the database and queue are up. */
  start(): void {
    if (this.timer) return;
    const check = () => void this.tick().catch((error) => this.deps.logger.warn({ err: error }, 'Checking the Trakt sync schedule failed'));
    this.timer = setInterval(check, TICK_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
