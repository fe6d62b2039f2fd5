import type { FileAniDB, FileCrossReference, FileEventCrossReference } from '@shoko-ts/contract';
import type { FileXRefsStore } from './file-xrefs.store.js';

type Content = { ed2k: string; size: number };
const keyOf = (c: Content) => `${c.ed2k}:${c.size}`;

/** How many parts a file that covers `percentage` of an episode is assumed to be one of (contract files.md §1.7). */
export function partsOf(percentage: number): number {
  if (percentage >= 99) return 1;
  if (percentage >= 49 && percentage <= 51) return 2;
  if (percentage >= 32 && percentage <= 34) return 3;
  if (percentage >= 24 && percentage <= 26) return 4;
  if (percentage >= 19 && percentage <= 21) return 5;
  if (percentage === 16 || percentage === 17) return 6;
  if (percentage === 14 || percentage === 15) return 7;
  if (percentage === 12 || percentage === 13) return 8;
  if (percentage === 10) return 10;
  return 0;
}

const SOURCES: Array<[RegExp, string]> = [
  [/^(tv|dtv|hdtv)$/, 'TV'],
  [/^(dvd|hkdvd|hddvd)$/, 'DVD'],
  [/^bluray$/, 'BluRay'],
  [/^(www|web)$/, 'Web'],
  [/^vhs$/, 'VHS'],
  [/^(vcd|svcd)$/, 'VCD'],
  [/^(ld|laserdisc)$/, 'LaserDisc'],
  [/^camcorder$/, 'Camera'],
  [/^film(8|16|35)mm$/, 'Film'],
];

export function fileSourceOf(stored: string): string {
  const normalized = stored.replace(/-/g, '').toLowerCase();
  return SOURCES.find(([pattern]) => pattern.test(normalized))?.[1] ?? 'Unknown';
}

/** The links and AniDB records of file contents, shaped as the File model's `SeriesIDs` and `AniDB`. */
export class FileXRefs {
  constructor(private readonly store: FileXRefsStore) {}

  /** The `CrossReferences` of a file event: every episode the file is linked to, with local ids where they exist. */
  async eventCrossReferences(fileId: number): Promise<FileEventCrossReference[]> {
    return (await this.store.linksOfFile(fileId)).map((link) => ({
      EpisodeID: link.shokoEpisode ?? null,
      AnidbEpisodeID: link.episode_id,
      SeriesID: link.shokoSeries ?? null,
      AnidbAnimeID: link.episodeAnime ?? link.anime_id,
      GroupID: link.group_id ?? null,
    }));
  }

  async crossReferences(contents: Content[]): Promise<Map<string, FileCrossReference[]>> {
    const result = new Map<string, FileCrossReference[]>();
    const hashes = [...new Set(contents.map((c) => c.ed2k).filter(Boolean))];
    for (let i = 0; i < hashes.length; i += 500) {
      const rows = await this.store.linksOfHashes(hashes.slice(i, i + 500));
      const wanted = new Set(contents.map(keyOf));
      for (const row of rows) {
        const key = keyOf(row);
        if (!wanted.has(key)) continue;
        const animeId = row.episodeAnime ?? row.anime_id;
        const list = result.get(key) ?? [];
        let series = list.find((x) => x.SeriesID.AniDB === animeId);
        if (!series) {
          series = { SeriesID: { ID: row.shokoSeries ?? null, AniDB: animeId, TMDB: { Movie: [], Show: [] } }, EpisodeIDs: [] };
          list.push(series);
        }
        const parts = partsOf(row.percentage);
        series.EpisodeIDs.push({
          ID: row.shokoEpisode ?? null,
          AniDB: row.episode_id,
          TMDB: { Episode: [], Movie: [], Show: [] },
          ReleaseGroup: row.source === 'AniDB' ? (row.release_group_id ?? 0) : null,
          ED2K: row.ed2k,
          FileSize: row.size,
          // Multi-part placement needs the other parts of the same episode; a lone part covers its own share.
          Percentage:
            parts <= 1
              ? { Start: 0, End: 100, Size: row.percentage, Group: parts }
              : { Start: 0, End: row.percentage, Size: row.percentage, Group: parts },
          Source: row.source,
        });
        result.set(key, list);
      }
    }
    for (const list of result.values()) {
      for (const series of list)
        series.EpisodeIDs.sort((a, b) => a.Percentage.Start - b.Percentage.Start || b.Percentage.End - a.Percentage.End);
    }
    return result;
  }

  /** Contents with at least one link a user made. */
  async manuallyLinked(contents: Content[]): Promise<Set<string>> {
    const hashes = [...new Set(contents.map((c) => c.ed2k).filter(Boolean))];
    const linked = new Set<string>();
    for (let i = 0; i < hashes.length; i += 500) {
      const rows = await this.store.userLinkedOfHashes(hashes.slice(i, i + 500));
      for (const row of rows) linked.add(keyOf(row));
    }
    return linked;
  }

  async contentsOfSeries(seriesId: number): Promise<Set<string> | null> {
    const animeId = await this.store.animeOfSeries(seriesId);
    if (animeId === undefined) return null;
    return new Set((await this.store.contentsOfAnime(animeId)).map(keyOf));
  }

  async contentsOfEpisode(episodeId: number): Promise<Set<string> | null> {
    const anidbEpisodeId = await this.store.anidbEpisodeOf(episodeId);
    if (anidbEpisodeId === undefined) return null;
    return new Set((await this.store.contentsOfAnidbEpisode(anidbEpisodeId)).map(keyOf));
  }

  /** `ed2k:size` of the contents linked to each episode (episodes without any are left out). */
  async contentsOfEpisodes(episodeIds: number[]): Promise<Map<number, Set<string>>> {
    const result = new Map<number, Set<string>>();
    for (let i = 0; i < episodeIds.length; i += 500) {
      for (const row of await this.store.contentsOfEpisodes(episodeIds.slice(i, i + 500))) {
        const set = result.get(row.episode_id) ?? new Set<string>();
        set.add(keyOf(row));
        result.set(row.episode_id, set);
      }
    }
    return result;
  }

  async anidbFiles(contents: Content[]): Promise<Map<string, FileAniDB>> {
    const result = new Map<string, FileAniDB>();
    const hashes = [...new Set(contents.map((c) => c.ed2k).filter(Boolean))];
    for (let i = 0; i < hashes.length; i += 500) {
      const rows = await this.store.anidbFilesOfHashes(hashes.slice(i, i + 500));
      for (const row of rows) {
        result.set(keyOf(row), {
          ID: row.file_id!,
          Source: fileSourceOf(row.source),
          ReleaseGroup: { ID: row.group_id, Name: row.group_name ?? null, ShortName: row.group_short_name ?? null, Source: 'AniDB' },
          ReleaseDate: null,
          Version: row.version,
          IsDeprecated: row.is_deprecated === 1,
          IsCensored: row.is_censored === 1,
          OriginalFileName: row.file_name,
          FileSize: row.size,
          Description: row.description,
          AudioLanguages: JSON.parse(row.audio_languages) as string[],
          SubLanguages: JSON.parse(row.subtitle_languages) as string[],
          Chaptered: row.is_chaptered === 1,
          Updated: row.looked_up_at,
        });
      }
    }
    return result;
  }
}
