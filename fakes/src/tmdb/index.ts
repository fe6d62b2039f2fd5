import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MOVIE_GENRES, TV_GENRES, type FakeMovie, type FakeShow } from './fixtures.js';
import { solidPng } from './png.js';
import {
  episodeGroupDetails,
  imagesJson,
  movieDetails,
  movieSearchResult,
  seasonDetails,
  showDetails,
  showSearchResult,
} from './responses.js';

export * from './fixtures.js';
export { solidPng } from './png.js';

export interface StartFakeTmdbOptions {
  /** 0 (default) = any free port. */
  port?: number;
  /** Accepted as `api_key=` or as `Authorization: Bearer`. Default `TESTKEY`. */
  apiKey?: string;
  shows?: FakeShow[];
  movies?: FakeMovie[];
}

export interface FakeTmdb {
  /** API base, e.g. `http://127.0.0.1:PORT/3` (give it to the client as `baseUrl` / `SHOKO_TMDB_URL`). */
  url: string;
  /** Image base at original size, e.g. `http://127.0.0.1:PORT/t/p/original`. */
  imageUrl: string;
  port: number;
  /** Every request as `METHOD /path?query`, in arrival order. */
  requests: string[];
  /** The next `count` API requests answer 429 (status_code 25); `retryAfterSeconds` null omits the header. */
  rateLimitNext(count: number, retryAfterSeconds?: number | null): void;
  /** The next `count` requests have their connection cut without an answer. */
  dropNext(count: number): void;
  /** The next `count` requests are never answered (the client's timeout has to fire). */
  stallNext(count: number): void;
  close(): Promise<void>;
}

const TMDB_PAGE_SIZE = 20;
const ERRORS = {
  invalidKey: {
    status: 401,
    body: { success: false, status_code: 7, status_message: 'Invalid API key: You must be granted a valid key.' },
  },
  notFound: { status: 404, body: { success: false, status_code: 34, status_message: 'The resource you requested could not be found.' } },
  rateLimited: {
    status: 429,
    body: { success: false, status_code: 25, status_message: 'Your request count (41) is over the allowed limit of 40.' },
  },
  invalidPage: {
    status: 422,
    body: {
      success: false,
      status_code: 22,
      status_message: 'Invalid page: Pages start at 1 and max at 500. They are expected to be an integer.',
    },
  },
} as const;

interface Answer {
  status: number;
  body: unknown;
}

const ok = (body: unknown): Answer => ({ status: 200, body });

/** Every `*_path` string in the fixtures is an image the fake can serve. */
function collectImagePaths(value: unknown, into: Set<string>, key = ''): Set<string> {
  if (typeof value === 'string' && (key.endsWith('_path') || key === 'file_path') && value.startsWith('/')) into.add(value);
  else if (Array.isArray(value)) for (const item of value) collectImagePaths(item, into);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) collectImagePaths(v, into, k);
  return into;
}

function searchPage(matches: unknown[], params: URLSearchParams): Answer {
  const page = Number(params.get('page') ?? '1');
  if (!Number.isInteger(page) || page < 1 || page > 500) return ERRORS.invalidPage;
  const results = matches.slice((page - 1) * TMDB_PAGE_SIZE, page * TMDB_PAGE_SIZE);
  return ok({ page, results, total_pages: Math.max(1, Math.ceil(matches.length / TMDB_PAGE_SIZE)), total_results: matches.length });
}

/** Case-insensitive substring search over the main and original titles, in fixture order (the fake's "relevance"). */
function textMatches(
  params: URLSearchParams,
  titles: (string | undefined)[],
  adult: boolean | undefined,
  year: string | null,
  date: string | null | undefined,
): boolean {
  const query = (params.get('query') ?? '').trim().toLowerCase();
  if (!query || !titles.some((title) => title?.toLowerCase().includes(query))) return false;
  if (adult && params.get('include_adult') !== 'true') return false;
  return !year || (date ?? '').startsWith(year);
}

export async function startFakeTmdb(options: StartFakeTmdbOptions = {}): Promise<FakeTmdb> {
  const apiKey = options.apiKey ?? 'TESTKEY';
  const shows = options.shows ?? [];
  const movies = options.movies ?? [];
  const imagePaths = collectImagePaths([shows, movies], new Set());
  const requests: string[] = [];
  const scenario = { rateLimited: 0, retryAfterSeconds: 1 as number | null, dropped: 0, stalled: 0 };
  let origin = '';

  const findShow = (id: string) => shows.find((show) => String(show.id) === id);
  const findMovie = (id: string) => movies.find((movie) => String(movie.id) === id);
  const appendOf = (params: URLSearchParams) =>
    (params.get('append_to_response') ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);

  const routes: [RegExp, (match: RegExpExecArray, params: URLSearchParams) => Answer][] = [
    [
      /^\/3\/configuration$/,
      () =>
        ok({
          images: {
            base_url: `${origin}/t/p/`,
            secure_base_url: `${origin}/t/p/`,
            backdrop_sizes: ['w300', 'w780', 'w1280', 'original'],
            logo_sizes: ['w45', 'w92', 'w154', 'w185', 'w300', 'w500', 'original'],
            poster_sizes: ['w92', 'w154', 'w185', 'w342', 'w500', 'w780', 'original'],
            profile_sizes: ['w45', 'w185', 'h632', 'original'],
            still_sizes: ['w92', 'w185', 'w300', 'original'],
          },
          change_keys: [],
        }),
    ],
    [/^\/3\/genre\/tv\/list$/, () => ok({ genres: TV_GENRES })],
    [/^\/3\/genre\/movie\/list$/, () => ok({ genres: MOVIE_GENRES })],
    [
      /^\/3\/search\/tv$/,
      (_, params) => {
        const year = params.get('first_air_date_year') ?? params.get('year');
        const found = shows.filter((s) => textMatches(params, [s.name, s.original_name], s.adult, year, s.first_air_date));
        return searchPage(found.map(showSearchResult), params);
      },
    ],
    [
      /^\/3\/search\/movie$/,
      (_, params) => {
        const year = params.get('year') ?? params.get('primary_release_year');
        const found = movies.filter((m) => textMatches(params, [m.title, m.original_title], m.adult, year, m.release_date));
        return searchPage(found.map(movieSearchResult), params);
      },
    ],
    [
      /^\/3\/tv\/episode_group\/([^/]+)$/,
      ([, groupId]) => {
        for (const show of shows) {
          const group = show.episode_groups?.find((g) => g.id === groupId);
          if (!group) continue;
          const details = episodeGroupDetails(show, group);
          return details
            ? ok(details)
            : {
                status: 500,
                body: { success: false, status_code: 11, status_message: `Fixture group ${groupId} names a missing episode.` },
              };
        }
        return ERRORS.notFound;
      },
    ],
    [
      /^\/3\/tv\/(\d+)$/,
      ([, id], params) => {
        const show = findShow(id);
        return show ? ok(showDetails(show, appendOf(params))) : ERRORS.notFound;
      },
    ],
    [
      /^\/3\/tv\/(\d+)\/images$/,
      ([, id]) => {
        const show = findShow(id);
        return show ? ok({ id: show.id, ...imagesJson(show.images) }) : ERRORS.notFound;
      },
    ],
    [
      /^\/3\/tv\/(\d+)\/season\/(\d+)$/,
      ([, id, number], params) => {
        const show = findShow(id);
        const season = show?.seasons.find((s) => String(s.season_number) === number);
        return show && season ? ok(seasonDetails(show, season, appendOf(params))) : ERRORS.notFound;
      },
    ],
    [
      /^\/3\/movie\/(\d+)$/,
      ([, id], params) => {
        const movie = findMovie(id);
        return movie ? ok(movieDetails(movie, appendOf(params))) : ERRORS.notFound;
      },
    ],
    [
      /^\/3\/movie\/(\d+)\/images$/,
      ([, id]) => {
        const movie = findMovie(id);
        return movie ? ok({ id: movie.id, ...imagesJson(movie.images) }) : ERRORS.notFound;
      },
    ],
  ];

  const isAuthorised = (request: http.IncomingMessage, params: URLSearchParams) =>
    params.get('api_key') === apiKey || request.headers.authorization === `Bearer ${apiKey}`;

  const sendJson = (response: http.ServerResponse, answer: Answer, headers: Record<string, string> = {}) => {
    response.writeHead(answer.status, { 'Content-Type': 'application/json;charset=utf-8', ...headers });
    response.end(JSON.stringify(answer.body));
  };

  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    requests.push(`${request.method} ${url.pathname}${url.search}`);
    if (scenario.dropped > 0) {
      scenario.dropped--;
      request.socket.destroy();
      return;
    }
    if (scenario.stalled > 0) {
      scenario.stalled--;
      return;
    }
    const image = /^\/t\/p\/[a-z0-9]+(\/[A-Za-z0-9._-]+)$/.exec(url.pathname);
    if (image) {
      if (!imagePaths.has(image[1])) return sendJson(response, ERRORS.notFound);
      response.writeHead(200, { 'Content-Type': 'image/png' });
      response.end(solidPng(image[1]));
      return;
    }
    if (request.method !== 'GET') return sendJson(response, ERRORS.notFound);
    if (!isAuthorised(request, url.searchParams)) return sendJson(response, ERRORS.invalidKey);
    if (scenario.rateLimited > 0) {
      scenario.rateLimited--;
      const headers: Record<string, string> =
        scenario.retryAfterSeconds === null ? {} : { 'Retry-After': String(scenario.retryAfterSeconds) };
      return sendJson(response, ERRORS.rateLimited, headers);
    }
    for (const [pattern, handle] of routes) {
      const match = pattern.exec(url.pathname);
      if (match) return sendJson(response, handle(match, url.searchParams));
    }
    sendJson(response, ERRORS.notFound);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/3`,
    imageUrl: `${origin}/t/p/original`,
    port,
    requests,
    rateLimitNext(count, retryAfterSeconds = 1) {
      scenario.rateLimited = count;
      scenario.retryAfterSeconds = retryAfterSeconds;
    },
    dropNext(count) {
      scenario.dropped = count;
    },
    stallNext(count) {
      scenario.stalled = count;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
