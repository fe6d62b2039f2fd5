import { anidbEpisodeId } from './anidb-catalog.js';
import type { AniDBEpisodeType, FileSpec, GroupSpec, SeriesSpec, ShokoCollection, UserSpec } from './collection.js';
import { hashesOf, videoBytes } from './media-files.js';
import type { ManifestEpisode } from './manifest.js';
import {
  episodesOfSeries,
  groupOf,
  importFolder,
  mediaSample,
  shokoRelativePath,
  STARTER_CUSTOM_TAGS,
  WatchRecorder,
  type MediaRoots,
} from './shoko-side.js';
import { SMALL_ANIME, SMALL_ANIME_IDS as A, SMALL_CHARACTERS, SMALL_CREATORS, SMALL_RELEASE_GROUPS, SMALL_TAGS } from './small-anime.js';
import { solidPng } from '../tmdb/png.js';
import { smallTmdb } from './small-tmdb.js';
import { guidOf, localMoment } from './values.js';

/**
 * Shoko's side of the small data folder: three users, two import folders, 25 real files with every edge case the
 * importer must handle, groups (custom-named, nested, with a default series, holding two series), watch states,
 * votes, custom tags, an ignored anime and TMDB links.
 */

const DROP_SOURCE = 1;
const LIBRARY = 2;

type Link = [animeId: number, type: AniDBEpisodeType, number: number];

interface FilePlan {
  folder: number;
  path: string;
  links: Link[];
  /** Linked by hand (CrossRefSource User): AniDB does not know the file. */
  manual?: boolean;
  group?: number;
  source?: string;
  ignored?: boolean;
  variation?: boolean;
  /** The location row stays, but nothing is written there. */
  missing?: boolean;
  secondLocation?: { folder: number; path: string };
  height?: 1080 | 720 | 480;
  minutes?: number;
  dualAudio?: boolean;
}

const letterShop = (n: number) => `Kazamachi Tegami-ya/[PLS] Kazamachi Tegami-ya - 0${n} [1080p].mkv`;

const FILES: FilePlan[] = [
  ...[1, 2, 3, 4, 5, 6].map((n): FilePlan => ({
    folder: LIBRARY,
    path: letterShop(n),
    links: [[A.letterShop, 1, n]],
    group: 7101,
    source: 'BluRay',
  })),
  {
    folder: LIBRARY,
    path: 'Kazamachi Tegami-ya/[PLS] Kazamachi Tegami-ya - S1.mkv',
    links: [[A.letterShop, 3, 1]],
    group: 7101,
    minutes: 6,
  },
  {
    folder: LIBRARY,
    path: 'Kazamachi Tegami-ya/[Tidepool] Kazamachi Tegami-ya - 01 [720p].mkv',
    links: [[A.letterShop, 1, 1]],
    group: 7102,
    source: 'TV',
    variation: true,
    height: 720,
  },
  {
    folder: LIBRARY,
    path: 'Kazamachi Tegami-ya Ni/[PLS] Kazamachi Tegami-ya Ni - 01.mkv',
    links: [[A.letterShopSequel, 1, 1]],
    group: 7101,
  },
  {
    folder: LIBRARY,
    path: 'Kazamachi Tegami-ya Ni/[PLS] Kazamachi Tegami-ya Ni - 02.mkv',
    links: [[A.letterShopSequel, 1, 2]],
    group: 7101,
  },
  {
    folder: LIBRARY,
    path: 'Kazamachi Tegami-ya Ni/[PLS] Kazamachi Tegami-ya Ni - 03-04.mkv',
    links: [
      [A.letterShopSequel, 1, 3],
      [A.letterShopSequel, 1, 4],
    ],
    group: 7101,
    minutes: 48,
  },
  {
    folder: LIBRARY,
    path: 'Movies/Hoshizora Bentou (2019) [BD 1080p].mkv',
    links: [[A.lunchboxMovie, 1, 1]],
    group: 7103,
    source: 'BluRay',
    minutes: 104,
    dualAudio: true,
    secondLocation: { folder: DROP_SOURCE, path: 'Hoshizora Bentou (2019) [BD 1080p].mkv' },
  },
  {
    folder: LIBRARY,
    path: 'Tetsu no Hanazono/Tetsu no Hanazono - OVA1.mkv',
    links: [[A.ironGarden, 1, 1]],
    group: 7103,
    source: 'DVD',
    height: 480,
  },
  {
    folder: LIBRARY,
    path: 'Tetsu no Hanazono/Tetsu no Hanazono - OVA2.mkv',
    links: [[A.ironGarden, 1, 2]],
    group: 7103,
    source: 'DVD',
    height: 480,
  },
  {
    folder: LIBRARY,
    path: 'Tetsu no Hanazono/Tetsu no Hanazono - OVA3 (fan edit).mkv',
    links: [[A.ironGarden, 1, 3]],
    manual: true,
    height: 480,
  },
  ...[1, 2, 3, 4].map((n): FilePlan => ({
    folder: LIBRARY,
    path: `Shiosai Koukou Radio-bu/[Tidepool] Shiosai Koukou Radio-bu - 0${n}.mkv`,
    links: [[A.radioClub, 1, n]],
    group: 7102,
    source: 'Web',
    missing: n === 4,
  })),
  {
    folder: LIBRARY,
    path: 'Mayonaka no Toshokan/Mayonaka no Toshokan - 01.mkv',
    links: [[A.midnightLibrary, 1, 1]],
    group: 7102,
    source: 'TV',
  },
  {
    folder: LIBRARY,
    path: 'Mayonaka no Toshokan/Mayonaka no Toshokan - 02.mkv',
    links: [[A.midnightLibrary, 1, 2]],
    group: 7102,
    source: 'TV',
  },
  {
    folder: LIBRARY,
    path: 'Fuyu Matsuri/Fuyu Matsuri Tokubetsu-hen - 01.mkv',
    links: [[A.winterFestival, 1, 1]],
    group: 7101,
    minutes: 45,
  },
  {
    folder: LIBRARY,
    path: 'Kagebouzu/Kagebouzu - 01 [WEB 720p].mkv',
    links: [[A.shadowMonk, 1, 1]],
    group: 7102,
    source: 'Web',
    height: 720,
  },
  { folder: DROP_SOURCE, path: 'sample-clip.mkv', links: [], ignored: true, height: 480, minutes: 1 },
  { folder: DROP_SOURCE, path: '[Unknown] Mystery Broadcast - 07.mkv', links: [] },
];

const USERS: Array<Omit<UserSpec, 'apiKeys'> & { devices: string[] }> = [
  {
    id: 1,
    name: 'admin',
    password: 'lighthouse-keeper',
    isAdmin: true,
    hiddenTags: [],
    plexUsers: [],
    plexToken: null,
    hasAvatar: false,
    avatar: null,
    devices: ['Shokofin', 'Shoko Relay', 'Kodi (Nakamori)', 'web-ui'],
  },
  {
    id: 2,
    name: 'kid',
    password: 'paper-boat',
    isAdmin: false,
    hiddenTags: ['horror', 'gore'],
    plexUsers: ['KidsRoom', 'Living Room TV'],
    plexToken: 'fake-plex-token-for-kid',
    hasAvatar: false,
    avatar: null,
    devices: ['Shokofin', 'Kodi (Nakamori)'],
  },
  {
    id: 3,
    name: 'guest',
    password: '',
    isAdmin: false,
    hiddenTags: [],
    plexUsers: [],
    plexToken: null,
    hasAvatar: true,
    avatar: { bytes: solidPng('guest-avatar', 16, 16), contentType: 'image/png', width: 16, height: 16 },
    devices: ['Shoko Relay', 'web-ui'],
  },
];

export async function smallCollection(roots: MediaRoots, now: Date): Promise<ShokoCollection> {
  const day = 86_400_000;
  const anime = SMALL_ANIME.map((one, index) => ({ ...one, updatedAt: new Date(now.getTime() - (index + 1) * 3 * 3_600_000) }));
  const animeById = new Map(anime.map((one) => [one.id, one]));

  const users: UserSpec[] = USERS.map(({ devices, ...user }) => ({
    ...user,
    apiKeys: devices.map((deviceName) => ({ deviceName, token: guidOf(`${user.name}/${deviceName}`) })),
  }));

  const importFolders = [
    importFolder(roots, {
      id: DROP_SOURCE,
      name: 'Downloads',
      directory: 'Downloads',
      dropSource: true,
      dropDestination: false,
      watched: false,
    }),
    importFolder(roots, { id: LIBRARY, name: 'Anime', directory: 'Anime', dropSource: false, dropDestination: true, watched: true }),
  ];

  const files: FileSpec[] = [];
  for (const [index, plan] of FILES.entries()) {
    const id = index + 1;
    const fileName = plan.path.split('/').at(-1)!;
    const content = videoBytes(plan.path, 2048 + ((index * 977) % 4096));
    const hashes = await hashesOf(content);
    const knownToAniDB = plan.links.length > 0 && !plan.manual;
    const locations = [{ id: 0, importFolderId: plan.folder, relativePath: shokoRelativePath(roots, plan.path), exists: !plan.missing }];
    if (plan.secondLocation) {
      locations.push({
        id: 0,
        importFolderId: plan.secondLocation.folder,
        relativePath: shokoRelativePath(roots, plan.secondLocation.path),
        exists: true,
      });
    }
    const file: FileSpec = {
      id,
      fileName,
      ...hashes,
      size: content.length,
      ignored: plan.ignored ?? false,
      variation: plan.variation ?? false,
      media: mediaSample(
        { fileName, size: content.length },
        {
          minutes: plan.minutes ?? 24,
          height: plan.height ?? 1080,
          dualAudio: plan.dualAudio,
          hevc: plan.source === 'BluRay',
          chapters: plan.source === 'BluRay',
        },
      ),
      locations,
      episodeLinks: plan.links.map(([animeId, type, number], order) => ({
        animeId,
        episodeId: anidbEpisodeId(animeId, type, number),
        source: plan.manual ? 'User' : 'AniDB',
        percentage: 100,
        order: order + 1,
      })),
      anidbFileId: knownToAniDB ? 800_100 + id : null,
      releaseGroupId: knownToAniDB ? (plan.group ?? null) : null,
      audioLanguages: knownToAniDB ? (plan.dualAudio ? ['japanese', 'english'] : ['japanese']) : [],
      subtitleLanguages: knownToAniDB ? ['english'] : [],
      content,
      createdAt: new Date(now.getTime() - (40 - index) * day),
      importedAt: plan.links.length > 0 ? new Date(now.getTime() - (40 - index) * day + 600_000) : null,
      anidbSource: plan.source ?? 'Web',
      anidbCheckedAt: plan.ignored ? null : new Date(now.getTime() - (index % 5) * day - 3_600_000),
    };
    files.push(file);
  }
  let locationId = 1;
  for (const file of files) for (const location of file.locations) location.id = locationId++;

  const seriesOrder = [
    A.letterShop,
    A.letterShopSequel,
    A.lunchboxMovie,
    A.ironGarden,
    A.radioClub,
    A.midnightLibrary,
    A.winterFestival,
    A.shadowMonk,
  ];
  const groupOfAnime: Record<number, number> = {
    [A.letterShop]: 1,
    [A.letterShopSequel]: 1,
    [A.lunchboxMovie]: 2,
    [A.ironGarden]: 3,
    [A.radioClub]: 4,
    [A.midnightLibrary]: 5,
    [A.winterFestival]: 6,
    [A.shadowMonk]: 7,
  };
  const series: SeriesSpec[] = seriesOrder.map((animeId, index) => ({
    id: index + 1,
    animeId,
    groupId: groupOfAnime[animeId],
    titleOverride: animeId === A.radioClub ? 'Seaside Radio Club' : null,
  }));
  const episodes: ManifestEpisode[] = [];
  for (const one of series) episodes.push(...episodesOfSeries(one, animeById.get(one.animeId)!, episodes.length + 1));
  const episodeIdByAnidbId = new Map(episodes.map((episode) => [episode.anidbEpisodeId, episode.id]));
  const shokoEpisode = (animeId: number, type: AniDBEpisodeType, number: number) =>
    episodes.find((episode) => episode.anidbEpisodeId === anidbEpisodeId(animeId, type, number))!;
  shokoEpisode(A.letterShop, 1, 3).titleOverride = 'The Letter That Answered';
  shokoEpisode(A.letterShopSequel, 1, 2).hidden = true;

  const groups: GroupSpec[] = [
    groupOf({ id: 1, name: 'Kazamachi Tegami-ya', mainAnimeId: A.letterShop, defaultSeriesId: 2, favouriteOf: [1] }),
    groupOf({
      id: 2,
      name: 'Movie Night Picks',
      mainAnimeId: A.lunchboxMovie,
      customName: true,
      description: 'Films and OVAs for the weekend.',
    }),
    groupOf({ id: 3, name: 'Tetsu no Hanazono', mainAnimeId: A.ironGarden, parentId: 2 }),
    groupOf({ id: 4, name: 'Shiosai Koukou Radio-bu', mainAnimeId: A.radioClub }),
    groupOf({ id: 5, name: 'Mayonaka no Toshokan', mainAnimeId: A.midnightLibrary }),
    groupOf({ id: 6, name: 'Fuyu Matsuri Tokubetsu-hen', mainAnimeId: A.winterFestival }),
    groupOf({ id: 7, name: 'Kagebouzu', mainAnimeId: A.shadowMonk }),
  ];
  for (const group of groups) group.animeIds = series.filter((one) => one.groupId === group.id).map((one) => one.animeId);

  const watches = new WatchRecorder(episodeIdByAnidbId);
  const file = (path: string) => files.find((one) => FILES[one.id - 1].path === path)!;
  watches.record(file(letterShop(1)), 1, { watchedAt: localMoment(2024, 3, 2, 21, 10), watchedCount: 2 });
  watches.record(file(letterShop(2)), 1, { watchedAt: localMoment(2024, 3, 3, 21, 40) });
  watches.record(file(letterShop(3)), 1, { watchedAt: localMoment(2024, 3, 9, 22, 5) });
  watches.record(file(letterShop(4)), 1, { watchedAt: null, stoppedAt: localMoment(2024, 3, 10, 20, 0), resumePositionMs: 612_000 });
  watches.record(file('Movies/Hoshizora Bentou (2019) [BD 1080p].mkv'), 1, { watchedAt: localMoment(2024, 4, 20, 19, 30) });
  watches.record(file('Kazamachi Tegami-ya/[Tidepool] Kazamachi Tegami-ya - 01 [720p].mkv'), 2, {
    watchedAt: localMoment(2024, 5, 11, 10, 0),
  });
  watches.record(file(letterShop(2)), 2, { watchedAt: localMoment(2024, 5, 12, 10, 30) });
  watches.record(file('Shiosai Koukou Radio-bu/[Tidepool] Shiosai Koukou Radio-bu - 01.mkv'), 2, {
    watchedAt: localMoment(2024, 6, 1, 16, 0),
  });
  watches.record(file('Mayonaka no Toshokan/Mayonaka no Toshokan - 01.mkv'), 3, {
    watchedAt: null,
    stoppedAt: localMoment(2024, 7, 7, 23, 15),
    resumePositionMs: 95_000,
  });

  return {
    anime,
    tags: SMALL_TAGS,
    characters: SMALL_CHARACTERS,
    creators: SMALL_CREATORS,
    releaseGroups: SMALL_RELEASE_GROUPS,
    users,
    importFolders,
    files,
    groups,
    series,
    episodes,
    episodeStates: watches.episodeStates,
    fileStates: watches.fileStates,
    votes: [
      { entityId: A.letterShop, type: 1, value: 850 },
      { entityId: A.radioClub, type: 2, value: 700 },
      { entityId: anidbEpisodeId(A.letterShop, 1, 1), type: 4, value: 900 },
    ],
    customTags: [
      ...STARTER_CUSTOM_TAGS.map((tag, index) => ({
        id: index + 1,
        ...tag,
        animeIds: tag.name === 'Pinned' ? [A.lunchboxMovie] : [],
        starter: true,
      })),
      { id: 6, name: 'Comfort Watch', description: 'Good for a quiet evening.', animeIds: [A.letterShop, A.radioClub], starter: false },
      { id: 7, name: 'Rewatch with Friends', description: '', animeIds: [A.lunchboxMovie], starter: false },
    ],
    ignoredAnime: [
      { userId: 1, animeId: 17990, ignoreType: 1 },
      { userId: 2, animeId: A.shadowMonk, ignoreType: 2 },
    ],
    tmdb: smallTmdb(animeById.get(A.radioClub)!),
    sampleFilterPresets: true,
    unsupportedRenamer: true,
    images: true,
  };
}
