import { createHash } from 'node:crypto';
import { md4 } from 'hash-wasm';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inventedAnimeXml, inventedEpisodeId } from '../anidb-http/index.js';
import type { FakeAniDBFile, FakeReleaseGroup } from '../anidb-udp/file-commands.js';
import type { FakeTitlesAnime } from '../anidb-titles/index.js';

/**
 * The demo's invented collection: a TV series with its sequel (one group), a movie, an OVA and a series still
 * being collected (a missing episode), with two releases of one episode, one file present twice, and a file AniDB
 * does not know. Every title and id is made up.
 */
interface DemoAnime {
  id: number;
  title: string;
  englishTitle: string;
  type: string;
  episodes: number;
  startDate: string;
  related: Array<{ id: number; relation: string; title: string }>;
}

const ANIME: DemoAnime[] = [
  {
    id: 9001,
    title: 'Kiri no Toudai Yuubinkyoku',
    englishTitle: 'The Post Office in the Foggy Lighthouse',
    type: 'TV Series',
    episodes: 3,
    startDate: '2021-04-06',
    related: [{ id: 9002, relation: 'Sequel', title: 'Kiri no Toudai Yuubinkyoku 2' }],
  },
  {
    id: 9002,
    title: 'Kiri no Toudai Yuubinkyoku 2',
    englishTitle: 'The Post Office in the Foggy Lighthouse 2',
    type: 'TV Series',
    episodes: 3,
    startDate: '2022-10-04',
    related: [{ id: 9001, relation: 'Prequel', title: 'Kiri no Toudai Yuubinkyoku' }],
  },
  {
    id: 9101,
    title: 'Hoshikuzu Bentou',
    englishTitle: 'Stardust Lunchbox',
    type: 'Movie',
    episodes: 1,
    startDate: '2019-07-19',
    related: [],
  },
  { id: 9201, title: 'Tetsu no Niwa', englishTitle: 'The Iron Garden', type: 'OVA', episodes: 2, startDate: '2018-02-23', related: [] },
  {
    id: 9301,
    title: 'Sora-iro Sanpo',
    englishTitle: 'Sky-Coloured Strolls',
    type: 'TV Series',
    episodes: 6,
    startDate: '2023-01-08',
    related: [],
  },
];

interface DemoFile {
  relativePath: string;
  /** null = a file AniDB does not know. */
  anime: number | null;
  epno: string;
  /** Files with the same seed have the same content (one file, two locations). */
  seed: string;
  group?: number;
}

const FILES: DemoFile[] = [
  {
    relativePath: 'Kiri no Toudai Yuubinkyoku/[Lantern] Kiri no Toudai Yuubinkyoku - 01 [1080p].mkv',
    anime: 9001,
    epno: '1',
    seed: 'kiri-01-lantern',
    group: 7001,
  },
  {
    relativePath: 'Kiri no Toudai Yuubinkyoku/[Harbour Subs] Kiri no Toudai Yuubinkyoku - 01 [720p].mkv',
    anime: 9001,
    epno: '1',
    seed: 'kiri-01-harbour',
    group: 7002,
  },
  {
    relativePath: 'Kiri no Toudai Yuubinkyoku/[Lantern] Kiri no Toudai Yuubinkyoku - 02 [1080p].mkv',
    anime: 9001,
    epno: '2',
    seed: 'kiri-02',
    group: 7001,
  },
  {
    relativePath: 'Kiri no Toudai Yuubinkyoku/[Lantern] Kiri no Toudai Yuubinkyoku - 03 [1080p].mkv',
    anime: 9001,
    epno: '3',
    seed: 'kiri-03',
    group: 7001,
  },
  {
    relativePath: 'Kiri no Toudai Yuubinkyoku/[Lantern] Kiri no Toudai Yuubinkyoku - S1 [1080p].mkv',
    anime: 9001,
    epno: 'S1',
    seed: 'kiri-s1',
    group: 7001,
  },
  { relativePath: 'Backup/Kiri 02 (copy).mkv', anime: 9001, epno: '2', seed: 'kiri-02', group: 7001 },
  {
    relativePath: 'Kiri no Toudai Yuubinkyoku 2/[Lantern] Kiri no Toudai Yuubinkyoku 2 - 01.mkv',
    anime: 9002,
    epno: '1',
    seed: 'kiri2-01',
    group: 7001,
  },
  {
    relativePath: 'Kiri no Toudai Yuubinkyoku 2/[Lantern] Kiri no Toudai Yuubinkyoku 2 - 02.mkv',
    anime: 9002,
    epno: '2',
    seed: 'kiri2-02',
    group: 7001,
  },
  { relativePath: 'Movies/Hoshikuzu Bentou (2019).mkv', anime: 9101, epno: '1', seed: 'hoshikuzu', group: 7003 },
  { relativePath: 'Tetsu no Niwa/Tetsu no Niwa - OVA 1.mkv', anime: 9201, epno: '1', seed: 'tetsu-1', group: 7003 },
  { relativePath: 'Tetsu no Niwa/Tetsu no Niwa - OVA 2.mkv', anime: 9201, epno: '2', seed: 'tetsu-2', group: 7003 },
  { relativePath: 'Sora-iro Sanpo/Sora-iro Sanpo - 01.mkv', anime: 9301, epno: '1', seed: 'sora-01', group: 7002 },
  { relativePath: 'Sora-iro Sanpo/Sora-iro Sanpo - 02.mkv', anime: 9301, epno: '2', seed: 'sora-02', group: 7002 },
  { relativePath: 'Sora-iro Sanpo/Sora-iro Sanpo - 04.mkv', anime: 9301, epno: '4', seed: 'sora-04', group: 7002 },
  { relativePath: 'Unsorted/Mystery Release - 01.mkv', anime: null, epno: '1', seed: 'mystery' },
];

const SAMPLE_MKV = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../server/src/media/mediainfo/fixtures/sample.mkv');

/**
 * A real Matroska file made unique by a top-level Void element (ID 0xEC) after the segment: players and MediaInfo skip
 * Void elements, so every demo file is a valid video with its own hashes.
 */
function videoBytes(seed: string): Buffer {
  const padding = createHash('sha512').update(seed).digest();
  const voidElement = Buffer.concat([Buffer.from([0xec, 0x80 | padding.length]), padding]);
  return Buffer.concat([fs.readFileSync(SAMPLE_MKV), voidElement]);
}

/** ED2K of a file under one chunk (9,728,000 bytes) is the MD4 of its bytes; hash-wasm's MD4 needs no OpenSSL legacy mode. */
const ed2kOfSmallFile = async (data: Buffer) => (await md4(data)).toUpperCase();

export interface DemoLibrary {
  /** AniDB anime XML by id, for the HTTP fake. */
  anime: Record<number, string>;
  /** What the UDP fake's FILE command knows. */
  files: FakeAniDBFile[];
  /** The titles dump: the library's anime and a few more to find with the AniDB search. */
  titles: FakeTitlesAnime[];
  /** The release groups of the files (GROUP). */
  groups: FakeReleaseGroup[];
}

const GROUPS: FakeReleaseGroup[] = [
  { id: 7001, name: 'Lantern Subs', shortName: 'Lantern' },
  { id: 7002, name: 'Harbour Subs', shortName: 'Harbour Subs' },
  { id: 7003, name: 'Iron Garden Fansubs', shortName: 'IGF' },
];

/** Anime only the titles dump knows, for adding series by search. */
const DUMP_ONLY: FakeTitlesAnime[] = [
  {
    id: 9401,
    titles: [
      { type: 'main', language: 'x-jat', value: 'Kumo no Ue no Toshokan' },
      { type: 'official', language: 'en', value: 'The Library Above the Clouds' },
    ],
  },
  {
    id: 9402,
    titles: [
      { type: 'main', language: 'x-jat', value: 'Yozora Tegami Ressha' },
      { type: 'syn', language: 'en', value: 'Night Letter Train' },
    ],
  },
  {
    id: 9403,
    titles: [
      { type: 'main', language: 'x-jat', value: 'Kaze Machi Shoutengai' },
      { type: 'short', language: 'x-jat', value: 'KazeMachi' },
    ],
  },
];

/** Writes the library's files under `dir` (missing ones only; the user's changes are kept) and describes them. */
export async function writeDemoLibrary(dir: string): Promise<DemoLibrary> {
  const files: FakeAniDBFile[] = [];
  const known = new Set<string>();
  for (const [index, file] of FILES.entries()) {
    const data = videoBytes(file.seed);
    const target = path.join(dir, file.relativePath);
    if (!fs.existsSync(target)) {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, data);
    }
    if (file.anime === null || known.has(file.seed)) continue;
    known.add(file.seed);
    files.push({
      size: data.length,
      ed2k: await ed2kOfSmallFile(data),
      fileId: 80_000 + index,
      animeId: file.anime,
      episodeId: inventedEpisodeId(file.anime, file.epno),
      groupId: file.group,
      fileName: path.basename(file.relativePath),
    });
  }
  const anime: Record<number, string> = Object.fromEntries(
    ANIME.map((a) => [
      a.id,
      inventedAnimeXml({
        id: a.id,
        title: a.title,
        englishTitle: a.englishTitle,
        type: a.type,
        regularEpisodes: a.episodes,
        startDate: a.startDate,
        relatedAnime: a.related,
        similarAnime: [],
      }),
    ]),
  );
  // Anime found only by search can still be added: AniDB's HTTP fake knows them too.
  for (const extra of DUMP_ONLY) {
    const main = extra.titles.find((t) => t.type === 'main')!.value;
    const english = extra.titles.find((t) => t.language === 'en')?.value ?? main;
    anime[extra.id] = inventedAnimeXml({
      id: extra.id,
      title: main,
      englishTitle: english,
      regularEpisodes: 4,
      startDate: '2020-10-02',
      relatedAnime: [],
      similarAnime: [],
    });
  }
  const titles: FakeTitlesAnime[] = [
    ...ANIME.map((a) => ({
      id: a.id,
      titles: [
        { type: 'main', language: 'x-jat', value: a.title },
        { type: 'official', language: 'en', value: a.englishTitle },
      ],
    })),
    ...DUMP_ONLY,
  ];
  return { anime, files, titles, groups: GROUPS };
}
