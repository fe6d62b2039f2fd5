import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { TmdbError } from './errors.js';
import type { TmdbClock, TmdbRateLimiter } from './rate-limiter.js';
import { TmdbTransport, type TmdbAuthMode } from './transport.js';
import type {
  TmdbEpisodeGroupDetails,
  TmdbGenre,
  TmdbImages,
  TmdbMovieAppendable,
  TmdbMovieDetails,
  TmdbMovieSearchResult,
  TmdbSearchPage,
  TmdbSeasonAppendable,
  TmdbSeasonDetails,
  TmdbShowAppendable,
  TmdbShowDetails,
  TmdbShowSearchResult,
} from './types.js';

export const DEFAULT_TMDB_BASE_URL = 'https://api.themoviedb.org/3';
export const DEFAULT_TMDB_IMAGE_BASE_URL = 'https://image.tmdb.org/t/p/original';

export interface TmdbClientOptions {
  /** From `pickTmdbApiKey`: the user's `TMDB.UserApiKey`, else the built-in key. */
  apiKey: string;
  /** Detected from the key's shape when omitted (see `detectAuthMode`). */
  authMode?: TmdbAuthMode;
  /** Explicit option, else env `SHOKO_TMDB_URL`, else TMDB itself. */
  baseUrl?: string;
  /** Explicit option, else env `SHOKO_TMDB_IMAGE_URL`, else TMDB's image host at original size. */
  imageBaseUrl?: string;
  logger: Logger;
  limiter?: TmdbRateLimiter;
  clock?: TmdbClock;
  timeoutMs?: number;
  maxRateLimitRetries?: number;
  /** Sent with show and movie details so top-level titles/overviews are English (Shoko sends en-US too). */
  language?: string;
}

export interface TmdbSearchOptions {
  year?: number;
  includeAdult?: boolean;
  page?: number;
}

/** Details with the appended sub-resources typed as present. */
export type TmdbShowWith<A extends TmdbShowAppendable> = TmdbShowDetails & Required<Pick<TmdbShowDetails, A>>;
export type TmdbMovieWith<A extends TmdbMovieAppendable> = TmdbMovieDetails & Required<Pick<TmdbMovieDetails, A>>;
export type TmdbSeasonWith<A extends TmdbSeasonAppendable> = TmdbSeasonDetails & Required<Pick<TmdbSeasonDetails, A>>;

/** The user's own key wins; then the key baked into the build; null = TMDB features stay off. */
export function pickTmdbApiKey(userApiKey: string | null | undefined, builtInApiKey?: string | null): string | null {
  const own = userApiKey?.trim();
  if (own) return own;
  const builtIn = builtInApiKey?.trim();
  return builtIn ? builtIn : null;
}

/** v4 read access tokens are JWTs (three dot-separated parts); v3 keys are 32 hex digits. */
export function detectAuthMode(apiKey: string): TmdbAuthMode {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(apiKey) ? 'bearer' : 'api_key';
}

/** TMDB file paths look like `/AbC123.jpg`; anything else is refused before it reaches a URL or a file name. */
const IMAGE_FILE_PATH = /^\/[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** The TMDB API v3 endpoints the metadata jobs use (reference §2.2). */
export class TmdbClient {
  readonly baseUrl: string;
  readonly imageBaseUrl: string;
  private readonly transport: TmdbTransport;
  private readonly language: string;
  private readonly genreLists = new Map<'tv' | 'movie', Promise<TmdbGenre[]>>();

  constructor(options: TmdbClientOptions) {
    this.baseUrl = options.baseUrl ?? (process.env.SHOKO_TMDB_URL?.trim() || DEFAULT_TMDB_BASE_URL);
    this.imageBaseUrl = (options.imageBaseUrl ?? (process.env.SHOKO_TMDB_IMAGE_URL?.trim() || DEFAULT_TMDB_IMAGE_BASE_URL)).replace(
      /\/+$/,
      '',
    );
    this.language = options.language ?? 'en-US';
    this.transport = new TmdbTransport({
      baseUrl: this.baseUrl,
      apiKey: options.apiKey,
      authMode: options.authMode ?? detectAuthMode(options.apiKey),
      logger: options.logger,
      limiter: options.limiter,
      clock: options.clock,
      timeoutMs: options.timeoutMs,
      maxRateLimitRetries: options.maxRateLimitRetries,
    });
  }

  async searchShows(query: string, options: TmdbSearchOptions = {}): Promise<TmdbSearchPage<TmdbShowSearchResult>> {
    return this.transport.getJson('/search/tv', {
      query,
      page: options.page ?? 1,
      include_adult: options.includeAdult ?? false,
      first_air_date_year: options.year,
    });
  }

  async searchMovies(query: string, options: TmdbSearchOptions = {}): Promise<TmdbSearchPage<TmdbMovieSearchResult>> {
    return this.transport.getJson('/search/movie', {
      query,
      page: options.page ?? 1,
      include_adult: options.includeAdult ?? false,
      year: options.year,
    });
  }

  /** Genre id → name, to read search results' `genre_ids`. Fetched once per client and kind. */
  getGenres(kind: 'tv' | 'movie'): Promise<TmdbGenre[]> {
    let list = this.genreLists.get(kind);
    if (!list) {
      list = this.transport.getJson<{ genres: TmdbGenre[] }>(`/genre/${kind}/list`).then((answer) => answer.genres);
      // A failed fetch is not cached, so the next caller tries again.
      list.catch(() => this.genreLists.delete(kind));
      this.genreLists.set(kind, list);
    }
    return list;
  }

  async getShow<A extends TmdbShowAppendable = never>(
    showId: number,
    options: { appendToResponse?: readonly A[]; language?: string } = {},
  ): Promise<TmdbShowWith<A>> {
    return this.transport.getJson(`/tv/${positiveId(showId)}`, {
      language: options.language ?? this.language,
      append_to_response: appendList(options.appendToResponse),
    });
  }

  async getSeason<A extends TmdbSeasonAppendable = never>(
    showId: number,
    seasonNumber: number,
    options: { appendToResponse?: readonly A[] } = {},
  ): Promise<TmdbSeasonWith<A>> {
    if (!Number.isInteger(seasonNumber) || seasonNumber < 0) throw new TmdbError(`Invalid TMDB season number ${seasonNumber}`);
    return this.transport.getJson(`/tv/${positiveId(showId)}/season/${seasonNumber}`, {
      append_to_response: appendList(options.appendToResponse),
    });
  }

  /** An alternate ordering; the endpoint is not nested under the show. */
  async getEpisodeGroup(groupId: string): Promise<TmdbEpisodeGroupDetails> {
    if (!/^[0-9a-f]{1,64}$/i.test(groupId)) throw new TmdbError(`Invalid TMDB episode group id ${JSON.stringify(groupId)}`);
    return this.transport.getJson(`/tv/episode_group/${groupId}`);
  }

  async getMovie<A extends TmdbMovieAppendable = never>(
    movieId: number,
    options: { appendToResponse?: readonly A[]; language?: string } = {},
  ): Promise<TmdbMovieWith<A>> {
    return this.transport.getJson(`/movie/${positiveId(movieId)}`, {
      language: options.language ?? this.language,
      append_to_response: appendList(options.appendToResponse),
    });
  }

  /** Every image in every language (no `language` filter is sent). */
  async getShowImages(showId: number): Promise<TmdbImages> {
    return this.transport.getJson(`/tv/${positiveId(showId)}/images`);
  }

  async getMovieImages(movieId: number): Promise<TmdbImages> {
    return this.transport.getJson(`/movie/${positiveId(movieId)}/images`);
  }

  /** The absolute URL of an image `file_path` (what the v3 contract's `Poster`/`Backdrop` fields carry). */
  imageUrl(filePath: string): string {
    return this.imageBaseUrl + checkedImagePath(filePath);
  }

  /**
   * Downloads an image to `destinationFile`: written to a temporary file beside it and renamed into place, so
   * readers see either the old file or the complete new one, never a partial image.
   */
  async downloadImage(filePath: string, destinationFile: string): Promise<{ bytes: number; contentType: string }> {
    const { bytes, contentType } = await this.transport.getBytes(this.imageUrl(filePath));
    if (!contentType?.toLowerCase().startsWith('image/') || bytes.length === 0) {
      throw new TmdbError(`TMDB image ${filePath} answered ${contentType ?? 'no content type'} (${bytes.length} bytes), not an image`);
    }
    await writeFileAtomically(destinationFile, bytes);
    return { bytes: bytes.length, contentType };
  }
}

async function writeFileAtomically(destinationFile: string, bytes: Buffer): Promise<void> {
  await fs.mkdir(path.dirname(destinationFile), { recursive: true });
  const temporaryFile = `${destinationFile}.${randomBytes(6).toString('hex')}.part`;
  try {
    const handle = await fs.open(temporaryFile, 'wx');
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temporaryFile, destinationFile);
  } catch (error) {
    await fs.rm(temporaryFile, { force: true });
    throw error;
  }
}

function checkedImagePath(filePath: string): string {
  if (!IMAGE_FILE_PATH.test(filePath)) throw new TmdbError(`Invalid TMDB image path ${JSON.stringify(filePath)}`);
  return filePath;
}

function positiveId(id: number): number {
  if (!Number.isInteger(id) || id < 1) throw new TmdbError(`Invalid TMDB id ${id}`);
  return id;
}

function appendList(names: readonly string[] | undefined): string | undefined {
  return names && names.length > 0 ? [...new Set(names)].join(',') : undefined;
}
