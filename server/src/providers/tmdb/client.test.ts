import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeTmdb, type FakeTmdb } from '../../../../fakes/src/tmdb/index.js';
import {
  CLOCKWORK_MOVIE_ID,
  PAPER_COMET_ADULT_ID,
  PAPER_COMET_MOVIE_ID,
  sampleMovies,
  sampleShows,
  TIDEWATER_SHOW_ID,
  TIDEWATER_STORY_ARCS_GROUP_ID,
} from '../../../../fakes/src/tmdb/sample-data.js';
import {
  DEFAULT_TMDB_BASE_URL,
  DEFAULT_TMDB_IMAGE_BASE_URL,
  detectAuthMode,
  pickTmdbApiKey,
  TmdbClient,
  type TmdbClientOptions,
} from './client.js';
import { TmdbAuthError, TmdbError, TmdbNetworkError, TmdbNotFoundError, TmdbRateLimitError } from './errors.js';

const logger = pino({ level: 'silent' });
let fake: FakeTmdb | null = null;
const temporaryDirs: string[] = [];

afterEach(async () => {
  await fake?.close();
  fake = null;
  for (const dir of temporaryDirs.splice(0)) await fs.rm(dir, { recursive: true, force: true });
});

/** Sleeps are recorded instead of waited, so Retry-After handling is checked in milliseconds. */
function recordingClock() {
  const slept: number[] = [];
  return { slept, clock: { now: () => Date.now(), sleep: async (ms: number) => void slept.push(ms) } };
}

async function clientForFake(
  overrides: Partial<TmdbClientOptions> = {},
  apiKey = 'TESTKEY',
): Promise<{ client: TmdbClient; fake: FakeTmdb }> {
  fake = await startFakeTmdb({ apiKey, shows: sampleShows, movies: sampleMovies });
  const client = new TmdbClient({ apiKey, baseUrl: fake.url, imageBaseUrl: fake.imageUrl, logger, timeoutMs: 2_000, ...overrides });
  return { client, fake };
}

describe('TMDB client: search', () => {
  it('searches shows with year and adult flags and reads the paging container', async () => {
    const { client, fake } = await clientForFake();
    const page = await client.searchShows('tidewater', { year: 2022 });
    expect(page).toMatchObject({ page: 1, total_pages: 1, total_results: 1 });
    expect(page.results[0]).toMatchObject({
      id: TIDEWATER_SHOW_ID,
      original_name: '潮線のランタン',
      first_air_date: '2022-04-05',
      genre_ids: [16, 18, 10765],
    });
    expect(fake.requests.at(-1)).toBe(
      'GET /3/search/tv?query=tidewater&page=1&include_adult=false&first_air_date_year=2022&api_key=TESTKEY',
    );

    const unfiltered = await client.searchShows('Tidewater');
    expect(unfiltered.results.map((show) => show.id)).toHaveLength(2);
  });

  it('searches movies, hiding adult titles unless asked', async () => {
    const { client } = await clientForFake();
    const safe = await client.searchMovies('paper comet');
    expect(safe.results.map((movie) => movie.id)).not.toContain(PAPER_COMET_ADULT_ID);
    const all = await client.searchMovies('paper comet', { includeAdult: true });
    expect(all.results.map((movie) => movie.id)).toContain(PAPER_COMET_ADULT_ID);
    const byYear = await client.searchMovies('paper comet', { year: 2020 });
    expect(byYear.results).toEqual([
      expect.objectContaining({ id: PAPER_COMET_MOVIE_ID, title: 'Paper Comet', release_date: '2020-08-14', video: false }),
    ]);
  });

  it('pages through results 20 at a time', async () => {
    const many = Array.from({ length: 25 }, (_, i) => ({ id: 990000 + i, name: `Echo Relay ${i}`, seasons: [] }));
    fake = await startFakeTmdb({ shows: many });
    const client = new TmdbClient({ apiKey: 'TESTKEY', baseUrl: fake.url, logger });
    const second = await client.searchShows('echo relay', { page: 2 });
    expect(second).toMatchObject({ page: 2, total_pages: 2, total_results: 25 });
    expect(second.results).toHaveLength(5);
  });

  it('reads and caches the genre lists', async () => {
    const { client, fake } = await clientForFake();
    expect(await client.getGenres('tv')).toContainEqual({ id: 16, name: 'Animation' });
    await client.getGenres('tv');
    expect(fake.requests.filter((line) => line.startsWith('GET /3/genre/tv/list'))).toHaveLength(1);
  });
});

describe('TMDB client: details', () => {
  it('gets a show with the requested sub-resources appended', async () => {
    const { client, fake } = await clientForFake();
    const show = await client.getShow(TIDEWATER_SHOW_ID, {
      appendToResponse: [
        'external_ids',
        'keywords',
        'episode_groups',
        'content_ratings',
        'translations',
        'alternative_titles',
        'images',
        'credits',
      ],
    });
    expect(fake.requests.at(-1)).toContain('language=en-US&append_to_response=external_ids%2Ckeywords%2Cepisode_groups');
    expect(show).toMatchObject({
      id: TIDEWATER_SHOW_ID,
      name: 'Lanterns of the Tidewater Line',
      status: 'Ended',
      number_of_seasons: 1,
      last_air_date: '2022-04-26',
    });
    expect(show.genres.map((genre) => genre.name)).toContain('Animation');
    expect(show.seasons.map((season) => season.season_number)).toEqual([0, 1]);
    // Typed as present because they were appended:
    expect(show.external_ids.tvdb_id).toBe(7700001);
    expect(show.keywords.results[0].name).toBe('anime');
    expect(show.episode_groups.results[0]).toMatchObject({ id: TIDEWATER_STORY_ARCS_GROUP_ID, type: 5, group_count: 2, episode_count: 5 });
    expect(show.content_ratings.results).toContainEqual({ iso_3166_1: 'US', rating: 'TV-PG' });
    expect(show.translations.translations.map((t) => t.iso_639_1)).toEqual(['en', 'ja']);
    expect(show.alternative_titles.results[0].title).toBe('Chousen no Lantern');
    expect(show.images.posters[0]).toMatchObject({ file_path: '/tidewaterPoster1.png', iso_639_1: 'en', width: 1000, height: 1500 });
    expect(show.credits.crew[0].job).toBe('Director');

    const bare = await client.getShow(TIDEWATER_SHOW_ID);
    expect(bare.external_ids).toBeUndefined();
  });

  it('gets a season with its episodes', async () => {
    const { client } = await clientForFake();
    const season = await client.getSeason(TIDEWATER_SHOW_ID, 1, { appendToResponse: ['translations', 'images'] });
    expect(season).toMatchObject({ id: 9110001, season_number: 1, poster_path: '/tidewaterSeason1.png' });
    expect(season.episodes.map((e) => [e.episode_number, e.air_date])).toEqual([
      [1, '2022-04-05'],
      [2, '2022-04-12'],
      [3, '2022-04-19'],
      [4, '2022-04-26'],
    ]);
    expect(season.episodes[0]).toMatchObject({ id: 9100101, season_number: 1, runtime: 24, still_path: '/tidewaterE1.png' });
    expect(season.images.posters).toHaveLength(1);
  });

  it('gets an alternate ordering with episodes in group order', async () => {
    const { client, fake } = await clientForFake();
    const group = await client.getEpisodeGroup(TIDEWATER_STORY_ARCS_GROUP_ID);
    expect(fake.requests.at(-1)).toMatch(`GET /3/tv/episode_group/${TIDEWATER_STORY_ARCS_GROUP_ID}?`);
    expect(group).toMatchObject({ name: 'Story Arcs', type: 5, group_count: 2 });
    expect(group.groups.map((g) => g.order)).toEqual([1, 2]);
    expect(group.groups[1].episodes.map((e) => [e.season_number, e.episode_number, e.order])).toEqual([
      [1, 3, 0],
      [1, 4, 1],
      [0, 1, 2],
    ]);
  });

  it('gets a movie with collection, release dates and keywords', async () => {
    const { client } = await clientForFake();
    const movie = await client.getMovie(CLOCKWORK_MOVIE_ID, {
      appendToResponse: ['release_dates', 'keywords', 'external_ids', 'translations'],
    });
    expect(movie).toMatchObject({ id: CLOCKWORK_MOVIE_ID, runtime: 104, belongs_to_collection: { id: 930001 } });
    expect(movie.release_dates.results[0].release_dates[0]).toMatchObject({ type: 3, certification: 'G' });
    expect(movie.keywords.keywords[0].name).toBe('anime');
    expect(movie.external_ids.imdb_id).toBe('tt9900002');
    expect(movie.translations.translations[0].data.title).toBe('Clockwork Orchard: The Last Harvest');
  });

  it('lists show and movie images', async () => {
    const { client } = await clientForFake();
    const showImages = await client.getShowImages(TIDEWATER_SHOW_ID);
    expect(showImages.posters.map((image) => image.iso_639_1)).toEqual(['en', 'ja']);
    expect(showImages.backdrops[0].iso_639_1).toBeNull();
    expect(showImages.logos).toHaveLength(1);
    const movieImages = await client.getMovieImages(CLOCKWORK_MOVIE_ID);
    expect(movieImages.backdrops[0]).toMatchObject({ file_path: '/clockworkMovieBackdrop.png', aspect_ratio: 1.778 });
  });
});

describe('TMDB client: errors and retries', () => {
  it('turns 401 into TmdbAuthError carrying TMDB status_message', async () => {
    fake = await startFakeTmdb({ apiKey: 'RIGHT', shows: sampleShows });
    const client = new TmdbClient({ apiKey: 'WRONG', baseUrl: fake.url, logger });
    const failure = await client.searchShows('tidewater').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TmdbAuthError);
    expect(failure).toMatchObject({ httpStatus: 401, tmdbStatusCode: 7, message: 'Invalid API key: You must be granted a valid key.' });
  });

  it('turns 404 into TmdbNotFoundError', async () => {
    const { client } = await clientForFake();
    await expect(client.getShow(123)).rejects.toMatchObject({ name: 'TmdbNotFoundError', httpStatus: 404, tmdbStatusCode: 34 });
    await expect(client.getSeason(TIDEWATER_SHOW_ID, 9)).rejects.toBeInstanceOf(TmdbNotFoundError);
  });

  it('sends a v4 read access token as a bearer header instead of api_key', async () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJhdWQiOiJmYWtlIn0.c2lnbmF0dXJl';
    const { client, fake } = await clientForFake({}, token);
    expect((await client.getShow(TIDEWATER_SHOW_ID)).id).toBe(TIDEWATER_SHOW_ID);
    expect(fake.requests.at(-1)).not.toContain('api_key');
  });

  it('waits out 429 for the Retry-After time, then succeeds', async () => {
    const { slept, clock } = recordingClock();
    const { client, fake } = await clientForFake({ clock });
    fake.rateLimitNext(2, 3);
    expect((await client.getShow(TIDEWATER_SHOW_ID)).id).toBe(TIDEWATER_SHOW_ID);
    expect(slept).toEqual([3_000, 3_000]);
    expect(fake.requests.filter((line) => line.startsWith('GET /3/tv/'))).toHaveLength(3);
  });

  it('assumes 1 s when Retry-After is missing, and gives up after the allowed retries', async () => {
    const { slept, clock } = recordingClock();
    const { client, fake } = await clientForFake({ clock, maxRateLimitRetries: 2 });
    fake.rateLimitNext(5, null);
    await expect(client.getMovie(CLOCKWORK_MOVIE_ID)).rejects.toMatchObject({
      name: 'TmdbRateLimitError',
      httpStatus: 429,
      tmdbStatusCode: 25,
    });
    expect(slept).toEqual([1_000, 1_000]);
    expect(TmdbRateLimitError.prototype).toBeInstanceOf(TmdbError);
  });

  it('retries once after a dropped connection, and reports a second failure', async () => {
    const { client, fake } = await clientForFake();
    fake.dropNext(1);
    expect((await client.getMovie(CLOCKWORK_MOVIE_ID)).id).toBe(CLOCKWORK_MOVIE_ID);
    fake.dropNext(2);
    await expect(client.getMovie(CLOCKWORK_MOVIE_ID)).rejects.toBeInstanceOf(TmdbNetworkError);
    expect(fake.requests.filter((line) => line.startsWith(`GET /3/movie/${CLOCKWORK_MOVIE_ID}?`))).toHaveLength(4);
  });

  it('times out a silent server, retries once, then reports a network error', async () => {
    const { client, fake } = await clientForFake({ timeoutMs: 150 });
    fake.stallNext(1);
    expect((await client.getShowImages(TIDEWATER_SHOW_ID)).posters).toHaveLength(2);
    fake.stallNext(2);
    await expect(client.getShowImages(TIDEWATER_SHOW_ID)).rejects.toBeInstanceOf(TmdbNetworkError);
  });

  it('rejects ids and paths that are not TMDB-shaped before sending anything', async () => {
    const { client, fake } = await clientForFake();
    await expect(client.getShow(0)).rejects.toBeInstanceOf(TmdbError);
    await expect(client.getEpisodeGroup('../tv/1')).rejects.toBeInstanceOf(TmdbError);
    expect(() => client.imageUrl('/../secret.png')).toThrow(TmdbError);
    expect(fake.requests).toEqual([]);
  });
});

describe('TMDB client: images and configuration', () => {
  it('downloads an image atomically into place', async () => {
    const { client } = await clientForFake();
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tmdb-images-'));
    temporaryDirs.push(dir);
    const destination = path.join(dir, 'shows', String(TIDEWATER_SHOW_ID), 'poster.png');
    const result = await client.downloadImage('/tidewaterPoster1.png', destination);
    const bytes = await fs.readFile(destination);
    expect(result).toEqual({ bytes: bytes.length, contentType: 'image/png' });
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(bytes.readUInt32BE(16)).toBe(8); // IHDR width
    expect(await fs.readdir(path.dirname(destination))).toEqual(['poster.png']);

    // A failed download leaves the previous file untouched and no temporary file behind.
    await expect(client.downloadImage('/missing.png', destination)).rejects.toBeInstanceOf(TmdbNotFoundError);
    expect(await fs.readFile(destination)).toEqual(bytes);
    expect(await fs.readdir(path.dirname(destination))).toEqual(['poster.png']);
  });

  it('builds absolute image URLs and picks its bases from options, then env, then TMDB', async () => {
    const { client, fake } = await clientForFake();
    expect(client.imageUrl('/tidewaterLogo.png')).toBe(`${fake.imageUrl}/tidewaterLogo.png`);
    const previous = { api: process.env.SHOKO_TMDB_URL, images: process.env.SHOKO_TMDB_IMAGE_URL };
    try {
      process.env.SHOKO_TMDB_URL = fake.url;
      process.env.SHOKO_TMDB_IMAGE_URL = `${fake.imageUrl}/`;
      const fromEnv = new TmdbClient({ apiKey: 'TESTKEY', logger });
      expect(fromEnv.baseUrl).toBe(fake.url);
      expect(fromEnv.imageUrl('/a.png')).toBe(`${fake.imageUrl}/a.png`);
      expect((await fromEnv.getShow(TIDEWATER_SHOW_ID)).id).toBe(TIDEWATER_SHOW_ID);
      delete process.env.SHOKO_TMDB_URL;
      delete process.env.SHOKO_TMDB_IMAGE_URL;
      const fallback = new TmdbClient({ apiKey: 'TESTKEY', logger });
      expect(fallback.baseUrl).toBe(DEFAULT_TMDB_BASE_URL);
      expect(fallback.imageUrl('/a.png')).toBe(`${DEFAULT_TMDB_IMAGE_BASE_URL}/a.png`);
    } finally {
      for (const [name, value] of [
        ['SHOKO_TMDB_URL', previous.api],
        ['SHOKO_TMDB_IMAGE_URL', previous.images],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('prefers the user key over the built-in one and detects the auth mode', () => {
    expect(pickTmdbApiKey('  user-key ', 'built-in')).toBe('user-key');
    expect(pickTmdbApiKey('', 'built-in')).toBe('built-in');
    expect(pickTmdbApiKey(null, null)).toBeNull();
    expect(detectAuthMode('0123456789abcdef0123456789abcdef')).toBe('api_key');
    expect(detectAuthMode('eyJh.eyJz.sig-_')).toBe('bearer');
  });
});
