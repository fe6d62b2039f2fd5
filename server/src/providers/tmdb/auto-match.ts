import type { TmdbSearchOptions } from './client.js';
import { normaliseTitle } from './title-similarity.js';
import type { TmdbGenre, TmdbMovieSearchResult, TmdbSearchPage, TmdbShowSearchResult } from './types.js';

/** The v3 contract's AnimeType. */
export type AnidbAnimeType = 'TV' | 'TVSpecial' | 'Web' | 'OVA' | 'Movie' | 'MusicVideo' | 'Other' | 'Unknown';

export interface AnidbTitleForMatching {
  title: string;
  /** AniDB language code: `ja`, `en`, `x-jat` (romaji), ... */
  language: string;
  type: 'main' | 'official' | 'synonym' | 'short' | 'kana' | 'card';
}

/** What the AniDB side knows about an anime, enough to search TMDB for it. */
export interface AnidbAnimeForMatching {
  mainTitle: string;
  titles: readonly AnidbTitleForMatching[];
  /** `YYYY-MM-DD`, null when AniDB has none yet. */
  airDate: string | null;
  type: AnidbAnimeType;
  /** AniDB's 18+ flag: only then are adult TMDB results searched. */
  restricted?: boolean;
  /** Language of the original work, whose official title is searched first. Default `ja`. */
  originalLanguage?: string;
  /**
   * For a series: the first entry of its prequel chain (walked by the caller, which holds the AniDB relations).
   * TMDB usually files sequels as further seasons of that first entry's show, so its titles are searched first.
   */
  firstEntry?: Pick<AnidbAnimeForMatching, 'mainTitle' | 'titles' | 'airDate' | 'originalLanguage'>;
}

export interface TmdbSearchQuery {
  query: string;
  year?: number;
}

/** What the search needs from the client; `TmdbClient` fits, tests can pass stubs. */
export interface TmdbSearchSource {
  searchShows(query: string, options?: TmdbSearchOptions): Promise<TmdbSearchPage<TmdbShowSearchResult>>;
  searchMovies(query: string, options?: TmdbSearchOptions): Promise<TmdbSearchPage<TmdbMovieSearchResult>>;
  getGenres(kind: 'tv' | 'movie'): Promise<TmdbGenre[]>;
}

export type TmdbAutoMatchOutcome =
  | { status: 'matched'; kind: 'show'; show: TmdbShowSearchResult; query: TmdbSearchQuery }
  | { status: 'matched'; kind: 'movie'; movie: TmdbMovieSearchResult; query: TmdbSearchQuery }
  | { status: 'skipped'; reason: 'unsupported-type' | 'not-yet-aired' | 'no-titles' }
  | { status: 'not-found'; tried: TmdbSearchQuery[] };

/** Music videos and anime of unknown or "other" type have no sensible TMDB counterpart. */
const UNMATCHABLE_TYPES = new Set<AnidbAnimeType>(['MusicVideo', 'Other', 'Unknown']);
/** Anime further in the future than this are left alone: TMDB rarely has them, and a wrong early link sticks. */
const FUTURE_AIRING_LIMIT_DAYS = 15;

/**
 * Sequel markers at the end of a title, removed one after another: "(2019)", "Season 2", "2nd Season", "Part 2",
 * "Cour 2", "The Final Season", "第2期"/"2期", Roman numerals II-X, and a bare trailing digit 2-9.
 */
const SEQUEL_SUFFIXES: readonly RegExp[] = [
  /\s*[([]\d{4}[)\]]$/,
  /[\s:]+(?:season|part|cour)\s*\d+$/i,
  /[\s:]+\d+(?:st|nd|rd|th)\s+(?:season|part|cour)$/i,
  /[\s:]+(?:the\s+)?final\s+season$/i,
  /\s*第?\d+期$/,
  /\s+(?:II|III|IV|V|VI|VII|VIII|IX|X)$/,
  /\s+[2-9]$/,
];

/** The title without its sequel markers, or null when it has none. */
export function stripSequelSuffix(title: string): string | null {
  let current = title.trim();
  for (let changed = true; changed;) {
    changed = false;
    for (const pattern of SEQUEL_SUFFIXES) {
      const next = current.replace(pattern, '').trim();
      if (next !== current && next.length > 0) {
        current = next;
        changed = true;
      }
    }
  }
  return current !== title.trim() ? current : null;
}

/** The part before a sub-title: before the first colon, or for Japanese titles before the first space. */
export function removeSubtitle(title: string, language: string): string | null {
  const separator = language === 'ja' ? /[:：\s\u3000]/ : /[:：]/;
  const head = title.split(separator)[0].trim();
  return head.length > 0 && head !== title.trim() ? head : null;
}

/** Original-language official title, then English official title, then AniDB's main title. */
function titlesInSearchOrder(entry: NonNullable<AnidbAnimeForMatching['firstEntry']>): { title: string; language: string }[] {
  const original = entry.originalLanguage ?? 'ja';
  const official = (language: string) => entry.titles.filter((t) => t.type === 'official' && t.language === language);
  const main = entry.titles.find((t) => t.type === 'main');
  return [...official(original), ...official('en'), { title: entry.mainTitle, language: main?.language ?? 'x-jat' }].filter(
    (t) => t.title.trim().length > 0,
  );
}

/**
 * The searches to try, in order (reference §2.6): each title with the air year, then without; then the titles with
 * sequel markers stripped; for series also with sub-titles removed. A series' first entry is tried before the
 * series itself. Duplicates (case-insensitively) are dropped.
 */
export function buildSearchQueries(anime: AnidbAnimeForMatching): TmdbSearchQuery[] {
  const isMovie = anime.type === 'Movie';
  const entries = !isMovie && anime.firstEntry ? [anime.firstEntry, anime] : [anime];
  const queries: TmdbSearchQuery[] = [];
  const seen = new Set<string>();
  const add = (query: string, year?: number) => {
    const key = `${query.toLowerCase()}|${year ?? ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    queries.push(year === undefined ? { query } : { query, year });
  };
  for (const entry of entries) {
    const titles = titlesInSearchOrder(entry);
    const year = entry.airDate ? Number(entry.airDate.slice(0, 4)) : undefined;
    for (const { title } of titles) {
      if (year) add(title, year);
      add(title);
    }
    for (const { title } of titles) {
      const stripped = stripSequelSuffix(title);
      if (stripped) add(stripped);
    }
    if (isMovie) continue;
    for (const { title, language } of titles) {
      const head = removeSubtitle(stripSequelSuffix(title) ?? title, language);
      if (head) add(head);
    }
  }
  return queries;
}

function daysUntil(date: string, today: Date): number {
  const todayUtc = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  return (Date.parse(`${date.slice(0, 10)}T00:00:00Z`) - todayUtc) / 86_400_000;
}

/**
 * Picks from one page of results: only animated entries qualify (TMDB's "Animation" genre); among them a result
 * whose title equals the query after normalisation wins, otherwise TMDB's relevance order decides.
 */
function pickResult<T extends { genre_ids: number[] }>(
  results: readonly T[],
  animationIds: ReadonlySet<number>,
  query: string,
  titlesOf: (result: T) => string[],
): T | null {
  const animated = results.filter((result) => result.genre_ids.some((id) => animationIds.has(id)));
  const wanted = normaliseTitle(query);
  return animated.find((result) => titlesOf(result).some((title) => normaliseTitle(title) === wanted)) ?? animated[0] ?? null;
}

/** Searches TMDB for the show or movie an AniDB anime corresponds to, walking the query cascade. */
export async function findTmdbMatch(
  anime: AnidbAnimeForMatching,
  source: TmdbSearchSource,
  options: { today?: Date } = {},
): Promise<TmdbAutoMatchOutcome> {
  if (UNMATCHABLE_TYPES.has(anime.type)) return { status: 'skipped', reason: 'unsupported-type' };
  if (anime.airDate && daysUntil(anime.airDate, options.today ?? new Date()) > FUTURE_AIRING_LIMIT_DAYS) {
    return { status: 'skipped', reason: 'not-yet-aired' };
  }
  const queries = buildSearchQueries(anime);
  if (queries.length === 0) return { status: 'skipped', reason: 'no-titles' };

  const isMovie = anime.type === 'Movie';
  const genres = await source.getGenres(isMovie ? 'movie' : 'tv');
  const animationIds = new Set(genres.filter((genre) => genre.name.toLowerCase() === 'animation').map((genre) => genre.id));
  const includeAdult = anime.restricted ?? false;
  for (const query of queries) {
    const searchOptions = { year: query.year, includeAdult };
    if (isMovie) {
      const page = await source.searchMovies(query.query, searchOptions);
      const movie = pickResult(page.results, animationIds, query.query, (m) => [m.title, m.original_title]);
      if (movie) return { status: 'matched', kind: 'movie', movie, query };
    } else {
      const page = await source.searchShows(query.query, searchOptions);
      const show = pickResult(page.results, animationIds, query.query, (s) => [s.name, s.original_name]);
      if (show) return { status: 'matched', kind: 'show', show, query };
    }
  }
  return { status: 'not-found', tried: queries };
}
