/**
 * DESIGN: reads of the locally stored TMDB movies and shows beyond what TmdbService serves (lists, bulk reads, each
 * sub-resource on its own, the AniDB/Shoko entries linked to them) and the purge of a local copy. Built on TmdbService's
 * models so every shape is made once; queries in tmdb-local.store.ts and tmdb.store.ts. Seasons and episodes:
 * tmdb-local-seasons.service.ts. Routes: tmdb-local.routes.ts.
 */
import type { FileCrossReference, ListResult, TmdbMovie, TmdbShow } from '@shoko-ts/contract';
import { notFound, validationError } from '../../http/problem.js';
import { includeOnly } from '../../http/list-query.js';
import type { TmdbSync } from './tmdb-sync.service.js';
import { groupEpisodeLinks, episodeCrossReference, movieCrossReference } from './tmdb-models.js';
import {
  byTitle,
  daysOfWeek,
  imagesOf,
  includeOnlyMatches,
  inLanguages,
  pageOf,
  searchRows,
  searchTitles,
  yearlySeasons,
  type ImageDeps,
} from './tmdb-local-models.js';
import { overviewsOf, titlesOf } from './tmdb-models.js';
import type { TmdbLocalStore } from './tmdb-local.store.js';
import { includeSet, MOVIE_NOT_FOUND, SHOW_NOT_FOUND, type TmdbService } from './tmdb.service.js';
import type { MovieRow, ShowRow, TmdbStore } from './tmdb.store.js';

export const MOVIE_COLLECTION_NOT_FOUND = 'A TMDB.MovieCollection by the given `collectionID` was not found.';
export const MOVIE_COLLECTION_BY_MOVIE_NOT_FOUND = 'A TMDB.MovieCollection by the given `movieID` was not found.';

/** The single-list details of a movie or show model that a sub-route answers on its own. */
export type MovieDetail = 'Cast' | 'Crew' | 'Studios' | 'ContentRatings' | 'Keywords' | 'ProductionCountries';

export interface TmdbLocalDeps {
  service: TmdbService;
  store: TmdbStore;
  local: TmdbLocalStore;
  sync: Pick<TmdbSync, 'downloadImages'>;
  images: ImageDeps;
  /** The files domain's cross-references of file contents (File.SeriesIDs shape), keyed `ed2k:size`. */
  fileCrossReferences: (contents: { ed2k: string; size: number }[]) => Promise<Map<string, unknown[]>>;
}

type SeriesFileXRef = FileCrossReference;

/** What an AniDB/Shoko sub-route needs: linked anime, AniDB episodes, Shoko series and Shoko episodes, each once, in order. */
export interface LinkedIds {
  animeIds: number[];
  anidbEpisodeIds: number[];
  seriesIds: number[];
  shokoEpisodeIds: number[];
}

export class TmdbLocalService {
  constructor(private readonly deps: TmdbLocalDeps) {}

  // ── movies ────────────────────────────────────────────────────────────────────────────────

  private async movieRow(movieId: number): Promise<MovieRow> {
    const row = await this.deps.store.movie(movieId);
    if (!row) throw notFound(MOVIE_NOT_FOUND);
    return row;
  }

  async movies(query: {
    search?: string;
    fuzzy: boolean;
    include?: string[];
    restricted?: string;
    video?: string;
    page: number;
    pageSize: number;
  }): Promise<ListResult<TmdbMovie>> {
    const restricted = includeOnly(query.restricted, 'true', 'restricted');
    const video = includeOnly(query.video, 'true', 'video');
    const rows = (await this.deps.local.allMovies())
      .filter((row) => includeOnlyMatches(restricted, row.is_restricted === 1) && includeOnlyMatches(video, row.is_video === 1))
      .sort(byTitle);
    const include = includeSet(query.include);
    const found = searchRows(rows, query.search, query.fuzzy, searchTitles);
    return pageOf(found, query.page, query.pageSize, (row) => this.movieModel(row.id, include));
  }

  /** The movie model, with its AniDB links when `include` asks for CrossReferences. */
  private async movieModel(movieId: number, include: Set<string>): Promise<TmdbMovie> {
    const model = await this.deps.service.movie(movieId, include);
    if (!include.has('CrossReferences')) return model;
    return { ...model, CrossReferences: (await this.deps.store.movieLinksOfMovie(movieId)).map(movieCrossReference) };
  }

  async movieTitles(movieId: number, languages: string[]) {
    return inLanguages(titlesOf(await this.movieRow(movieId)), languages);
  }

  async movieOverviews(movieId: number, languages: string[]) {
    return inLanguages(overviewsOf(await this.movieRow(movieId)), languages);
  }

  async movieDetail<K extends MovieDetail>(movieId: number, key: K): Promise<NonNullable<TmdbMovie[K]>> {
    const model = await this.deps.service.movie(movieId, new Set([key]));
    return (model[key] ?? (key === 'ProductionCountries' ? {} : [])) as NonNullable<TmdbMovie[K]>;
  }

  async movieImages(movieId: number, includeDisabled: boolean) {
    await this.movieRow(movieId);
    return imagesOf(this.deps.images, await this.deps.local.images('Movie', [movieId]), includeDisabled);
  }

  async movieYearlySeasons(movieId: number) {
    return yearlySeasons([(await this.movieRow(movieId)).released_at]);
  }

  /** This server stores no movie collections: a stored movie's collection is never found. */
  async movieCollection(movieId: number): Promise<never> {
    await this.movieRow(movieId);
    throw notFound(MOVIE_COLLECTION_BY_MOVIE_NOT_FOUND);
  }

  async movieLinks(movieId: number): Promise<LinkedIds> {
    await this.movieRow(movieId);
    const links = await this.deps.store.movieLinksOfMovie(movieId);
    return this.linked(
      links.map((l) => l.anime_id),
      links.map((l) => l.anidb_episode_id),
    );
  }

  async downloadMovieImages(movieId: number): Promise<void> {
    await this.movieRow(movieId);
    await this.deps.sync.downloadImages({ type: 'Movie', id: movieId });
  }

  /** DELETE Tmdb/Movie/{id}: the local copy and its links go; an unknown id is no error. */
  purgeMovie(movieId: number): Promise<void> {
    return this.deps.local.purgeMovie(movieId);
  }

  // ── shows ─────────────────────────────────────────────────────────────────────────────────

  private async showRow(showId: number): Promise<ShowRow> {
    const row = await this.deps.store.show(showId);
    if (!row) throw notFound(SHOW_NOT_FOUND);
    return row;
  }

  async shows(query: {
    search?: string;
    fuzzy: boolean;
    include?: string[];
    restricted?: string;
    page: number;
    pageSize: number;
  }): Promise<ListResult<TmdbShow>> {
    const restricted = includeOnly(query.restricted, 'true', 'restricted');
    const rows = (await this.deps.local.allShows()).filter((row) => includeOnlyMatches(restricted, row.is_restricted === 1)).sort(byTitle);
    const include = includeSet(query.include);
    const found = searchRows(rows, query.search, query.fuzzy, searchTitles);
    return pageOf(found, query.page, query.pageSize, (row) => this.deps.service.show(row.id, include));
  }

  async showTitles(showId: number, languages: string[]) {
    return inLanguages(titlesOf(await this.showRow(showId)), languages);
  }

  async showOverviews(showId: number, languages: string[]) {
    return inLanguages(overviewsOf(await this.showRow(showId)), languages);
  }

  async showDetail<K extends MovieDetail>(showId: number, key: K, alternateOrderingId?: string): Promise<NonNullable<TmdbShow[K]>> {
    const model = await this.deps.service.show(showId, new Set([key]), alternateOrderingId || undefined);
    return (model[key] ?? (key === 'ProductionCountries' ? {} : [])) as NonNullable<TmdbShow[K]>;
  }

  async showImages(showId: number, includeDisabled: boolean) {
    await this.showRow(showId);
    return imagesOf(this.deps.images, await this.deps.local.images('Show', [showId]), includeDisabled);
  }

  async showYearlySeasons(showId: number) {
    const row = await this.showRow(showId);
    const episodes = await this.deps.store.episodesOfShow(showId);
    return yearlySeasons([row.first_aired_at, row.last_aired_at, ...episodes.filter((e) => e.season_number !== 0).map((e) => e.aired_at)]);
  }

  async showDaysOfWeek(showId: number) {
    await this.showRow(showId);
    return daysOfWeek((await this.deps.store.episodesOfShow(showId)).map((e) => e.aired_at));
  }

  /** Networks are not stored by this server: a stored show answers an empty list. */
  async showNetworks(showId: number): Promise<never[]> {
    await this.showRow(showId);
    return [];
  }

  async showEpisodeCrossReferences(showId: number, page: number, pageSize: number) {
    await this.showRow(showId);
    const links = (await this.deps.local.episodeLinksOfShow(showId)).map(episodeCrossReference);
    return pageOf(links, page, pageSize, async (link) => link);
  }

  async showEpisodeCrossReferenceGroups(showId: number, page: number, pageSize: number) {
    await this.showRow(showId);
    const links = (await this.deps.local.episodeLinksOfShow(showId)).map(episodeCrossReference);
    return pageOf(groupEpisodeLinks(links), page, pageSize, async (group) => group);
  }

  async showLinks(showId: number): Promise<LinkedIds> {
    await this.showRow(showId);
    const showLinks = await this.deps.store.showLinksOfShow(showId);
    const episodeLinks = await this.deps.local.episodeLinksOfShow(showId);
    return this.linked(
      [...showLinks.map((l) => l.anime_id), ...episodeLinks.map((l) => l.anime_id)],
      episodeLinks.map((l) => l.anidb_episode_id),
    );
  }

  async downloadShowImages(showId: number): Promise<void> {
    await this.showRow(showId);
    await this.deps.sync.downloadImages({ type: 'Show', id: showId });
  }

  purgeShow(showId: number): Promise<void> {
    return this.deps.local.purgeShow(showId);
  }

  /** A show must exist and the ordering (if any) belong to it; the show's model comes from TmdbService. */
  async checkOrdering(showId: number, alternateOrderingId: string | undefined): Promise<void> {
    if (!alternateOrderingId) return;
    await this.deps.service.orderings(showId, alternateOrderingId);
  }

  /** `ed2k:size` of the files linked to the AniDB episodes (the Shoko/File routes' scope). */
  async fileContents(anidbEpisodeIds: number[]): Promise<Set<string>> {
    return new Set((await this.deps.local.linkedContents(anidbEpisodeIds)).map((c) => `${c.ed2k}:${c.size}`));
  }

  /** The file cross-references of the AniDB episodes, one entry per series with the episodes' file links in it. */
  async fileCrossReferences(anidbEpisodeIds: number[]): Promise<FileCrossReference[]> {
    const wanted = new Set(anidbEpisodeIds);
    const contents = await this.deps.local.linkedContents(anidbEpisodeIds);
    const unique = [...new Map(contents.map((c) => [`${c.ed2k}:${c.size}`, { ed2k: c.ed2k, size: c.size }])).entries()];
    const byContent = await this.deps.fileCrossReferences(unique.map(([, content]) => content));
    const result: SeriesFileXRef[] = [];
    const seen = new Set<string>();
    for (const [key] of unique) {
      for (const series of (byContent.get(key) ?? []) as SeriesFileXRef[]) {
        const episodes = series.EpisodeIDs.filter((e) => wanted.has(e.AniDB) && !seen.has(`${key}:${e.AniDB}`));
        if (!episodes.length) continue;
        for (const e of episodes) seen.add(`${key}:${e.AniDB}`);
        const entry = result.find((x) => x.SeriesID.AniDB === series.SeriesID.AniDB);
        if (entry) entry.EpisodeIDs.push(...episodes);
        else result.push({ SeriesID: series.SeriesID, EpisodeIDs: episodes });
      }
    }
    return result;
  }

  /** The anime, AniDB episodes, Shoko series and Shoko episodes behind a set of links, each once. */
  async linked(animeIds: number[], anidbEpisodeIds: number[]): Promise<LinkedIds> {
    const anime = [...new Set(animeIds)];
    const episodes = [...new Set(anidbEpisodeIds)];
    const series = await this.deps.local.seriesOfAnime(anime);
    const shokoEpisodes = await this.deps.local.shokoEpisodesOfAnidb(episodes);
    const seriesByAnime = new Map(series.map((s) => [s.anime_id, s.id]));
    const episodeByAnidb = new Map(shokoEpisodes.map((e) => [e.anidb_episode_id, e.id]));
    return {
      animeIds: anime,
      anidbEpisodeIds: episodes,
      seriesIds: anime.flatMap((id) => (seriesByAnime.has(id) ? [seriesByAnime.get(id)!] : [])),
      shokoEpisodeIds: episodes.flatMap((id) => (episodeByAnidb.has(id) ? [episodeByAnidb.get(id)!] : [])),
    };
  }
}

/** `alternateOrderingID` must look like an ordering id before anything is read. */
export function orderingParam(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (!/^(?:[0-9]{1,23}|[a-f0-9]{24}|default)$/i.test(value)) {
    throw validationError('alternateOrderingID', 'The alternateOrderingID field is not a valid ordering id.');
  }
  return value;
}
