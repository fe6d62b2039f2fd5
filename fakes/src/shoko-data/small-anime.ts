import { addDays, episodeOf, weeklyEpisodes } from './anidb-catalog.js';
import type { AnimeSpec, CharacterSpec, CreatorSpec, ReleaseGroupSpec, TagSpec } from './collection.js';

/**
 * AniDB's side of the small data folder: eight invented anime (TV series and their sequel, a movie, an OVA, a TV
 * special, a web series, one anime known only from the database), their tags, characters, creators and the release
 * groups of the files. Every name, id and date is made up.
 */

export const SMALL_ANIME_IDS = {
  letterShop: 17001,
  letterShopSequel: 17002,
  lunchboxMovie: 17003,
  ironGarden: 17004,
  radioClub: 17005,
  midnightLibrary: 17006,
  winterFestival: 17007,
  shadowMonk: 17008,
} as const;

const ids = SMALL_ANIME_IDS;

export const SMALL_TAGS: TagSpec[] = [
  { id: 39101, parentId: null, name: 'setting', description: 'Where the story takes place.', globalSpoiler: false, verified: true },
  {
    id: 39102,
    parentId: 39101,
    name: 'small town',
    description: 'A town where everybody knows the postman.',
    globalSpoiler: false,
    verified: true,
  },
  { id: 39103, parentId: null, name: 'themes', description: 'What the story is about.', globalSpoiler: false, verified: true },
  { id: 39104, parentId: 39103, name: 'comedy', description: 'Meant to be funny.', globalSpoiler: false, verified: true },
  { id: 39105, parentId: 39103, name: 'slice of life', description: 'Everyday life, told slowly.', globalSpoiler: false, verified: true },
  { id: 39106, parentId: 39103, name: 'horror', description: 'Meant to be frightening.', globalSpoiler: false, verified: true },
  { id: 39107, parentId: 39106, name: 'gore', description: 'Graphic injuries on screen.', globalSpoiler: false, verified: true },
  { id: 39108, parentId: 39103, name: 'coming of age', description: '', globalSpoiler: false, verified: false },
  { id: 39109, parentId: 39103, name: 'the mail carrier is a ghost', description: 'A late twist.', globalSpoiler: true, verified: true },
];

export const SMALL_CHARACTERS: CharacterSpec[] = [
  {
    id: 49101,
    name: 'Tsukishima Hana',
    originalName: '月島ハナ',
    gender: 'female',
    description: 'Runs the letter shop.',
    picture: '4910101.jpg',
    kind: 'Character',
  },
  {
    id: 49102,
    name: 'Postmaster Gorou',
    originalName: '郵便局長ゴロウ',
    gender: 'male',
    description: '',
    picture: '4910201.jpg',
    kind: 'Character',
  },
  {
    id: 49103,
    name: 'Iron Garden Society',
    originalName: '鉄の花園会',
    gender: 'male',
    description: 'Keepers of the garden.',
    picture: '4910301.jpg',
    kind: 'Organization',
  },
  {
    id: 49104,
    name: 'Nagisa Ren',
    originalName: '渚レン',
    gender: 'female',
    description: 'The radio club president.',
    picture: '4910401.jpg',
    kind: 'Character',
  },
];

export const SMALL_CREATORS: CreatorSpec[] = [
  { id: 59101, name: 'Minase Yuri', originalName: '水瀬ゆり', kind: 'Person', picture: '5910101.jpg' },
  { id: 59102, name: 'Tachibana Gen', originalName: '立花玄', kind: 'Person', picture: '5910201.jpg' },
  { id: 59103, name: 'Kisaragi Ren', originalName: null, kind: 'Person', picture: null },
  { id: 59104, name: 'Hoshino Aki', originalName: '星野あき', kind: 'Person', picture: '5910401.jpg' },
  { id: 59110, name: 'Aoyagi Shun', originalName: '青柳俊', kind: 'Person', picture: null },
  { id: 59111, name: 'Kuroda Mei', originalName: '黒田芽衣', kind: 'Person', picture: null },
  { id: 59112, name: 'Studio Kazemichi', originalName: 'スタジオ風道', kind: 'Company', picture: null },
  { id: 59113, name: 'Minamoto Ritsu', originalName: '源律', kind: 'Person', picture: null },
];

export const SMALL_RELEASE_GROUPS: ReleaseGroupSpec[] = [
  { id: 7101, name: 'Paper Lantern Subs', shortName: 'PLS' },
  { id: 7102, name: 'Tidepool Fansubs', shortName: 'Tidepool' },
  { id: 7103, name: 'Iron Works Raws', shortName: 'IWR' },
];

const LETTER_TITLES = [
  'A Letter Nobody Sent',
  'Stamps in the Rain',
  'The Letter That Wrote Back',
  'Return to Sender',
  'The Wind Delivers',
  'Postmarked Tomorrow',
];

const STAFF = [
  { creatorId: 59110, role: 'Direction' },
  { creatorId: 59111, role: 'Music' },
  { creatorId: 59112, role: 'Animation Work' },
  { creatorId: 59113, role: 'Original Work' },
];

type AnimeBase = Omit<AnimeSpec, 'updatedAt'>;

function anime(base: Pick<AnimeBase, 'id' | 'typeText' | 'titles' | 'startDate' | 'episodes'> & Partial<AnimeBase>): AnimeBase {
  const regular = base.episodes.filter((episode) => episode.type === 1);
  return {
    restricted: false,
    endDate: regular.at(-1)?.airDate ?? base.startDate,
    description: `${base.titles[0].value} is an invented anime for the Shoko data folder fake.`,
    picture: `${base.id}7.jpg`,
    url: `https://example.test/anime/${base.id}`,
    ratings: { permanent: [7.21, 140], temporary: [7.35, 150], review: null },
    resources: {},
    tags: [],
    relations: [],
    similar: [],
    characters: [],
    staff: [],
    animeDocXml: true,
    ...base,
  };
}

export const SMALL_ANIME: AnimeBase[] = [
  anime({
    id: ids.letterShop,
    typeText: 'TV Series',
    titles: [
      { type: 'main', language: 'x-jat', value: 'Kazamachi Tegami-ya' },
      { type: 'official', language: 'en', value: 'The Windy Town Letter Shop' },
      { type: 'official', language: 'ja', value: '風町手紙屋' },
      { type: 'official', language: 'de', value: 'Der Briefladen im Windviertel' },
      { type: 'synonym', language: 'en', value: 'Wind Letters' },
      { type: 'short', language: 'x-jat', value: 'KazaTe' },
    ],
    startDate: '2021-04-06',
    episodes: [
      ...weeklyEpisodes(ids.letterShop, '2021-04-06', 6, 24, (n) => ({
        english: LETTER_TITLES[n - 1],
        romaji: `Tegami ${n}-tsuume`,
        japanese: `手紙${n}通目`,
      })),
      episodeOf(ids.letterShop, { type: 3, number: 1, minutes: 6, airDate: '2021-06-01', english: 'Recap: The First Mailbag' }),
      episodeOf(ids.letterShop, {
        type: 3,
        number: 2,
        minutes: 12,
        airDate: null,
        english: 'Rainy Day Special',
        romaji: 'Ame no Hi Tokubetsu-hen',
      }),
      episodeOf(ids.letterShop, { type: 2, number: 1, minutes: 2, airDate: null, english: 'Opening: Paper Wind' }),
    ],
    ratings: { permanent: [7.38, 142], temporary: [7.52, 150], review: [8, 3] },
    resources: {
      annId: 99101,
      allCinemaId: 88101,
      syoboiId: 6101,
      siteJp: 'https://example.test/kazate/ja',
      wikipediaEn: 'The_Windy_Town_Letter_Shop',
    },
    tags: [
      { id: 39101, weight: 0, localSpoiler: false },
      { id: 39102, weight: 500, localSpoiler: false },
      { id: 39105, weight: 400, localSpoiler: false },
      { id: 39108, weight: 200, localSpoiler: false },
      { id: 39109, weight: 300, localSpoiler: true },
    ],
    relations: [{ id: ids.letterShopSequel, type: 'Sequel', title: 'Kazamachi Tegami-ya Ni' }],
    similar: [{ id: ids.radioClub, approval: 12, total: 20, title: 'Shiosai Koukou Radio-bu' }],
    characters: [
      { id: 49101, appearance: 'main character in', seiyuuIds: [59101] },
      { id: 49102, appearance: 'secondary cast in', seiyuuIds: [59102, 59103] },
    ],
    staff: STAFF,
  }),
  anime({
    id: ids.letterShopSequel,
    typeText: 'TV Series',
    titles: [
      { type: 'main', language: 'x-jat', value: 'Kazamachi Tegami-ya Ni' },
      { type: 'official', language: 'en', value: 'The Windy Town Letter Shop 2' },
      { type: 'official', language: 'ja', value: '風町手紙屋 弐' },
    ],
    startDate: '2022-10-04',
    episodes: [
      ...weeklyEpisodes(ids.letterShopSequel, '2022-10-04', 5, 24, (n) => ({
        english: `Second Post, Letter ${n}`,
        romaji: `Ni-tsuume ${n}`,
      })),
      episodeOf(ids.letterShopSequel, { type: 3, number: 1, minutes: 8, airDate: '2022-12-20', english: 'Year-End Delivery' }),
    ],
    tags: [
      { id: 39102, weight: 500, localSpoiler: false },
      { id: 39104, weight: 300, localSpoiler: false },
    ],
    relations: [{ id: ids.letterShop, type: 'Prequel', title: 'Kazamachi Tegami-ya' }],
    characters: [{ id: 49101, appearance: 'main character in', seiyuuIds: [59101] }],
    staff: STAFF.slice(0, 2),
  }),
  anime({
    id: ids.lunchboxMovie,
    typeText: 'Movie',
    titles: [
      { type: 'main', language: 'x-jat', value: 'Hoshizora Bentou Gekijouban' },
      { type: 'official', language: 'en', value: 'Starry Sky Lunchbox: The Movie' },
      { type: 'synonym', language: 'fr', value: 'Le Bentō des étoiles' },
    ],
    startDate: '2019-07-19',
    episodes: [episodeOf(ids.lunchboxMovie, { type: 1, number: 1, minutes: 104, airDate: '2019-07-19', english: 'Complete Movie' })],
    tags: [{ id: 39104, weight: 600, localSpoiler: false }],
    relations: [{ id: 17990, type: 'Side Story', title: 'Hoshizora Bentou (an anime not in the collection)' }],
  }),
  anime({
    id: ids.ironGarden,
    typeText: 'OVA',
    titles: [
      { type: 'main', language: 'x-jat', value: 'Tetsu no Hanazono' },
      { type: 'official', language: 'en', value: 'The Iron Flower Garden' },
    ],
    startDate: '2018-02-23',
    episodes: weeklyEpisodes(ids.ironGarden, '2018-02-23', 4, 30, (n) => ({ english: `Bloom ${n}` })),
    tags: [{ id: 39108, weight: 400, localSpoiler: false }],
    characters: [{ id: 49103, appearance: 'appears in', seiyuuIds: [] }],
  }),
  anime({
    id: ids.radioClub,
    typeText: 'TV Series',
    titles: [
      { type: 'main', language: 'x-jat', value: 'Shiosai Koukou Radio-bu' },
      { type: 'official', language: 'en', value: 'Seaside High Radio Club' },
      { type: 'official', language: 'ja', value: '潮騒高校ラジオ部' },
      { type: 'synonym', language: 'x-jat', value: 'Shiosai Radio' },
    ],
    startDate: '2023-01-08',
    episodes: [
      ...weeklyEpisodes(ids.radioClub, '2023-01-08', 8, 24, (n) => ({ english: `On Air ${n}`, romaji: `On Air ${n}` })),
      episodeOf(ids.radioClub, { type: 3, number: 1, minutes: 24, airDate: addDays('2023-01-08', 70), english: 'Club Trip Special' }),
    ],
    tags: [
      { id: 39104, weight: 300, localSpoiler: false },
      { id: 39105, weight: 500, localSpoiler: false },
    ],
    similar: [{ id: ids.letterShop, approval: 9, total: 15, title: 'Kazamachi Tegami-ya' }],
    characters: [{ id: 49104, appearance: 'main character in', seiyuuIds: [59104] }],
    staff: [STAFF[0], STAFF[2]],
  }),
  anime({
    id: ids.midnightLibrary,
    typeText: 'TV Series',
    titles: [
      { type: 'main', language: 'x-jat', value: 'Mayonaka no Toshokan' },
      { type: 'official', language: 'en', value: 'The Midnight Library Club' },
    ],
    startDate: '2020-10-02',
    episodes: weeklyEpisodes(ids.midnightLibrary, '2020-10-02', 4, 24, (n) => ({ english: `Overdue Book ${n}` })),
    tags: [{ id: 39105, weight: 300, localSpoiler: false }],
    // Shoko fetched it long ago and its AnimeDoc XML is gone: only the database tables describe it.
    animeDocXml: false,
  }),
  anime({
    id: ids.winterFestival,
    typeText: 'TV Special',
    titles: [
      { type: 'main', language: 'x-jat', value: 'Fuyu Matsuri Tokubetsu-hen' },
      { type: 'official', language: 'en', value: 'Winter Festival Special' },
    ],
    startDate: '2021-12-24',
    episodes: [
      episodeOf(ids.winterFestival, { type: 1, number: 1, minutes: 45, airDate: '2021-12-24', english: 'Lanterns' }),
      episodeOf(ids.winterFestival, { type: 1, number: 2, minutes: 45, airDate: '2021-12-25', english: 'Snowfall' }),
    ],
  }),
  anime({
    id: ids.shadowMonk,
    typeText: 'Web',
    restricted: true,
    titles: [
      { type: 'main', language: 'x-jat', value: 'Kagebouzu' },
      { type: 'official', language: 'en', value: 'The Shadow Monk' },
    ],
    startDate: '2024-08-01',
    episodes: [
      ...weeklyEpisodes(ids.shadowMonk, '2024-08-01', 4, 12, (n) => ({ english: `Night ${n}` })),
      episodeOf(ids.shadowMonk, { type: 4, number: 1, minutes: 1, airDate: '2024-07-01', english: 'Teaser' }),
    ],
    tags: [
      { id: 39106, weight: 600, localSpoiler: false },
      { id: 39107, weight: 200, localSpoiler: false },
    ],
  }),
];
