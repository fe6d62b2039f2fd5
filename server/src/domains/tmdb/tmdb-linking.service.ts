import type { Logger } from 'pino';
import type { TmdbAutoMatchEpisodesBody, TmdbAutoMatchResult, TmdbLinkShowBody } from '@shoko-ts/contract';
import { JobPriority, PermanentJobError, type JobDefinition } from '../../jobs/job.js';
import type { QueueService } from '../../jobs/queue.service.js';
import {
  findTmdbMatch,
  matchEpisodes,
  type AnidbAnimeForMatching,
  type AnidbAnimeType,
  type AnidbEpisodeType,
  type AnidbTitleForMatching,
  type EpisodeLink,
} from '../../providers/tmdb/index.js';
import { FieldErrorCollector, validationError } from '../../http/problem.js';
import type { SettingsService } from '../settings/index.js';
import { TmdbKeyMissingError, type TmdbApi } from './tmdb-api.js';
import type { TmdbSync } from './tmdb-sync.service.js';
import type { AnidbAnimeForTmdb, AnidbEpisodeForTmdb, TmdbStore } from './tmdb.store.js';
import { genreNames, remoteMovie, remoteShow } from './tmdb-models.js';

interface SearchJobPayload {
  animeId: number;
  /** Search again even when automatic links exist (they are replaced); User links are never replaced. */
  force: boolean;
}

export type AutoMatchOutcome =
  | { status: 'linked-show'; showId: number; episodeLinks: EpisodeLink[] }
  | { status: 'linked-movie'; movieId: number; episodeId: number }
  | { status: 'skipped'; reason: string }
  | { status: 'not-found' };

export interface EpisodePlanOptions {
  /** false = links the user verified are matched anew too. Default true. */
  keepExisting?: boolean;
  /** Only this TMDB season's episodes are candidates. */
  seasonId?: number;
}

/** Prequel chains longer than this are cut: enough for any real franchise, and a guard against relation cycles. */
const MAX_PREQUEL_HOPS = 20;

/**
 * Links AniDB anime to TMDB automatically: searches TMDB for the anime (a series through its prequel chain's first
 * entry), links the show (or, for a movie, the movie to the anime's episode), refreshes it, and links the episodes
 * with their match ratings. User links are never replaced and user-verified episode links are kept.
 */
export class TmdbLinking {
  readonly searchJob: JobDefinition<SearchJobPayload>;

  constructor(
    private readonly deps: {
      api: TmdbApi;
      store: TmdbStore;
      sync: TmdbSync;
      settings: SettingsService;
      queue: QueueService;
      logger: Logger;
    },
  ) {
    this.searchJob = {
      kind: 'SearchTmdbJob',
      type: 'Search TMDB',
      title: 'Searching for TMDB Match',
      group: 'TMDB',
      priority: JobPriority.Lookup,
      key: (p) => `${p.animeId}`,
      details: (p) => ({ AnimeID: p.animeId }),
      run: async (p, ctx) => {
        try {
          const outcome = await this.autoMatch(p.animeId, { force: p.force });
          ctx.logger.info(`TMDB auto-match of AniDB anime ${p.animeId}: ${describe(outcome)}`);
        } catch (error) {
          if (error instanceof TmdbKeyMissingError) throw new PermanentJobError(error.message);
          throw error;
        }
      },
    };
    deps.queue.register(this.searchJob);
    deps.sync.afterShowUpdate = (showId) => this.rematchShow(showId);
  }

  /** Re-links the episodes of every anime linked to a show that was just refreshed. */
  async rematchShow(showId: number): Promise<void> {
    for (const link of await this.deps.store.showLinksOfShow(showId)) await this.matchEpisodes(link.anime_id, showId);
  }

  /**
   * To be called after an AniDB anime was stored: queues the TMDB search when settings TMDB.AutoLink is on, a TMDB key
   * is set, the anime is not linked yet and not restricted (unless TMDB.AutoLinkRestricted). Resolves to whether a job
   * was queued.
   */
  async queueAutoMatch(animeId: number): Promise<boolean> {
    const settings = this.deps.settings.current.TMDB;
    if (!settings.AutoLink || !this.deps.api.enabled) return false;
    const anime = await this.deps.store.anidbAnime(animeId);
    if (!anime || (anime.restricted && !settings.AutoLinkRestricted)) return false;
    // Anime refreshes announce themselves too: an anime linked already (automatically or by the user) is left alone.
    const [shows, movies] = await Promise.all([this.deps.store.showLinksOfAnime(animeId), this.deps.store.movieLinksOfAnime(animeId)]);
    if (shows.length + movies.length > 0) return false;
    return this.deps.queue.enqueue(this.searchJob, { animeId, force: false });
  }

  /** The API's "auto-search TMDB": queued whatever TMDB.AutoLink says (the user asked for it). */
  queueSearch(animeId: number, options: { force?: boolean } = {}): Promise<boolean> {
    return this.deps.queue.enqueue(this.searchJob, { animeId, force: options.force ?? false });
  }

  async autoMatch(animeId: number, options: { force?: boolean } = {}): Promise<AutoMatchOutcome> {
    const client = this.deps.api.requireClient();
    const anime = await this.deps.store.anidbAnime(animeId);
    if (!anime) return { status: 'skipped', reason: 'the AniDB anime is not stored' };
    if (anime.restricted && !this.deps.settings.current.TMDB.AutoLinkRestricted && !options.force) {
      return { status: 'skipped', reason: 'restricted anime are not linked automatically (TMDB.AutoLinkRestricted)' };
    }
    const [shows, movies] = await Promise.all([this.deps.store.showLinksOfAnime(animeId), this.deps.store.movieLinksOfAnime(animeId)]);
    if ([...shows, ...movies].some((link) => link.source === 'User'))
      return { status: 'skipped', reason: 'the anime has links set by the user' };
    if (shows.length + movies.length > 0 && !options.force) return { status: 'skipped', reason: 'the anime is already linked' };

    const match = await findTmdbMatch(await this.forMatching(anime), client);
    if (match.status === 'skipped') return { status: 'skipped', reason: match.reason };
    if (match.status === 'not-found') return { status: 'not-found' };

    // A forced search replaces the automatic links it found before.
    await this.deps.store.unlinkShows(animeId, null);
    await this.deps.store.unlinkMovies(animeId);
    if (match.kind === 'movie') {
      const episode = movieEpisode(await this.deps.store.anidbEpisodes(animeId));
      if (!episode) return { status: 'skipped', reason: 'the anime has no episodes to link the movie to' };
      await this.deps.store.linkMovie(animeId, episode.id, match.movie.id, 'Automatic');
      await this.deps.sync.refreshMovie(match.movie.id);
      return { status: 'linked-movie', movieId: match.movie.id, episodeId: episode.id };
    }
    const showId = match.show.id;
    await this.deps.store.linkShow(animeId, showId, 'Automatic');
    // A refresh that stored the show matched its episodes already (afterShowUpdate); a recent copy is matched here.
    const refreshed = (await this.deps.sync.refreshShow(showId)) === 'updated';
    const episodeLinks = refreshed ? await this.planEpisodeLinks(animeId, showId) : await this.matchEpisodes(animeId, showId);
    return { status: 'linked-show', showId, episodeLinks };
  }

  /** What the automatic search would link the anime to now; nothing is stored. */
  async previewMatch(animeId: number): Promise<TmdbAutoMatchResult[]> {
    const anime = await this.deps.store.anidbAnime(animeId);
    if (!anime) throw new Error(`The AniDB data of anime ${animeId} is missing.`);
    const client = this.deps.api.requireClient();
    const match = await findTmdbMatch(await this.forMatching(anime), client);
    if (match.status !== 'matched') return [];
    const imageUrl = (path: string) => client.imageUrl(path);
    if (match.kind === 'movie') {
      const genres = new Map((await client.getGenres('movie')).map((g) => [g.id, g.name]));
      const episode = movieEpisode(await this.deps.store.anidbEpisodes(animeId));
      return [
        {
          AnimeID: animeId,
          ...(episode ? { EpisodeID: episode.id } : {}),
          IsLocal: (await this.deps.store.movie(match.movie.id)) !== undefined,
          IsRemote: true,
          IsMovie: true,
          Movie: remoteMovie(match.movie, genreNames(match.movie.genre_ids, genres), imageUrl),
        },
      ];
    }
    const genres = new Map((await client.getGenres('tv')).map((g) => [g.id, g.name]));
    return [
      {
        AnimeID: animeId,
        IsLocal: (await this.deps.store.show(match.show.id)) !== undefined,
        IsRemote: true,
        IsMovie: false,
        Show: remoteShow(match.show, genreNames(match.show.genre_ids, genres), imageUrl),
      },
    ];
  }

  /**
   * Links the anime's episodes to the show's episodes (default ordering; one season when `seasonId` is given) and
   * stores the links with their ratings. Links the user verified are kept unless `keepExisting` is false.
   */
  async matchEpisodes(animeId: number, showId: number, options: EpisodePlanOptions = {}): Promise<EpisodeLink[]> {
    const links = await this.planEpisodeLinks(animeId, showId, options);
    await this.deps.store.replaceAutomaticEpisodeLinks(animeId, showId, links, { replaceUserLinks: options.keepExisting === false });
    return links;
  }

  /** What `matchEpisodes` would store, without storing it. Only regular episodes and specials get an explicit "no link". */
  async planEpisodeLinks(animeId: number, showId: number, options: EpisodePlanOptions = {}): Promise<EpisodeLink[]> {
    const [anidbEpisodes, tmdbEpisodes, existing] = await Promise.all([
      this.deps.store.anidbEpisodes(animeId),
      this.deps.store.episodesOfShow(showId),
      options.keepExisting === false ? Promise.resolve([]) : this.deps.store.episodeLinksOfAnime(animeId),
    ]);
    const userOverrides = existing
      .filter((link) => link.rating === 'UserVerified')
      .map((link) => ({ anidbEpisodeId: link.anidb_episode_id, tmdbEpisodeId: link.tmdb_episode_id }));
    const links = matchEpisodes(
      anidbEpisodes.map((episode) => ({
        id: episode.id,
        type: episode.type as AnidbEpisodeType,
        number: episode.number,
        airDate: episode.airDate,
        titles: episode.titles.map((title) => title.value),
      })),
      tmdbEpisodes
        .filter((episode) => !options.seasonId || episode.season_id === options.seasonId)
        .map((episode) => ({
          id: episode.id,
          seasonNumber: episode.season_number,
          episodeNumber: episode.episode_number,
          airDate: episode.aired_at,
          titles: [episode.title],
        })),
      { userOverrides },
    );
    const linkable = new Set(anidbEpisodes.filter((e) => e.type === 'Episode' || e.type === 'Special').map((e) => e.id));
    return links.filter((link) => link.tmdbEpisodeId !== 0 || linkable.has(link.anidbEpisodeId));
  }

  /**
   * The show an episode auto-match of the series runs against: the one asked for, else the first linked one. A season
   * must belong to that show. Field errors are keyed as the API's query/body names them.
   */
  async autoMatchTarget(
    animeId: number,
    request: { showId?: number | null; seasonId?: number | null },
  ): Promise<{ showId: number; linked: boolean; stored: boolean }> {
    const links = await this.deps.store.showLinksOfAnime(animeId);
    const showId = request.showId ?? links[0]?.show_id;
    if (!showId) throw validationError('tmdbShowID', 'No TMDB show is linked to the series; pass tmdbShowID.');
    const stored = (await this.deps.store.show(showId)) !== undefined;
    if (request.seasonId) {
      const seasons = stored ? await this.deps.store.seasonsOfShow(showId) : [];
      if (!seasons.some((season) => season.id === request.seasonId))
        throw validationError('tmdbSeasonID', 'The TMDB season does not belong to the show.');
    }
    return { showId, linked: links.some((link) => link.show_id === showId), stored };
  }

  /** Links set by hand (`OverrideTmdbEpisodeMappingBody`), validated against the series and the stored TMDB episodes. */
  async overrideEpisodeLinks(
    animeId: number,
    body: { UnsetAll: boolean; Mapping: { AniDBID: number; TmdbID: number; Replace: boolean; Index?: number | null }[] },
  ): Promise<void> {
    if (!body.Mapping.length && !body.UnsetAll) throw validationError('Body', 'The Mapping list is empty and UnsetAll is not set.');
    const anidbIds = new Set((await this.deps.store.anidbEpisodes(animeId)).map((episode) => episode.id));
    const tmdbIds = [...new Set(body.Mapping.map((m) => m.TmdbID).filter((id) => id !== 0))];
    const showOf = new Map((await this.deps.store.episodesByIds(tmdbIds)).map((episode) => [episode.id, episode.show_id]));
    const errors = new FieldErrorCollector();
    for (const mapping of body.Mapping) {
      if (!anidbIds.has(mapping.AniDBID)) errors.add('Mapping', `AniDB episode ${mapping.AniDBID} is not part of the series.`);
      if (mapping.TmdbID !== 0 && !showOf.has(mapping.TmdbID))
        errors.add('Mapping', `TMDB episode ${mapping.TmdbID} is not stored locally.`);
    }
    errors.throwIfAny();
    const unique = [...new Map(body.Mapping.map((m) => [`${m.AniDBID}:${m.TmdbID}`, m])).values()];
    await this.deps.store.overrideEpisodeLinks(
      animeId,
      unique.map((m) => ({
        anidbEpisodeId: m.AniDBID,
        tmdbEpisodeId: m.TmdbID,
        showId: showOf.get(m.TmdbID) ?? 0,
        replace: m.Replace,
        index: m.Index ?? null,
      })),
      { unsetAll: body.UnsetAll },
    );
  }

  // ── links set through the API ──────────────────────────────────────────────────────────────

  /** A user link to a show: a stored show is matched now; otherwise the queued refresh matches once it is stored. */
  async linkShow(animeId: number, { ID, Replace, Refresh }: TmdbLinkShowBody): Promise<void> {
    await this.deps.store.linkShow(animeId, ID, 'User', { replace: Replace });
    if (!Refresh && (await this.deps.store.show(ID))) await this.matchEpisodes(animeId, ID);
    else await this.deps.sync.queueShow(ID, { force: Refresh });
  }

  /** showId null = every show of the anime. */
  unlinkShows(animeId: number, showId: number | null): Promise<void> {
    return this.deps.store.unlinkShows(animeId, showId);
  }

  /** A user link of a movie to one AniDB episode; the movie is refreshed when asked for or not stored yet. */
  async linkMovie(animeId: number, anidbEpisodeId: number, { ID, Replace, Refresh }: TmdbLinkShowBody): Promise<void> {
    await this.deps.store.linkMovie(animeId, anidbEpisodeId, ID, 'User', { replace: Replace });
    if (Refresh || !(await this.deps.store.movie(ID))) await this.deps.sync.queueMovie(ID, { force: Refresh });
  }

  unlinkMovies(animeId: number, filter: { movieId?: number; episodeId?: number }): Promise<void> {
    return this.deps.store.unlinkMovies(animeId, filter);
  }

  /** The 400 (keyed `EpisodeID`) when an AniDB episode is not one of the anime's. */
  async requireEpisodeOfAnime(animeId: number, anidbEpisodeId: number): Promise<void> {
    if (!(await this.deps.store.anidbEpisodes(animeId)).some((episode) => episode.id === anidbEpisodeId)) {
      throw validationError('EpisodeID', 'The AniDB episode does not belong to the series.');
    }
  }

  removeEpisodeLinks(animeId: number): Promise<void> {
    return this.deps.store.removeEpisodeLinks(animeId);
  }

  /**
   * Series/{id}/TMDB/Show/CrossReferences/Episode/Auto (POST): links the target show if needed and matches its episodes;
   * 'queued' when the show is not stored yet (its queued refresh matches the episodes once it is).
   */
  async autoMatchEpisodesOfAnime(animeId: number, body: TmdbAutoMatchEpisodesBody): Promise<'queued' | 'matched'> {
    const target = await this.autoMatchTarget(animeId, { showId: body.TmdbShowID, seasonId: body.TmdbSeasonID });
    if (!target.linked) await this.deps.store.linkShow(animeId, target.showId, 'User');
    if (!target.stored) {
      await this.deps.sync.queueShow(target.showId);
      return 'queued';
    }
    await this.matchEpisodes(animeId, target.showId, { keepExisting: body.KeepExisting ?? true, seasonId: body.TmdbSeasonID ?? undefined });
    return 'matched';
  }

  /** The anime in the matcher's terms, with the first entry of its prequel chain for series. */
  private async forMatching(anime: AnidbAnimeForTmdb): Promise<AnidbAnimeForMatching> {
    const base = matchingEntry(anime);
    if (anime.type === 'Movie') return { ...base, type: 'Movie', restricted: anime.restricted };
    const first = await this.firstEntry(anime.id);
    const firstAnime = first !== anime.id ? await this.deps.store.anidbAnime(first) : null;
    return {
      ...base,
      type: anime.type as AnidbAnimeType,
      restricted: anime.restricted,
      ...(firstAnime ? { firstEntry: matchingEntry(firstAnime) } : {}),
    };
  }

  /** Walks Prequel relations back as far as stored AniDB data reaches. */
  private async firstEntry(animeId: number): Promise<number> {
    const seen = new Set([animeId]);
    let current = animeId;
    for (let hop = 0; hop < MAX_PREQUEL_HOPS; hop++) {
      const prequel = (await this.deps.store.prequelsOf(current)).find((id) => !seen.has(id));
      if (prequel === undefined || !(await this.deps.store.anidbAnime(prequel))) break;
      seen.add(prequel);
      current = prequel;
    }
    return current;
  }
}

/** The AniDB episode a movie match is linked to: episode 1, else the first normal episode, else the first one. */
function movieEpisode(episodes: AnidbEpisodeForTmdb[]): AnidbEpisodeForTmdb | undefined {
  return episodes.find((e) => e.type === 'Episode' && e.number === 1) ?? episodes.find((e) => e.type === 'Episode') ?? episodes[0];
}

function matchingEntry(anime: AnidbAnimeForTmdb): Pick<AnidbAnimeForMatching, 'mainTitle' | 'titles' | 'airDate'> {
  return {
    mainTitle: anime.mainTitle,
    airDate: anime.airDate ? anime.airDate.slice(0, 10) : null,
    titles: anime.titles.map((title) => ({
      title: title.value,
      language: title.language,
      type: title.type as AnidbTitleForMatching['type'],
    })),
  };
}

function describe(outcome: AutoMatchOutcome): string {
  switch (outcome.status) {
    case 'linked-show':
      return `linked to show ${outcome.showId} (${outcome.episodeLinks.filter((l) => l.tmdbEpisodeId !== 0).length} episode links)`;
    case 'linked-movie':
      return `linked episode ${outcome.episodeId} to movie ${outcome.movieId}`;
    case 'skipped':
      return `skipped: ${outcome.reason}`;
    case 'not-found':
      return 'nothing found on TMDB';
  }
}
