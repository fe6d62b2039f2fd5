import { addDays, anidbEpisodeId, episodeOf } from './anidb-catalog.js';
import type {
  AnimeSpec,
  AnimeTypeText,
  CharacterSpec,
  CreatorSpec,
  FileSpec,
  GroupSpec,
  ShokoCollection,
  TagSpec,
  UserSpec,
} from './collection.js';
import type { ManifestEpisode, ManifestVote } from './manifest.js';
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
import { guidOf, inventedHashes, localMoment, seededRandom } from './values.js';

/**
 * A collection at bench scale: `series` anime with about twenty episodes each, `files` files over them (most linked,
 * about 2% unrecognised, some ignored, variations and two-episode files), watch states for a realistic share per
 * user. Nothing is written to the media root. Deterministic: the same counts give the same folder.
 */

export interface LargeCounts {
  series: number;
  files: number;
  users: number;
}

const FIRST_ANIME_ID = 20_001;
const WORDS_A = ['Hoshi', 'Kaze', 'Umi', 'Sora', 'Yoru', 'Hana', 'Tsuki', 'Yuki', 'Mori', 'Kawa', 'Ame', 'Hi', 'Kumo', 'Nami', 'Tori'];
const WORDS_B = ['Tegami', 'Densha', 'Toshokan', 'Kissaten', 'Matsuri', 'Gakkou', 'Shiro', 'Michi', 'Uta', 'Yume', 'Kagi', 'Mado'];
const TYPES: AnimeTypeText[] = [
  'TV Series',
  'TV Series',
  'TV Series',
  'TV Series',
  'OVA',
  'Web',
  'TV Series',
  'TV Special',
  'TV Series',
  'Movie',
];

function largeTags(): TagSpec[] {
  const tags: TagSpec[] = [];
  for (let parent = 0; parent < 10; parent++) {
    const parentId = 41_000 + parent * 10;
    tags.push({
      id: parentId,
      parentId: null,
      name: `theme ${parent + 1}`,
      description: `Tag family ${parent + 1}.`,
      globalSpoiler: false,
      verified: true,
    });
    for (let child = 1; child <= 5; child++) {
      tags.push({
        id: parentId + child,
        parentId,
        name: `theme ${parent + 1}.${child}`,
        description: '',
        globalSpoiler: child === 5,
        verified: child !== 4,
      });
    }
  }
  return tags;
}

function largeTitle(index: number): string {
  const combos = WORDS_A.length * WORDS_B.length;
  const name = `${WORDS_A[index % WORDS_A.length]} no ${WORDS_B[Math.floor(index / WORDS_A.length) % WORDS_B.length]}`;
  return index >= combos ? `${name} ${Math.floor(index / combos) + 1}` : name;
}

function largeAnime(index: number, total: number, tags: TagSpec[]): AnimeSpec {
  const id = FIRST_ANIME_ID + index;
  const title = largeTitle(index);
  const typeText = TYPES[index % TYPES.length];
  const start = addDays('2000-01-07', (index * 11) % 9000);
  const regularCount = typeText === 'Movie' ? 1 : 14 + ((index * 7) % 13);
  const specials = typeText === 'Movie' ? 1 : 2;
  const episodes = [
    ...Array.from({ length: regularCount }, (_, n) =>
      episodeOf(id, {
        type: 1,
        number: n + 1,
        minutes: typeText === 'Movie' ? 95 : 24,
        airDate: addDays(start, n * 7),
        english: `Episode ${n + 1}`,
        romaji: `Dai ${n + 1} wa`,
      }),
    ),
    ...Array.from({ length: specials }, (_, n) =>
      episodeOf(id, {
        type: 3,
        number: n + 1,
        minutes: 10,
        airDate: n === 0 ? addDays(start, regularCount * 7) : null,
        english: `Special ${n + 1}`,
      }),
    ),
  ];
  const sequelPair = index % 10 === 0 && index + 1 < total;
  const prequelPair = index % 10 === 1;
  return {
    id,
    typeText,
    restricted: index % 97 === 0,
    titles: [
      { type: 'main', language: 'x-jat', value: title },
      { type: 'official', language: 'en', value: `The ${title}` },
      { type: 'official', language: 'ja', value: `${title}（日本語）` },
      ...(index % 3 === 0 ? [{ type: 'synonym' as const, language: 'en', value: `${title} Alt` }] : []),
    ],
    startDate: start,
    endDate: episodes[regularCount - 1].airDate,
    description: `${title} is one of the invented anime of the large Shoko data folder.`,
    picture: `${id}1.jpg`,
    url: null,
    ratings: {
      permanent: [6 + (index % 35) / 10, 50 + (index % 400)],
      temporary: [6.1 + (index % 33) / 10, 60 + (index % 300)],
      review: null,
    },
    resources: index % 4 === 0 ? { annId: 100_000 + index } : {},
    episodes,
    tags: [0, 1, 2, 3].map((k) => ({ id: tags[(index * 7 + k * 13) % tags.length].id, weight: 100 * (k + 1), localSpoiler: k === 3 })),
    relations: sequelPair
      ? [{ id: id + 1, type: 'Sequel', title: `${title} 2` }]
      : prequelPair
        ? [{ id: id - 1, type: 'Prequel', title }]
        : [],
    similar:
      total > 1
        ? [{ id: FIRST_ANIME_ID + ((index + 37) % total), approval: 5 + (index % 9), total: 20, title: largeTitle((index + 37) % total) }]
        : [],
    characters: [0, 1].map((k) => ({
      id: 500_000 + index * 2 + k,
      appearance: k === 0 ? 'main character in' : 'secondary cast in',
      seiyuuIds: [600_000 + ((index * 2 + k) % 800)],
    })),
    staff: [
      { creatorId: 610_000 + (index % 200), role: 'Direction' },
      { creatorId: 610_200 + (index % 200), role: 'Music' },
      { creatorId: 620_000 + (index % 50), role: 'Animation Work' },
    ],
    animeDocXml: true,
    updatedAt: new Date(0),
  };
}

export function largeCollection(roots: MediaRoots, counts: LargeCounts, now: Date): ShokoCollection {
  const random = seededRandom(counts.series * 31 + counts.files);
  const tags = largeTags();
  const anime = Array.from({ length: counts.series }, (_, index) => ({
    ...largeAnime(index, counts.series, tags),
    updatedAt: new Date(now.getTime() - (index % 72) * 3_600_000),
  }));
  const characters: CharacterSpec[] = anime.flatMap((one) =>
    one.characters.map((link, k) => ({
      id: link.id,
      name: `Character ${link.id}`,
      originalName: `キャラ${link.id}`,
      gender: k === 0 ? ('female' as const) : ('male' as const),
      description: '',
      picture: `${link.id}.jpg`,
      kind: 'Character' as const,
    })),
  );
  const creators: CreatorSpec[] = [
    ...Array.from({ length: 800 }, (_, k) => ({
      id: 600_000 + k,
      name: `Voice Actor ${k}`,
      originalName: null,
      kind: 'Person' as const,
      picture: `${600_000 + k}.jpg`,
    })),
    ...Array.from({ length: 400 }, (_, k) => ({
      id: 610_000 + k,
      name: `Staff Member ${k}`,
      originalName: null,
      kind: 'Person' as const,
      picture: null,
    })),
    ...Array.from({ length: 50 }, (_, k) => ({
      id: 620_000 + k,
      name: `Studio ${k}`,
      originalName: null,
      kind: 'Company' as const,
      picture: null,
    })),
  ];
  const releaseGroups = Array.from({ length: 30 }, (_, k) => ({ id: 9_000 + k, name: `Release Group ${k}`, shortName: `RG${k}` }));

  const users: UserSpec[] = Array.from({ length: counts.users }, (_, index) => {
    const id = index + 1;
    const name = id === 1 ? 'admin' : `viewer${id}`;
    return {
      id,
      name,
      password: id === counts.users && id > 1 ? '' : `password-${name}`,
      isAdmin: id === 1,
      hiddenTags: id === 2 ? ['theme 3.5'] : [],
      plexUsers: [],
      plexToken: null,
      hasAvatar: false,
      avatar: null,
      apiKeys: ['Shokofin', 'web-ui'].map((deviceName) => ({ deviceName, token: guidOf(`large/${name}/${deviceName}`) })),
    };
  });
  const importFolders = [
    importFolder(roots, { id: 1, name: 'Downloads', directory: 'Downloads', dropSource: true, dropDestination: false, watched: false }),
    importFolder(roots, { id: 2, name: 'Anime', directory: 'Anime', dropSource: false, dropDestination: true, watched: true }),
  ];

  // Groups: one per anime, except that each sequel shares its prequel's group; some renamed, some nested.
  const groups: GroupSpec[] = [];
  const series = anime.map((one, index) => {
    const joinsPrevious = index % 10 === 1;
    if (!joinsPrevious) {
      const id = groups.length + 1;
      const nested = id % 100 === 0 && groups.at(-1)?.parentId === null;
      groups.push(
        groupOf({
          id,
          name: id % 50 === 0 ? `Collection Shelf ${id}` : one.titles[0].value,
          customName: id % 50 === 0,
          mainAnimeId: one.id,
          parentId: nested ? id - 1 : null,
          favouriteOf: id % 25 === 0 ? [1] : [],
        }),
      );
    }
    const group = groups.at(-1)!;
    if (joinsPrevious) group.defaultSeriesId = index;
    group.animeIds.push(one.id);
    return {
      id: index + 1,
      animeId: one.id,
      groupId: group.id,
      titleOverride: index % 250 === 0 ? `${one.titles[0].value} (Director's Cut)` : null,
    };
  });
  const episodes: ManifestEpisode[] = [];
  for (const one of series) episodes.push(...episodesOfSeries(one, anime[one.id - 1], episodes.length + 1));
  for (const episode of episodes) if (episode.id % 199 === 0) episode.hidden = true;
  for (const episode of episodes) if (episode.id % 997 === 0) episode.titleOverride = `Renamed episode ${episode.id}`;

  const files = largeFiles(roots, counts.files, anime, now);
  const watches = new WatchRecorder(new Map(episodes.map((episode) => [episode.anidbEpisodeId, episode.id])));
  const shares = [0.45, 0.25, 0.15, 0.1];
  const firstFileOfEpisode = new Set<number>();
  let previousAnime = -1;
  let watching: boolean[] = [];
  for (const file of files) {
    const link = file.episodeLinks[0];
    if (!link || file.variation || firstFileOfEpisode.has(link.episodeId)) continue;
    firstFileOfEpisode.add(link.episodeId);
    if (link.animeId !== previousAnime) {
      previousAnime = link.animeId;
      watching = users.map((user) => random() < shares[(user.id - 1) % shares.length]);
    }
    for (const user of users) {
      if (!watching[user.id - 1]) continue;
      const roll = random();
      const at = new Date(localMoment(2023, 1, 1, 20).getTime() + Math.floor(random() * 600 * 86_400) * 1000);
      if (roll < 0.8) watches.record(file, user.id, { watchedAt: at });
      else if (roll < 0.85)
        watches.record(file, user.id, { watchedAt: null, stoppedAt: at, resumePositionMs: 60_000 + Math.floor(roll * 900_000) });
    }
  }

  const votes: ManifestVote[] = [];
  for (const [index, one] of anime.entries()) {
    if (index % 10 === 0) votes.push({ entityId: one.id, type: 1, value: 500 + (index % 500) });
    if (index % 50 === 5) votes.push({ entityId: one.id, type: 2, value: 600 + (index % 400) });
    if (index % 100 === 7) votes.push({ entityId: one.episodes[0].id, type: 4, value: 800 });
  }
  return {
    anime,
    tags,
    characters,
    creators,
    releaseGroups,
    users,
    importFolders,
    files,
    groups,
    series,
    episodes,
    episodeStates: watches.episodeStates,
    fileStates: watches.fileStates,
    votes,
    customTags: [
      ...STARTER_CUSTOM_TAGS.map((tag, index) => ({ id: index + 1, ...tag, animeIds: [] as number[], starter: true })),
      {
        id: 6,
        name: 'Comfort Watch',
        description: '',
        animeIds: anime.filter((_, index) => index % 40 === 3).map((one) => one.id),
        starter: false,
      },
      {
        id: 7,
        name: 'Backlog',
        description: 'Some day.',
        animeIds: anime.filter((_, index) => index % 15 === 8).map((one) => one.id),
        starter: false,
      },
    ],
    ignoredAnime: anime.length > 2 ? [{ userId: 1, animeId: anime[2].id, ignoreType: 1 }] : [],
    tmdb: { shows: [], movies: [] },
    sampleFilterPresets: false,
    unsupportedRenamer: false,
    images: false,
  };
}

/** `count` files: 2% unrecognised and 0.5% ignored in Downloads, 3% variations, the rest one per episode in order. */
function largeFiles(roots: MediaRoots, count: number, anime: AnimeSpec[], now: Date): FileSpec[] {
  const slots = anime.flatMap((one) =>
    one.episodes.filter((episode) => episode.type === 1 || episode.type === 3).map((episode) => ({ anime: one, episode })),
  );
  const files: FileSpec[] = [];
  let slot = 0;
  for (let id = 1; id <= count; id++) {
    const hashes = inventedHashes(`large-file-${id}`);
    const size = 150_000_000 + ((id * 7_919_993) % 1_300_000_000);
    const loose = id % 40 === 25;
    const isIgnored = id % 200 === 25;
    const wantsVariation = id % 33 === 0 || slot >= slots.length;
    const target = loose || slots.length === 0 ? null : wantsVariation ? slots[(id * 13) % slots.length] : slots[slot++];
    const double = target && !wantsVariation && id % 400 === 7 && slots[slot]?.anime === target.anime ? slots[slot++] : null;
    const linked = target ? [target, ...(double ? [double] : [])] : [];
    const manual = target !== null && id % 100 === 41;
    const title = target?.anime.titles[0].value ?? '';
    const epno = target ? `${target.episode.type === 3 ? 'S' : ''}${String(target.episode.number).padStart(2, '0')}` : '';
    const group = 9_000 + (id % 30);
    const posixPath = target
      ? `${title}/[RG${id % 30}] ${title} - ${epno}${wantsVariation ? ' (v2)' : ''} [${id}].mkv`
      : `unsorted/Unknown Release ${id}.mkv`;
    const fileName = posixPath.split('/').at(-1)!;
    const created = new Date(now.getTime() - (count - id) * 60_000);
    const locations = [{ id: 0, importFolderId: target ? 2 : 1, relativePath: shokoRelativePath(roots, posixPath), exists: false }];
    if (target && id % 200 === 11)
      locations.push({ id: 0, importFolderId: 1, relativePath: shokoRelativePath(roots, `copies/${fileName}`), exists: false });
    files.push({
      id,
      fileName,
      ...hashes,
      size,
      ignored: isIgnored,
      variation: target !== null && wantsVariation,
      media: mediaSample(null, { minutes: target?.episode.lengthMinutes ?? 24, height: id % 3 === 0 ? 720 : 1080, hevc: id % 4 === 0 }),
      locations,
      episodeLinks: linked.map((one, order) => ({
        animeId: one.anime.id,
        episodeId: anidbEpisodeId(one.anime.id, one.episode.type, one.episode.number),
        source: manual ? ('User' as const) : ('AniDB' as const),
        percentage: 100,
        order: order + 1,
      })),
      anidbFileId: target && !manual ? 1_000_000 + id : null,
      releaseGroupId: target && !manual ? group : null,
      audioLanguages: target && !manual ? ['japanese'] : [],
      subtitleLanguages: target && !manual ? ['english'] : [],
      content: null,
      createdAt: created,
      importedAt: target ? new Date(created.getTime() + 30_000) : null,
      anidbSource: id % 3 === 0 ? 'TV' : 'BluRay',
      anidbCheckedAt: isIgnored ? null : new Date(now.getTime() - (id % 30) * 86_400_000),
    });
  }
  let locationId = 1;
  for (const file of files) for (const location of file.locations) location.id = locationId++;
  return files;
}
