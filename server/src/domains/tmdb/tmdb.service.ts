/**
 * DESIGN: the TMDB domain owns the local copy of TMDB shows, movies, seasons, episodes, alternate orderings, credits and
 * images, and the AniDB ↔ TMDB links (anime → show, episode → movie, episode → TMDB episode). This service reads that
 * data in contract shape and runs live TMDB searches; TmdbSync (tmdb-sync.service.ts) refreshes it through queued jobs,
 * TmdbLinking (tmdb-linking.service.ts) matches and sets the links. Routes: tmdb.routes.ts (Tmdb/*, Series/{id}/TMDB/*);
 * the episodes domain serves Episode/{id}/TMDB/* (episode-tmdb.routes.ts) through this service and TmdbLinking. Every
 * query is in tmdb.store.ts. Images are downloaded by the images domain (the `queueImageDownloads` hook).
 */
import type {
  ListResult,
  TmdbEpisode,
  TmdbEpisodeCrossReference,
  TmdbMovie,
  TmdbMovieCrossReference,
  TmdbOrderingInformation,
  TmdbRemoteSearchMovie,
  TmdbRemoteSearchShow,
  TmdbShow,
  TmdbShowCrossReference,
} from '@shoko-ts/contract';
import { badRequest, FieldErrorCollector, HttpError, notFound, validationError } from '../../http/problem.js';
import { TmdbNotFoundError, type TmdbClient, type TmdbSearchPage } from '../../providers/tmdb/index.js';
import { TMDB_KEY_MISSING, type TmdbApi } from './tmdb-api.js';
import {
  episodeCrossReference,
  genreNames,
  groupEpisodeLinks,
  localRemoteMovie,
  localRemoteShow,
  movieCrossReference,
  orderingInformation,
  remoteMovie,
  remoteShow,
  showCrossReference,
  toTmdbEpisode,
  toTmdbMovie,
  toTmdbShow,
} from './tmdb-models.js';
import { splitGenres } from './tmdb-snapshot.js';
import type { ShowRow, TmdbStore } from './tmdb.store.js';

/** TMDB answers searches in pages of 20, whatever page size we serve. */
const TMDB_PAGE_SIZE = 20;
/** pageSize 0 ("everything") still stops after this many TMDB pages. */
const MAX_TMDB_PAGES = 5;
const ORDERING_ID = /^(?:[0-9]{1,23}|[a-f0-9]{24}|default)$/;

export const SHOW_NOT_FOUND = 'A TMDB.Show by the given `showID` was not found.';
export const MOVIE_NOT_FOUND = 'A TMDB.Movie by the given `movieID` was not found.';

/** `include` as the API takes it: repeated keys or comma lists, any casing of the first letter. */
export const includeSet = (include: string[] | undefined) =>
  new Set(
    (include ?? [])
      .flatMap((value) => value.split(','))
      .map((value) => value.trim())
      .map((value) => value.charAt(0).toUpperCase() + value.slice(1)),
  );

export interface SearchQuery {
  query: string;
  includeRestricted: boolean;
  year: number;
  pageSize: number;
  page: number;
}

/** Reads of the stored TMDB data in contract shape, and live TMDB searches. */
export class TmdbService {
  constructor(private readonly deps: { api: TmdbApi; store: TmdbStore }) {}

  private client(): TmdbClient {
    const client = this.deps.api.client();
    if (!client) throw badRequest(TMDB_KEY_MISSING);
    return client;
  }

  async show(showId: number, include: Set<string>, alternateOrderingId?: string): Promise<TmdbShow> {
    const row = await this.deps.store.show(showId);
    if (!row) throw notFound(SHOW_NOT_FOUND);
    const orderingId = await this.resolveOrdering(row, alternateOrderingId);
    const [episodes, seasons, orderings, links, credits] = await Promise.all([
      this.deps.store.episodesOfShow(showId),
      this.deps.store.seasonsOfShow(showId),
      this.deps.store.orderingsOfShow(showId),
      include.has('CrossReferences') ? this.deps.store.showLinksOfShow(showId) : Promise.resolve([]),
      include.has('Cast') || include.has('Crew') ? this.deps.store.credits('Show', showId) : Promise.resolve(null),
    ]);
    return toTmdbShow(
      row,
      {
        episodes,
        seasonCount: seasons.filter((s) => s.season_number !== 0).length,
        orderings,
        orderingId,
        credits,
        crossReferences: links.map(showCrossReference),
        orderingInfo: include.has('Ordering') ? await this.orderings(showId, orderingId) : undefined,
      },
      include,
    );
  }

  /** Default ordering first, then the alternates by type and name. */
  async orderings(showId: number, inUse?: string): Promise<TmdbOrderingInformation[]> {
    const row = await this.deps.store.show(showId);
    if (!row) throw notFound(SHOW_NOT_FOUND);
    const current = await this.resolveOrdering(row, inUse);
    const [episodes, seasons, orderings] = await Promise.all([
      this.deps.store.episodesOfShow(showId),
      this.deps.store.seasonsOfShow(showId),
      this.deps.store.orderingsOfShow(showId),
    ]);
    const counted = await Promise.all(
      orderings.map(async (o) => ({ row: o, episodeCount: (await this.deps.store.orderingEpisodes(o.id)).length })),
    );
    return orderingInformation(row, episodes, seasons.filter((s) => s.season_number !== 0).length, counted, current);
  }

  async setPreferredOrdering(showId: number, orderingId: string): Promise<void> {
    const row = await this.deps.store.show(showId);
    if (!row) throw notFound(SHOW_NOT_FOUND);
    const resolved = await this.resolveOrdering(row, orderingId, 'AlternateOrderingID');
    await this.deps.store.setPreferredOrdering(showId, resolved === String(showId) ? null : resolved);
  }

  /** The show's episodes in the requested (else the preferred) ordering. */
  async episodes(
    showId: number,
    options: { alternateOrderingId?: string; search?: string; page: number; pageSize: number },
  ): Promise<ListResult<TmdbEpisode>> {
    const row = await this.deps.store.show(showId);
    if (!row) throw notFound(SHOW_NOT_FOUND);
    const orderingId = await this.resolveOrdering(row, options.alternateOrderingId);
    const episodes = await this.deps.store.episodesOfShow(showId);
    let list: TmdbEpisode[];
    if (orderingId === String(showId)) {
      list = episodes.map((episode) => toTmdbEpisode(episode, null));
    } else {
      const byId = new Map(episodes.map((e) => [e.id, e]));
      list = (await this.deps.store.orderingEpisodes(orderingId)).flatMap((placed) => {
        const episode = byId.get(placed.episode_id);
        if (!episode) return [];
        return [
          toTmdbEpisode(episode, {
            orderingId,
            seasonId: placed.season_id,
            seasonNumber: placed.season_number,
            episodeNumber: placed.episode_number,
          }),
        ];
      });
    }
    const search = options.search?.trim();
    return page(search ? list.filter(episodeSearch(search)) : list, options.page, options.pageSize);
  }

  async movie(movieId: number, include: Set<string>): Promise<TmdbMovie> {
    const row = await this.deps.store.movie(movieId);
    if (!row) throw notFound(MOVIE_NOT_FOUND);
    const credits = include.has('Cast') || include.has('Crew') ? await this.deps.store.credits('Movie', movieId) : null;
    return toTmdbMovie(row, { credits }, include);
  }

  /** Tmdb/Show/{showID}/CrossReferences: the AniDB anime linked to a stored show, by anime id; 404 for an unknown show. */
  async linksOfShow(showId: number): Promise<TmdbShowCrossReference[]> {
    if (!(await this.deps.store.show(showId))) throw notFound(SHOW_NOT_FOUND);
    return (await this.deps.store.showLinksOfShow(showId)).map(showCrossReference);
  }

  /** Tmdb/Movie/{movieID}/CrossReferences: the AniDB episodes linked to a stored movie; 404 for an unknown movie. */
  async linksOfMovie(movieId: number): Promise<TmdbMovieCrossReference[]> {
    if (!(await this.deps.store.movie(movieId))) throw notFound(MOVIE_NOT_FOUND);
    const links = await this.deps.store.movieLinksOfMovie(movieId);
    return links.sort((a, b) => a.anime_id - b.anime_id || a.anidb_episode_id - b.anidb_episode_id).map(movieCrossReference);
  }

  /** Tmdb/Show/Bulk: the stored shows among `ids`, in the order asked for; unknown ids are skipped. */
  async showsByIds(ids: number[], include: Set<string>): Promise<TmdbShow[]> {
    const shows: TmdbShow[] = [];
    for (const id of ids) if (id > 0 && (await this.deps.store.show(id))) shows.push(await this.show(id, include));
    return shows;
  }

  /** Tmdb/Movie/Bulk: the stored movies among `ids`, in the order asked for; unknown ids are skipped. */
  async moviesByIds(ids: number[], include: Set<string>): Promise<TmdbMovie[]> {
    const movies: TmdbMovie[] = [];
    for (const id of ids) if (id > 0 && (await this.deps.store.movie(id))) movies.push(await this.movie(id, include));
    return movies;
  }

  async searchShows(query: SearchQuery): Promise<ListResult<TmdbRemoteSearchShow>> {
    const client = this.client();
    const genres = new Map((await client.getGenres('tv')).map((g) => [g.id, g.name]));
    const options = { includeAdult: query.includeRestricted, year: query.year > 0 ? query.year : undefined };
    const result = await pagedSearch((tmdbPage) => client.searchShows(query.query, { ...options, page: tmdbPage }), query);
    return { Total: result.Total, List: result.List.map((r) => remoteShow(r, genreNames(r.genre_ids, genres), (p) => client.imageUrl(p))) };
  }

  async searchMovies(query: SearchQuery): Promise<ListResult<TmdbRemoteSearchMovie>> {
    const client = this.client();
    const genres = new Map((await client.getGenres('movie')).map((g) => [g.id, g.name]));
    const options = { includeAdult: query.includeRestricted, year: query.year > 0 ? query.year : undefined };
    const result = await pagedSearch((tmdbPage) => client.searchMovies(query.query, { ...options, page: tmdbPage }), query);
    return {
      Total: result.Total,
      List: result.List.map((r) => remoteMovie(r, genreNames(r.genre_ids, genres), (p) => client.imageUrl(p))),
    };
  }

  /** The local copy when there is one, else TMDB's details. */
  async onlineShow(showId: number): Promise<TmdbRemoteSearchShow> {
    const local = await this.deps.store.show(showId);
    const imageUrl = (path: string) => this.deps.api.client()?.imageUrl(path) ?? path;
    if (local) return localRemoteShow(local, imageUrl);
    const client = this.client();
    try {
      const show = await client.getShow(showId);
      return remoteShow(
        { ...show, genre_ids: [], origin_country: [], popularity: 0 },
        splitGenres(show.genres.map((g) => g.name)),
        imageUrl,
      );
    } catch (error) {
      if (error instanceof TmdbNotFoundError) throw notFound('Show not found on TMDB.');
      throw error;
    }
  }

  async onlineMovie(movieId: number): Promise<TmdbRemoteSearchMovie> {
    const local = await this.deps.store.movie(movieId);
    const imageUrl = (path: string) => this.deps.api.client()?.imageUrl(path) ?? path;
    if (local) return localRemoteMovie(local, imageUrl);
    const client = this.client();
    try {
      const movie = await client.getMovie(movieId);
      return remoteMovie({ ...movie, genre_ids: [], popularity: 0 }, splitGenres(movie.genres.map((g) => g.name)), imageUrl);
    } catch (error) {
      if (error instanceof TmdbNotFoundError) throw notFound('Movie not found on TMDB.');
      throw error;
    }
  }

  /** Stored episodes by id (unknown ids skipped), each numbered in its show's preferred ordering. */
  async episodesByIds(ids: number[]): Promise<TmdbEpisode[]> {
    const rows = await this.deps.store.episodesByIds([...new Set(ids)]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    const placements = new Map<number, Awaited<ReturnType<TmdbStore['orderingEpisodes']>>>();
    const result: TmdbEpisode[] = [];
    for (const id of ids) {
      const row = byId.get(id);
      if (!row) continue;
      const preferred = (await this.deps.store.show(row.show_id))?.preferred_ordering_id;
      if (!preferred) {
        result.push(toTmdbEpisode(row, null));
        continue;
      }
      if (!placements.has(row.show_id)) placements.set(row.show_id, await this.deps.store.orderingEpisodes(preferred));
      const placed = placements.get(row.show_id)!.find((p) => p.episode_id === id);
      result.push(
        toTmdbEpisode(
          row,
          placed
            ? {
                orderingId: preferred,
                seasonId: placed.season_id,
                seasonNumber: placed.season_number,
                episodeNumber: placed.episode_number,
              }
            : null,
        ),
      );
    }
    return result;
  }

  /** Online/Bulk: every id resolved (local copy or live), in request order; unresolvable ids are a 400 keyed `IDs`. */
  async onlineBulk<T>(ids: number[], resolve: (id: number) => Promise<T>): Promise<T[]> {
    const errors = new FieldErrorCollector();
    const found: T[] = [];
    for (const id of ids) {
      try {
        found.push(await resolve(id));
      } catch (error) {
        if (!(error instanceof HttpError) || error.status !== 404) throw error;
        errors.add('IDs', `No TMDB entry was found for id ${id}.`);
      }
    }
    errors.throwIfAny();
    return found;
  }

  // ── per series ─────────────────────────────────────────────────────────────────────────────

  async showLinks(animeId: number) {
    return (await this.deps.store.showLinksOfAnime(animeId)).map(showCrossReference);
  }

  async movieLinks(animeId: number) {
    return (await this.deps.store.movieLinksOfAnime(animeId)).map(movieCrossReference);
  }

  /** Series/{id}/TMDB/Show/CrossReferences/Episode: 404 when no show is linked at all. */
  async episodeLinks(animeId: number, options: { tmdbShowId?: number; page: number; pageSize: number }) {
    if (!(await this.deps.store.showLinksOfAnime(animeId)).length) throw notFound('No TMDB.Show entry for the given seriesID');
    if (options.tmdbShowId) {
      const linked = await this.deps.store.showLinksOfAnime(animeId);
      if (!linked.some((link) => link.show_id === options.tmdbShowId))
        throw validationError('tmdbShowID', 'The TMDB show is not linked to the series.');
    }
    const links = await this.deps.store.episodeLinksOfAnime(animeId, options.tmdbShowId);
    return page(links.map(episodeCrossReference), options.page, options.pageSize);
  }

  /** The episode links grouped into the episode groups that map onto each other (…/CrossReferences/EpisodeGroups). */
  async episodeLinkGroups(animeId: number, options: { tmdbShowId?: number; page: number; pageSize: number }) {
    const { tmdbShowId } = options;
    if (tmdbShowId && !(await this.deps.store.showLinksOfAnime(animeId)).some((link) => link.show_id === tmdbShowId)) {
      throw validationError('tmdbShowID', 'The TMDB show is not linked to the series.');
    }
    const links = (await this.deps.store.episodeLinksOfAnime(animeId, tmdbShowId || undefined)).map(episodeCrossReference);
    return page(groupEpisodeLinks(links), options.page, options.pageSize);
  }

  /** The AniDB anime of a Shoko series; 404 when there is no such series. */
  async animeOfSeries(seriesId: number): Promise<number> {
    const animeId = await this.deps.store.animeOfSeries(seriesId);
    if (animeId === null) throw notFound('No Series entry for the given seriesID');
    return animeId;
  }

  /** Ids of the shows linked to an anime, by show id. */
  async linkedShowIds(animeId: number): Promise<number[]> {
    return (await this.deps.store.showLinksOfAnime(animeId)).map((link) => link.show_id);
  }

  /** Ids of the movies linked to any episode of an anime, each once. */
  async linkedMovieIds(animeId: number): Promise<number[]> {
    return [...new Set((await this.deps.store.movieLinksOfAnime(animeId)).map((link) => link.movie_id))];
  }

  async hasStoredEpisodes(showId: number): Promise<boolean> {
    return (await this.deps.store.episodesOfShow(showId)).length > 0;
  }

  async isMovieStored(movieId: number): Promise<boolean> {
    return (await this.deps.store.movie(movieId)) !== undefined;
  }

  async showsOfAnime(animeId: number, include: Set<string>): Promise<TmdbShow[]> {
    const links = await this.deps.store.showLinksOfAnime(animeId);
    const shows: TmdbShow[] = [];
    for (const link of links) {
      if (await this.deps.store.show(link.show_id)) shows.push(await this.show(link.show_id, include));
    }
    return shows;
  }

  async moviesOfAnime(animeId: number, include: Set<string>): Promise<TmdbMovie[]> {
    const movieIds = [...new Set((await this.deps.store.movieLinksOfAnime(animeId)).map((link) => link.movie_id))];
    const movies: TmdbMovie[] = [];
    for (const movieId of movieIds) {
      if (await this.deps.store.movie(movieId)) movies.push(await this.movie(movieId, include));
    }
    return movies;
  }

  // ── per episode ────────────────────────────────────────────────────────────────────────────

  /** A Shoko episode's AniDB episode and anime; 404 when there is no such episode. */
  async episodeRef(episodeId: number): Promise<{ anidb_episode_id: number; anime_id: number }> {
    const episode = await this.deps.store.episodeForTmdb(episodeId);
    if (!episode) throw notFound('No Episode entry for the given episodeID');
    return episode;
  }

  private async movieLinksOfEpisode(episodeId: number) {
    const episode = await this.episodeRef(episodeId);
    return (await this.deps.store.movieLinksOfAnime(episode.anime_id)).filter((link) => link.anidb_episode_id === episode.anidb_episode_id);
  }

  private async episodeLinksOfEpisode(episodeId: number) {
    const episode = await this.episodeRef(episodeId);
    return (await this.deps.store.episodeLinksOfAnime(episode.anime_id)).filter(
      (link) => link.anidb_episode_id === episode.anidb_episode_id,
    );
  }

  /** The stored movies linked to a Shoko episode. */
  async moviesOfEpisode(episodeId: number, include: Set<string>): Promise<TmdbMovie[]> {
    const movies: TmdbMovie[] = [];
    for (const movieId of new Set((await this.movieLinksOfEpisode(episodeId)).map((link) => link.movie_id))) {
      if (await this.deps.store.movie(movieId)) movies.push(await this.movie(movieId, include));
    }
    return movies;
  }

  async movieLinksOfShokoEpisode(episodeId: number): Promise<TmdbMovieCrossReference[]> {
    return (await this.movieLinksOfEpisode(episodeId)).map(movieCrossReference);
  }

  /** The stored TMDB episodes linked to a Shoko episode ("no link" entries skipped). */
  async tmdbEpisodesOfEpisode(episodeId: number): Promise<TmdbEpisode[]> {
    return this.episodesByIds((await this.episodeLinksOfEpisode(episodeId)).map((link) => link.tmdb_episode_id).filter((id) => id !== 0));
  }

  async episodeLinksOfShokoEpisode(episodeId: number): Promise<TmdbEpisodeCrossReference[]> {
    return (await this.episodeLinksOfEpisode(episodeId)).map(episodeCrossReference);
  }

  /** `default`, the show id or one of the show's alternate orderings; empty = the preferred one. */
  private async resolveOrdering(show: ShowRow, requested: string | undefined, field = 'alternateOrderingID'): Promise<string> {
    const defaultId = String(show.id);
    if (!requested) return show.preferred_ordering_id ?? defaultId;
    if (!ORDERING_ID.test(requested)) throw validationError(field, `The ${field} field is not a valid ordering id.`);
    if (requested === 'default' || requested === defaultId) return defaultId;
    const orderings = await this.deps.store.orderingsOfShow(show.id);
    if (!orderings.some((o) => o.id === requested)) throw validationError(field, 'The ordering does not belong to the show.');
    return requested;
  }
}

/**
 * The episode picker's search: a leading `S<n>`, `E<n>`, `S<n>E<n>` or `Special[s] [<n>]` selects by numbers (specials
 * are season 0); the remaining text must occur in the title (case-insensitive).
 */
export function episodeSearch(text: string): (episode: TmdbEpisode) => boolean {
  const numbers = /^(?:s(\d+)(?:e(\d+))?|e(\d+)|specials?(?:\s+(\d+))?)(?=\s|$)/i.exec(text);
  let season: number | null = null;
  let number: number | null = null;
  let rest = text;
  if (numbers) {
    const [whole, s, se, e, special] = numbers;
    if (s !== undefined) season = Number(s);
    else if (e === undefined) season = 0;
    const episodeNumber = se ?? e ?? special;
    if (episodeNumber !== undefined) number = Number(episodeNumber);
    rest = text.slice(whole.length);
  }
  const title = rest.trim().toLowerCase();
  return (episode) =>
    (season === null || episode.SeasonNumber === season) &&
    (number === null || episode.EpisodeNumber === number) &&
    (!title || episode.Title.toLowerCase().includes(title));
}

/** One page of an in-memory list; pageSize 0 = everything. */
export function page<T>(items: T[], pageNumber: number, pageSize: number): ListResult<T> {
  if (pageSize <= 0) return { Total: items.length, List: items };
  return { Total: items.length, List: items.slice((pageNumber - 1) * pageSize, pageNumber * pageSize) };
}

/** Serves `pageSize` results of page `page` from TMDB's fixed pages of 20, asking only for the pages it needs. */
async function pagedSearch<T>(fetchPage: (tmdbPage: number) => Promise<TmdbSearchPage<T>>, query: SearchQuery): Promise<ListResult<T>> {
  if (!query.query.trim()) return { Total: 0, List: [] };
  const start = query.pageSize > 0 ? (query.page - 1) * query.pageSize : 0;
  const end = query.pageSize > 0 ? start + query.pageSize : MAX_TMDB_PAGES * TMDB_PAGE_SIZE;
  const firstPage = Math.floor(start / TMDB_PAGE_SIZE) + 1;
  const results: T[] = [];
  let total = 0;
  for (let tmdbPage = firstPage; (tmdbPage - 1) * TMDB_PAGE_SIZE < end && tmdbPage <= 500; tmdbPage++) {
    const answer = await fetchPage(tmdbPage);
    total = answer.total_results;
    const offset = (tmdbPage - 1) * TMDB_PAGE_SIZE;
    answer.results.forEach((result, index) => {
      const position = offset + index;
      if (position >= start && position < end) results.push(result);
    });
    if (tmdbPage >= answer.total_pages) break;
  }
  return { Total: total, List: results };
}
