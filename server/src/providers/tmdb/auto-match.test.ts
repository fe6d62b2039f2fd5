import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTmdb, type FakeTmdb } from '../../../../fakes/src/tmdb/index.js';
import {
  CLOCKWORK_MOVIE_ID,
  CLOCKWORK_SHOW_ID,
  PAPER_COMET_ADULT_ID,
  PAPER_COMET_MOVIE_ID,
  sampleMovies,
  sampleShows,
  TIDEWATER_SHOW_ID,
} from '../../../../fakes/src/tmdb/sample-data.js';
import {
  buildSearchQueries,
  findTmdbMatch,
  removeSubtitle,
  stripSequelSuffix,
  type AnidbAnimeForMatching,
  type TmdbSearchSource,
} from './auto-match.js';
import { TmdbClient } from './client.js';

const today = new Date('2024-06-01T12:00:00Z');

function anime(partial: Partial<AnidbAnimeForMatching> & Pick<AnidbAnimeForMatching, 'mainTitle'>): AnidbAnimeForMatching {
  return { titles: [], airDate: null, type: 'TV', ...partial };
}

const tidewater = anime({
  mainTitle: 'Chousen no Lantern',
  titles: [
    { title: 'Chousen no Lantern', language: 'x-jat', type: 'main' },
    { title: 'Lanterns of the Tidewater Line', language: 'en', type: 'official' },
    { title: '潮線のランタン', language: 'ja', type: 'official' },
    { title: 'Tidewater', language: 'en', type: 'synonym' },
  ],
  airDate: '2022-04-05',
});

describe('sequel suffixes and sub-titles', () => {
  it.each([
    ['Clockwork Orchard Season 2', 'Clockwork Orchard'],
    ['Clockwork Orchard 2nd Season', 'Clockwork Orchard'],
    ['Clockwork Orchard: Part 2', 'Clockwork Orchard'],
    ['Clockwork Orchard (2019)', 'Clockwork Orchard'],
    ['Clockwork Orchard II', 'Clockwork Orchard'],
    ['Clockwork Orchard 3', 'Clockwork Orchard'],
    ['Clockwork Orchard The Final Season', 'Clockwork Orchard'],
    ['ぜんまい果樹園 第2期', 'ぜんまい果樹園'],
    ['Clockwork Orchard Season 2 (2021)', 'Clockwork Orchard'],
  ])('strips %s → %s', (title, stripped) => {
    expect(stripSequelSuffix(title)).toBe(stripped);
  });

  it('leaves titles without a sequel marker alone', () => {
    expect(stripSequelSuffix('Clockwork Orchard')).toBeNull();
    expect(stripSequelSuffix('Route 66')).toBeNull();
    expect(stripSequelSuffix('Relay 0')).toBeNull();
  });

  it('cuts sub-titles at a colon, and Japanese titles at the first space', () => {
    expect(removeSubtitle('Clockwork Orchard: The Last Harvest', 'en')).toBe('Clockwork Orchard');
    expect(removeSubtitle('Clockwork Orchard The Last Harvest', 'en')).toBeNull();
    expect(removeSubtitle('ぜんまい果樹園 最後の収穫', 'ja')).toBe('ぜんまい果樹園');
    expect(removeSubtitle('ぜんまい果樹園：最後の収穫', 'ja')).toBe('ぜんまい果樹園');
  });
});

describe('search query cascade', () => {
  it('tries original-language, English and main titles, each with the year first', () => {
    expect(buildSearchQueries({ ...tidewater, type: 'Movie' })).toEqual([
      { query: '潮線のランタン', year: 2022 },
      { query: '潮線のランタン' },
      { query: 'Lanterns of the Tidewater Line', year: 2022 },
      { query: 'Lanterns of the Tidewater Line' },
      { query: 'Chousen no Lantern', year: 2022 },
      { query: 'Chousen no Lantern' },
    ]);
  });

  it('adds stripped and sub-title-less forms for series, and searches the first entry first', () => {
    const sequel = anime({
      mainTitle: 'Zenmai Kajuen 2nd Season: Rewound',
      titles: [{ title: 'Clockwork Orchard 2nd Season', language: 'en', type: 'official' }],
      airDate: '2021-07-08',
      firstEntry: {
        mainTitle: 'Zenmai Kajuen',
        titles: [{ title: 'Clockwork Orchard', language: 'en', type: 'official' }],
        airDate: '2019-10-03',
      },
    });
    expect(buildSearchQueries(sequel).map((q) => `${q.query}${q.year ? ` @${q.year}` : ''}`)).toEqual([
      'Clockwork Orchard @2019',
      'Clockwork Orchard',
      'Zenmai Kajuen @2019',
      'Zenmai Kajuen',
      'Clockwork Orchard 2nd Season @2021',
      'Clockwork Orchard 2nd Season',
      'Zenmai Kajuen 2nd Season: Rewound @2021',
      'Zenmai Kajuen 2nd Season: Rewound',
      'Zenmai Kajuen 2nd Season',
    ]);
  });
});

describe('findTmdbMatch against the fake', () => {
  let fake: FakeTmdb;
  let client: TmdbClient;
  beforeAll(async () => {
    fake = await startFakeTmdb({ shows: sampleShows, movies: sampleMovies });
    client = new TmdbClient({ apiKey: 'TESTKEY', baseUrl: fake.url, logger: pino({ level: 'silent' }) });
  });
  afterAll(() => fake.close());

  it('finds a show by its original-language title and air year', async () => {
    const outcome = await findTmdbMatch(tidewater, client, { today });
    expect(outcome).toMatchObject({
      status: 'matched',
      kind: 'show',
      show: { id: TIDEWATER_SHOW_ID },
      query: { query: '潮線のランタン', year: 2022 },
    });
  });

  it('skips results without the Animation genre (a live-action show with the same title comes first)', async () => {
    const englishOnly = anime({ mainTitle: 'Lanterns of the Tidewater Line' });
    const page = await client.searchShows('Lanterns of the Tidewater Line');
    expect(page.results[0].genre_ids).not.toContain(16);
    expect(await findTmdbMatch(englishOnly, client, { today })).toMatchObject({ status: 'matched', show: { id: TIDEWATER_SHOW_ID } });
  });

  it('finds a sequel season through the stripped title', async () => {
    const sequel = anime({ mainTitle: 'Clockwork Orchard 2nd Season', airDate: '2021-07-08', type: 'Web' });
    expect(await findTmdbMatch(sequel, client, { today })).toMatchObject({
      status: 'matched',
      show: { id: CLOCKWORK_SHOW_ID },
      query: { query: 'Clockwork Orchard' },
    });
  });

  it('finds movies, skipping the documentary and adult titles unless the anime is restricted', async () => {
    const paperComet = anime({ mainTitle: 'Paper Comet', type: 'Movie' });
    expect(await findTmdbMatch(paperComet, client, { today })).toMatchObject({
      status: 'matched',
      kind: 'movie',
      movie: { id: PAPER_COMET_MOVIE_ID },
    });
    const afterHours = anime({ mainTitle: 'Paper Comet: After Hours', type: 'Movie', airDate: '2021-02-01' });
    expect(await findTmdbMatch(afterHours, client, { today })).toMatchObject({ status: 'not-found' });
    expect(await findTmdbMatch({ ...afterHours, restricted: true }, client, { today })).toMatchObject({
      movie: { id: PAPER_COMET_ADULT_ID },
    });
    const harvest = anime({ mainTitle: 'Clockwork Orchard: The Last Harvest', type: 'Movie', airDate: '2023-03-10' });
    expect(await findTmdbMatch(harvest, client, { today })).toMatchObject({ movie: { id: CLOCKWORK_MOVIE_ID }, query: { year: 2023 } });
  });

  it('never searches for music videos, unknown types or anime airing more than 15 days ahead', async () => {
    const before = fake.requests.length;
    expect(await findTmdbMatch({ ...tidewater, type: 'MusicVideo' }, client, { today })).toEqual({
      status: 'skipped',
      reason: 'unsupported-type',
    });
    expect(await findTmdbMatch({ ...tidewater, type: 'Other' }, client, { today })).toEqual({
      status: 'skipped',
      reason: 'unsupported-type',
    });
    expect(await findTmdbMatch({ ...tidewater, airDate: '2024-06-17' }, client, { today })).toEqual({
      status: 'skipped',
      reason: 'not-yet-aired',
    });
    expect(await findTmdbMatch(anime({ mainTitle: '  ' }), client, { today })).toEqual({ status: 'skipped', reason: 'no-titles' });
    expect(fake.requests.length).toBe(before);
    // 15 days ahead is still searched (the year-less queries then find the show).
    expect(await findTmdbMatch({ ...tidewater, airDate: '2024-06-16' }, client, { today })).toMatchObject({
      status: 'matched',
      query: { query: '潮線のランタン' },
    });
  });

  it('reports every query it tried when nothing matches', async () => {
    const outcome = await findTmdbMatch(anime({ mainTitle: 'Nowhere Station', airDate: '2020-01-01' }), client, { today });
    expect(outcome).toEqual({ status: 'not-found', tried: [{ query: 'Nowhere Station', year: 2020 }, { query: 'Nowhere Station' }] });
  });
});

describe('findTmdbMatch result choice', () => {
  it('prefers an animated result whose title equals the query over TMDB relevance order', async () => {
    const result = (id: number, name: string, genre_ids: number[]) => ({
      id,
      name,
      original_name: name,
      genre_ids,
      original_language: 'ja',
      overview: '',
      poster_path: null,
      backdrop_path: null,
      vote_average: 0,
      vote_count: 0,
      popularity: 0,
      origin_country: ['JP'],
      first_air_date: null,
    });
    const source: TmdbSearchSource = {
      getGenres: async () => [{ id: 16, name: 'Animation' }],
      searchMovies: async () => ({ page: 1, total_pages: 0, total_results: 0, results: [] }),
      searchShows: async () => ({
        page: 1,
        total_pages: 1,
        total_results: 3,
        results: [result(1, 'Salt Map', [18]), result(2, 'Salt Map Stories', [16]), result(3, 'Salt Map!', [16])],
      }),
    };
    expect(await findTmdbMatch(anime({ mainTitle: 'Salt Map' }), source, { today })).toMatchObject({ show: { id: 3 } });
  });
});
