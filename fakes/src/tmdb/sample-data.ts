/**
 * An invented TMDB universe for tests and the offline demo. Every name, id, date and path is made up.
 *
 * - 910002 is a live-action drama that shares its title with the anime 910001 and is listed first, so a search
 *   must skip it by genre.
 * - 910003 has two seasons, so a sequel title ("... 2nd Season") must be found by stripping its suffix.
 * - The movies include a documentary and an adult title with the same name as an animated one.
 */
import type { FakeMovie, FakeShow } from './fixtures.js';

export const TIDEWATER_SHOW_ID = 910001;
export const TIDEWATER_DRAMA_ID = 910002;
export const CLOCKWORK_SHOW_ID = 910003;
export const TIDEWATER_STORY_ARCS_GROUP_ID = '5a1b2c3d4e5f60718293a4b5';
export const CLOCKWORK_MOVIE_ID = 920001;
export const PAPER_COMET_DOCUMENTARY_ID = 920002;
export const PAPER_COMET_MOVIE_ID = 920003;
export const PAPER_COMET_ADULT_ID = 920004;

const tidewaterDrama: FakeShow = {
  id: TIDEWATER_DRAMA_ID,
  name: 'Lanterns of the Tidewater Line',
  original_language: 'en',
  origin_country: ['GB'],
  overview: 'A coastal town drama about a lighthouse family.',
  first_air_date: '2023-09-01',
  genre_ids: [18],
  seasons: [
    {
      id: 9120001,
      season_number: 1,
      name: 'Series 1',
      episodes: [{ id: 9120101, episode_number: 1, name: 'Pilot', air_date: '2023-09-01' }],
    },
  ],
};

const tidewater: FakeShow = {
  id: TIDEWATER_SHOW_ID,
  name: 'Lanterns of the Tidewater Line',
  original_name: '潮線のランタン',
  original_language: 'ja',
  origin_country: ['JP'],
  overview: 'An apprentice lamp-keeper sails a flooded railway, relighting the lanterns of forgotten stations.',
  first_air_date: '2022-04-05',
  last_air_date: '2022-04-26',
  status: 'Ended',
  genre_ids: [16, 18, 10765],
  poster_path: '/tidewaterPoster1.png',
  backdrop_path: '/tidewaterBackdrop1.png',
  vote_average: 7.8,
  vote_count: 64,
  popularity: 21.5,
  production_companies: [{ id: 77001, name: 'Brinewind Animation', logo_path: '/brinewindLogo.png', origin_country: 'JP' }],
  production_countries: [{ iso_3166_1: 'JP', name: 'Japan' }],
  alternative_titles: [{ iso_3166_1: 'JP', title: 'Chousen no Lantern', type: 'romaji' }],
  content_ratings: [
    { iso_3166_1: 'US', rating: 'TV-PG' },
    { iso_3166_1: 'JP', rating: 'G' },
  ],
  external_ids: { imdb_id: 'tt9900001', tvdb_id: 7700001 },
  keywords: [
    { id: 880001, name: 'anime' },
    { id: 880002, name: 'lighthouse' },
  ],
  translations: [
    {
      iso_3166_1: 'US',
      iso_639_1: 'en',
      name: 'English',
      english_name: 'English',
      data: { name: 'Lanterns of the Tidewater Line', overview: 'An apprentice lamp-keeper sails a flooded railway.' },
    },
    {
      iso_3166_1: 'JP',
      iso_639_1: 'ja',
      name: '日本語',
      english_name: 'Japanese',
      data: { name: '潮線のランタン', overview: '水没した鉄道を巡る見習い灯台守の物語。' },
    },
  ],
  credits: {
    cast: [
      {
        id: 660001,
        credit_id: 'c0ffee000000000000000001',
        name: 'Mirei Hanazono',
        character: 'Suzu',
        order: 0,
        profile_path: '/mireiProfile.png',
      },
    ],
    crew: [{ id: 660002, credit_id: 'c0ffee000000000000000002', name: 'Tadashi Kurokawa', department: 'Directing', job: 'Director' }],
  },
  images: {
    posters: [
      { file_path: '/tidewaterPoster1.png', iso_639_1: 'en', vote_average: 5.4, vote_count: 3 },
      { file_path: '/tidewaterPosterJa.png', iso_639_1: 'ja' },
    ],
    backdrops: [{ file_path: '/tidewaterBackdrop1.png' }],
    logos: [{ file_path: '/tidewaterLogo.png', iso_639_1: 'en' }],
  },
  seasons: [
    {
      id: 9110000,
      season_number: 0,
      name: 'Specials',
      episodes: [
        {
          id: 9100100,
          episode_number: 1,
          name: 'Harbour Lights: A Look Back',
          air_date: '2022-05-03',
          runtime: 24,
          still_path: '/tidewaterS1.png',
        },
      ],
    },
    {
      id: 9110001,
      season_number: 1,
      name: 'Season 1',
      poster_path: '/tidewaterSeason1.png',
      images: { posters: [{ file_path: '/tidewaterSeason1.png' }] },
      episodes: [
        {
          id: 9100101,
          episode_number: 1,
          name: "The Lamp-Keeper's Apprentice",
          air_date: '2022-04-05',
          runtime: 24,
          still_path: '/tidewaterE1.png',
        },
        {
          id: 9100102,
          episode_number: 2,
          name: 'Low Tide at Nine Bells',
          air_date: '2022-04-12',
          runtime: 24,
          still_path: '/tidewaterE2.png',
        },
        {
          id: 9100103,
          episode_number: 3,
          name: 'A Map Drawn in Salt',
          air_date: '2022-04-19',
          runtime: 24,
          still_path: '/tidewaterE3.png',
        },
        {
          id: 9100104,
          episode_number: 4,
          name: 'Where the Last Lantern Sails',
          air_date: '2022-04-26',
          runtime: 24,
          still_path: '/tidewaterE4.png',
        },
      ],
    },
  ],
  episode_groups: [
    {
      id: TIDEWATER_STORY_ARCS_GROUP_ID,
      name: 'Story Arcs',
      description: 'The series split by voyage.',
      type: 5,
      groups: [
        {
          id: '5a1b2c3d4e5f60718293a4c0',
          name: 'Voyage 1: The Flooded Line',
          order: 1,
          episodes: [
            { season_number: 1, episode_number: 1 },
            { season_number: 1, episode_number: 2 },
          ],
        },
        {
          id: '5a1b2c3d4e5f60718293a4c1',
          name: 'Voyage 2: The Salt Map',
          order: 2,
          episodes: [
            { season_number: 1, episode_number: 3 },
            { season_number: 1, episode_number: 4 },
            { season_number: 0, episode_number: 1 },
          ],
        },
      ],
    },
  ],
};

const clockwork: FakeShow = {
  id: CLOCKWORK_SHOW_ID,
  name: 'Clockwork Orchard',
  original_name: 'ぜんまい果樹園',
  original_language: 'ja',
  overview: 'Wind-up trees bear fruit only when someone remembers to turn their keys.',
  first_air_date: '2019-10-03',
  last_air_date: '2021-07-22',
  status: 'Ended',
  genre_ids: [16, 35],
  poster_path: '/clockworkPoster.png',
  seasons: [
    {
      id: 9130001,
      season_number: 1,
      name: 'Season 1',
      episodes: [
        { id: 9130101, episode_number: 1, name: 'Key Number One', air_date: '2019-10-03' },
        { id: 9130102, episode_number: 2, name: 'The Pear That Ticked', air_date: '2019-10-10' },
        { id: 9130103, episode_number: 3, name: 'Harvest of Springs', air_date: '2019-10-17' },
      ],
    },
    {
      id: 9130002,
      season_number: 2,
      name: 'Season 2',
      episodes: [
        { id: 9130201, episode_number: 1, name: 'Rewound', air_date: '2021-07-08' },
        { id: 9130202, episode_number: 2, name: 'A Grafted Gear', air_date: '2021-07-15' },
        { id: 9130203, episode_number: 3, name: 'Overwound', air_date: '2021-07-22' },
      ],
    },
  ],
};

export const sampleShows: FakeShow[] = [tidewaterDrama, tidewater, clockwork];

export const sampleMovies: FakeMovie[] = [
  {
    id: CLOCKWORK_MOVIE_ID,
    title: 'Clockwork Orchard: The Last Harvest',
    original_title: 'ぜんまい果樹園 最後の収穫',
    overview: 'The orchard keepers race a winter that stops every spring.',
    release_date: '2023-03-10',
    runtime: 104,
    genre_ids: [16, 14],
    poster_path: '/clockworkMoviePoster.png',
    belongs_to_collection: { id: 930001, name: 'Clockwork Orchard Collection' },
    release_dates: [{ iso_3166_1: 'JP', release_dates: [{ certification: 'G', release_date: '2023-03-10T00:00:00.000Z', type: 3 }] }],
    external_ids: { imdb_id: 'tt9900002' },
    keywords: [{ id: 880001, name: 'anime' }],
    images: { posters: [{ file_path: '/clockworkMoviePoster.png' }], backdrops: [{ file_path: '/clockworkMovieBackdrop.png' }] },
  },
  {
    id: PAPER_COMET_DOCUMENTARY_ID,
    title: 'Paper Comet',
    original_language: 'en',
    overview: 'A documentary about kite makers.',
    release_date: '1987-05-02',
    genre_ids: [99],
  },
  {
    id: PAPER_COMET_MOVIE_ID,
    title: 'Paper Comet',
    original_title: '紙の彗星',
    overview: 'Two pen pals fold a comet that actually flies.',
    release_date: '2020-08-14',
    runtime: 97,
    genre_ids: [16, 10749],
    poster_path: '/paperCometPoster.png',
  },
  {
    id: PAPER_COMET_ADULT_ID,
    title: 'Paper Comet: After Hours',
    original_title: '紙の彗星 アフターアワーズ',
    adult: true,
    release_date: '2021-02-01',
    genre_ids: [16],
  },
];
